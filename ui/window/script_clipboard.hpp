// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Copy as PyTorch Script": settings (a stored run's, or Setup's) as a PyTorch DDP script for
// torchrun (client/script), put on the clipboard. The Runs list and the File menu both use it.

#include <QJsonObject>
#include <QString>

namespace ddplab::ui {

struct CopiedScript {
    bool copied = false;
    QString message;  // copied: what and how to run it; not copied: why not
};

CopiedScript copyPyTorchScript(const QJsonObject& settings, const QString& title);

}  // namespace ddplab::ui
