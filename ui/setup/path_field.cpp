// SPDX-License-Identifier: GPL-3.0-or-later
#include "path_field.hpp"

#include "client/wire.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QSettings>
#include <QToolButton>

namespace ddplab::ui {
namespace {

QString browseSetting(const QString& key)
{
    return QStringLiteral("setup/browse/") + key;
}

}  // namespace

bool isPathKey(const QString& key)
{
    return key == wire(key::kModelFile) || key == wire(key::kTrainData) || key == wire(key::kValData);
}

QWidget* withBrowseButton(QWidget* editor, const QString& label, const std::function<void()>& browse)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* button = new QToolButton;
    button->setText(QStringLiteral("…"));
    button->setToolTip(QObject::tr("Choose the file (for a folder of .npy files: its inputs.npy)"));
    button->setAccessibleName(QObject::tr("Browse for %1").arg(label));
    QObject::connect(button, &QToolButton::clicked, row, browse);
    layout->addWidget(editor, 1);
    layout->addWidget(button);
    return row;
}

QString askForPath(QWidget* parent, const QString& key, const QString& label)
{
    const QString filter = key == wire(key::kModelFile)
                               ? QObject::tr("TorchScript models (*.pt *.pth *.ts);;All files (*)")
                               : QObject::tr("torch.save data (*.pt *.pth);;A folder of .npy files: its inputs.npy (*.npy);;All files (*)");
    return QFileDialog::getOpenFileName(parent, QObject::tr("Choose %1").arg(label), browseFolder(key), filter);
}

QString pathChosen(const QString& key, const QString& file)
{
    const QFileInfo info(file);
    const bool npy = key != wire(key::kModelFile) &&
                     (info.fileName() == QLatin1String("inputs.npy") || info.fileName() == QLatin1String("targets.npy"));
    const QString value = npy ? info.absolutePath() : info.absoluteFilePath();
    QSettings().setValue(browseSetting(key), QFileInfo(value).absolutePath());
    return value;
}

QString browseFolder(const QString& key)
{
    return QSettings().value(browseSetting(key), QDir::homePath()).toString();
}

}  // namespace ddplab::ui
