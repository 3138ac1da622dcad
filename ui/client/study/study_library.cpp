// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_library.hpp"

#include <QDir>
#include <QFileInfo>

namespace ddplab::ui {

StudyLibrary StudyLibrary::load(const QString& folder)
{
    StudyLibrary library;
    const QDir dir(folder);
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        StudyReadResult read = readStudyFile(dir.filePath(name));
        if (read.spec)
            library.m_studies.append(*read.spec);
        else
            library.m_problems.append(read.error);
    }
    return library;
}

const StudySpec* StudyLibrary::find(const QString& id) const
{
    for (const StudySpec& study : m_studies) {
        if (study.id == id)
            return &study;
    }
    return nullptr;
}

StudyReadResult resolveStudy(const QString& nameOrPath, const StudyLibrary& library)
{
    if (const StudySpec* study = library.find(nameOrPath))
        return {*study, QString()};
    if (QFileInfo::exists(nameOrPath) || nameOrPath.endsWith(QLatin1String(".json")))
        return readStudyFile(nameOrPath);
    QStringList ids;
    for (const StudySpec& study : library.studies())
        ids.append(study.id);
    return {std::nullopt, QStringLiteral("\"%1\" is neither a built-in study (%2) nor a study file")
                              .arg(nameOrPath, ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", ")))};
}

}  // namespace ddplab::ui
