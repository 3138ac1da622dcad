// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless_tensorboard.hpp"

#include "client/runs/run_store.hpp"
#include "client/study/study_store.hpp"
#include "client/study/study_tensorboard.hpp"
#include "core/protocol_names.hpp"

#include <QDir>

namespace ddplab::ui {

int exportTensorBoardHeadless(const LaunchOptions& options, QTextStream& out, QTextStream& err)
{
    const RunStore runs;
    const StudyStore studies;
    QString error;
    const TensorBoardSources sources = resolveTensorBoardSources(options.tensorBoardSources, runs, studies, &error);
    if (!error.isEmpty()) {
        err << "ddplab: " << error << Qt::endl;
        return kExitInvalidInput;
    }
    const QString directory = QDir(options.tensorBoardDirectory).absolutePath();
    const TensorBoardExport done = exportToTensorBoard(sources, runs, directory);
    for (const QString& problem : done.problems)
        err << "ddplab: " << problem << Qt::endl;
    for (const QString& warning : done.warnings)
        err << "ddplab: warning: " << warning << Qt::endl;
    out << "Wrote " << done.files.size() << (done.files.size() == 1 ? " TensorBoard event file (" : " TensorBoard event files (")
        << done.runs << (done.runs == 1 ? " run" : " runs");
    if (done.studies > 0)
        out << ", " << done.studies << (done.studies == 1 ? " study" : " studies") << " with their hyperparameters";
    out << ") to " << directory << Qt::endl;
    out << "Open them with: tensorboard --logdir " << directory << Qt::endl;
    return done.problems.isEmpty() ? kExitOk : 1;  // 1: a file not written, as a failed --export
}

}  // namespace ddplab::ui
