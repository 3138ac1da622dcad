#include "save_file.hpp"

#include <QSaveFile>

namespace ddplab::ui {

bool writeFileAtomically(const QString& path, const QByteArray& contents, QString* error)
{
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size() && file.commit())
        return true;
    if (error)
        *error = QStringLiteral("Cannot write %1: %2").arg(path, file.errorString());
    return false;
}

}  // namespace ddplab::ui
