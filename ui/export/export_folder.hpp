// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The folder the window's save, open and export dialogs start in (charts, runs, presets and
// studies alike): the last one used, else a folder of the lab's own among the user's documents
// (not their home).

#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

QString lastExportFolder();
// `path` is a file (its folder is kept) or a folder.
void rememberExportFolder(const QString& path);

// A save dialog in the last folder, suggesting `name` (made a file name) + `suffix`; the folder
// chosen is remembered. Empty when cancelled.
QString askSavePath(QWidget* parent, const QString& title, const QString& name, const QString& suffix, const QString& filter);

}  // namespace ddplab::ui
