// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless_script.hpp"

#include "client/io/save_file.hpp"
#include "client/library/lesson_library.hpp"
#include "client/library/preset_library.hpp"
#include "client/runs/run_store.hpp"
#include "client/script/pytorch_script.hpp"
#include "client/script/script_source.hpp"
#include "core/protocol_names.hpp"

#include <QFileInfo>

namespace ddplab::ui {

int exportScriptHeadless(const LaunchOptions& options, QTextStream& out, QTextStream& err)
{
    const ScriptSource source = resolveScriptSource(options.scriptSource, RunStore(), LessonLibrary::load(), PresetLibrary::load());
    if (!source.error.isEmpty()) {
        err << "ddplab: " << source.error << Qt::endl;
        return kExitInvalidInput;
    }
    const PyTorchScript script = pytorchScriptOf(source.settings, source.title);
    if (!script.isWritten()) {
        err << "ddplab: " << source.title << " cannot be a PyTorch script: " << script.error << Qt::endl;
        return kExitInvalidInput;
    }
    QString error;
    if (!writeFileAtomically(options.scriptFile, script.text.toUtf8(), &error)) {
        err << "ddplab: " << error << Qt::endl;
        return 1;  // as a failed --export
    }
    out << "Wrote " << QFileInfo(options.scriptFile).absoluteFilePath() << " (" << source.title << ")" << Qt::endl;
    for (const QString& note : script.notes)
        out << "Left out: " << note << Qt::endl;
    out << "Run it with: " << torchrunCommand(script.ranks, options.scriptFile) << Qt::endl;
    return kExitOk;
}

}  // namespace ddplab::ui
