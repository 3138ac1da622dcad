// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs and studies as TensorBoard reads them (docs/tensorboard.md), for `ddplab
// --export-tensorboard RUN_OR_STUDY... DIR --quit` and the window's Export → TensorBoard…:
//   DIR/<run id>_<name>/events.out.tfevents.*          a run: every scalar (client/tensorboard)
//   DIR/<study>/events.out.tfevents.*                    a study: the HParams plugin's experiment
//                                                        (its axes as hparams, its figures as metrics)
//   DIR/<study>/<point>_<values>/events.out.tfevents.*   each of its runs: every scalar, the study's
//                                                        figures as study/<figure>, and the session's
//                                                        hparams, start and end
// so that TensorBoard's HParams tab shows the study's table. Stored runs are read as they are
// on disk, so runs of earlier versions export too.

#include "client/runs/run_record.hpp"
#include "client/study/study_store.hpp"

#include <QList>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class RunStore;

struct TensorBoardSources {
    QList<RunRecord> runs;       // written as runs of their own
    QList<StoredStudy> studies;  // written whole, with the HParams plugin's data
};

// The command line's names: a run's folder, a study's folder, a run's id or name in `runs`, a
// study's id in `studies`. "" in *error when every name was found, else which was not.
TensorBoardSources resolveTensorBoardSources(const QStringList& names, const RunStore& runs, const StudyStore& studies,
                                             QString* error);
// The window's choice of runs: a run of a study brings its whole study (once), the others stay runs.
TensorBoardSources tensorBoardSourcesOf(const QList<RunRecord>& runs, const StudyStore& studies);

struct TensorBoardExport {
    QStringList files;     // every event file written, each once
    QStringList problems;  // what could not be written, one sentence each
    QStringList warnings;  // written, but said: a folder renamed, values beyond float32, studies sharing the folder
    int runs = 0;          // runs written (a study's included)
    int studies = 0;
};
// Writes every source into `directory`. Two sources that would take one folder (a run or study
// id given from two folders) get two: the later one's name gains "_2", with a warning. When
// `directory` ends up holding several studies, a warning says that TensorBoard's HParams tab
// shows one experiment per --logdir. A run whose events.jsonl is no regular file is a problem,
// and nothing is written for it.
TensorBoardExport exportToTensorBoard(const TensorBoardSources& sources, const RunStore& store, const QString& directory);

// The folder, under `directory`, that one study is written to (unless another source of the
// same export took it first).
QString tensorBoardStudyFolder(const StoredStudy& study, const QString& directory);

}  // namespace ddplab::ui
