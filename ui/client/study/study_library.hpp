// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The studies that come with the lab (resources/studies/<id>.json and its <id>.md, compiled in
// under :/studies/), listed with the lessons; and what `--study NAME|FILE` means.

#include "client/study/study_file.hpp"

#include <QList>
#include <QStringList>

namespace ddplab::ui {

class StudyLibrary {
public:
    static constexpr const char* kResourceFolder = ":/studies";

    static StudyLibrary load(const QString& folder = QString::fromLatin1(kResourceFolder));

    const QList<StudySpec>& studies() const { return m_studies; }
    const StudySpec* find(const QString& id) const;
    const QStringList& problems() const { return m_problems; }

private:
    QList<StudySpec> m_studies;
    QStringList m_problems;
};

// A built-in study's id, or a study file; the error lists the built-in ones.
StudyReadResult resolveStudy(const QString& nameOrPath, const StudyLibrary& library);

}  // namespace ddplab::ui
