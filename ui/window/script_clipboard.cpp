// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/script_clipboard.hpp"

#include "client/script/pytorch_script.hpp"

#include <QClipboard>
#include <QCoreApplication>
#include <QGuiApplication>

namespace ddplab::ui {

CopiedScript copyPyTorchScript(const QJsonObject& settings, const QString& title)
{
    const PyTorchScript script = pytorchScriptOf(settings, title);
    if (!script.isWritten())
        return {false, script.error};
    QGuiApplication::clipboard()->setText(script.text);
    QString message = QCoreApplication::translate("ScriptClipboard", "Copied %1 as a PyTorch script (save it as train_ddp.py, run it "
                                                                     "with: %2)")
                          .arg(title, torchrunCommand(script.ranks, QStringLiteral("train_ddp.py")));
    for (const QString& note : script.notes)
        message += QCoreApplication::translate("ScriptClipboard", "; left out: %1").arg(note);
    return {true, message};
}

}  // namespace ddplab::ui
