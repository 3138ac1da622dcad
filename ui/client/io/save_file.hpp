#pragma once
// Writing a whole file so that it is either the new contents or untouched (QSaveFile): the
// lab's exports, presets and run metadata all go through here.

#include <QByteArray>
#include <QString>

namespace ddplab::ui {

// On failure, *error (when given) says which file and why.
bool writeFileAtomically(const QString& path, const QByteArray& contents, QString* error);

}  // namespace ddplab::ui
