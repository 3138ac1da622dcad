// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The presets that come with the lab (resources/presets/<name>.json, compiled in under
// :/presets/): one engine config per experiment of the seeds. Like lessons, they are
// discovered from the folder, so a new preset file needs no code.

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct BuiltInPreset {
    QString name;   // the file's base name: "seed000-8x16-linear"
    QString group;  // "seed 000", from the name; "" when it does not start with one
    QString title;  // the rest of the name, readable: "8x16 linear"
    QJsonObject config;
};

class PresetLibrary {
public:
    static constexpr const char* kResourceFolder = ":/presets";

    static PresetLibrary load(const QString& folder = QString::fromLatin1(kResourceFolder));

    const QList<BuiltInPreset>& presets() const { return m_presets; }
    const BuiltInPreset* find(const QString& name) const;
    const QStringList& problems() const { return m_problems; }

private:
    QList<BuiltInPreset> m_presets;
    QStringList m_problems;
};

}  // namespace ddplab::ui
