// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Setup's fields that name a file of your own (workload torchscript: model_file, train_data,
// val_data): a Browse button beside the text, a file dialog that opens where that field's last
// file was chosen (QSettings), and a NumPy data folder chosen through its inputs.npy.

#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

bool isPathKey(const QString& key);

// `editor` with a "…" button after it that calls `browse`.
QWidget* withBrowseButton(QWidget* editor, const QString& label, const std::function<void()>& browse);

// The file dialog for `key`; empty when cancelled.
QString askForPath(QWidget* parent, const QString& key, const QString& label);

// What the field holds for a file chosen (a .npy file of a data folder stands for the folder);
// remembers the folder for the next dialog.
QString pathChosen(const QString& key, const QString& file);

// Where the dialog for `key` opens: the folder last chosen, else the home folder.
QString browseFolder(const QString& key);

}  // namespace ddplab::ui
