// SPDX-License-Identifier: GPL-3.0-or-later
#include "export_folder.hpp"

#include "export/export_service.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace ddplab::ui {
namespace {

const QString kSettingsKey = QStringLiteral("export/lastDirectory");

}  // namespace

QString lastExportFolder()
{
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString fallback = QDir(documents.isEmpty() ? QDir::homePath() : documents).filePath(QStringLiteral("DDP Lab exports"));
    return QSettings().value(kSettingsKey, fallback).toString();
}

void rememberExportFolder(const QString& path)
{
    const QFileInfo info(path);
    QSettings().setValue(kSettingsKey, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString askSavePath(QWidget* parent, const QString& title, const QString& name, const QString& suffix, const QString& filter)
{
    const QString suggested = QDir(lastExportFolder()).filePath(ExportService::fileNameFor(name) + suffix);
    const QString path = QFileDialog::getSaveFileName(parent, title, suggested, filter);
    if (!path.isEmpty())
        rememberExportFolder(path);
    return path;
}

}  // namespace ddplab::ui
