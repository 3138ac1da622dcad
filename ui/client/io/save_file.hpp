// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Writing a whole file so that it is either the new contents or untouched: written beside it,
// every write, the sync and the close checked, then renamed over it. The lab's exports,
// presets, study files and run metadata all go through here.

#include <QByteArray>
#include <QString>

namespace ddplab::ui {

// On failure (a full disk, a folder one cannot write to) the file keeps what it held and
// *error (when given) says which file, why, and that its previous contents are kept.
bool writeFileAtomically(const QString& path, const QByteArray& contents, QString* error);

}  // namespace ddplab::ui
