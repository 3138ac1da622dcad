// SPDX-License-Identifier: GPL-3.0-or-later
#include "preset_library.hpp"

#include "client/library/preset_file.hpp"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace ddplab::ui {

PresetLibrary PresetLibrary::load(const QString& folder)
{
    static const QRegularExpression kSeedPrefix(QStringLiteral("^seed(\\d{3})-(.+)$"));
    PresetLibrary library;
    const QDir directory(folder);
    for (const QString& file : directory.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const PresetReadResult read = readPresetFile(directory.filePath(file));
        if (!read.error.isEmpty()) {
            library.m_problems.append(read.error);
            continue;
        }
        BuiltInPreset preset;
        preset.name = QFileInfo(file).completeBaseName();
        preset.config = read.config;
        const QRegularExpressionMatch match = kSeedPrefix.match(preset.name);
        preset.group = match.hasMatch() ? QStringLiteral("seed %1").arg(match.captured(1)) : QString();
        preset.title = (match.hasMatch() ? match.captured(2) : preset.name).replace(QLatin1Char('-'), QLatin1Char(' '));
        library.m_presets.append(preset);
    }
    return library;
}

const BuiltInPreset* PresetLibrary::find(const QString& name) const
{
    for (const BuiltInPreset& preset : m_presets) {
        if (preset.name == name)
            return &preset;
    }
    return nullptr;
}

}  // namespace ddplab::ui
