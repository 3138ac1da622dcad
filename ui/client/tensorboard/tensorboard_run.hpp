// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run of the lab as a TensorBoard run: one event file, `events.out.tfevents.<time>.<host>`,
// holding every scalar the run has at its step (docs/tensorboard.md):
//   - each figure of its step events under its own name (loss, lr, train_loss, update_var,
//     noise_scale, grad_norm, step_ms, ...), of its eval events (val_loss, val_accuracy,
//     eval_samples) and of its epoch events (epoch_loss, epoch_samples_per_sec, ...): the names
//     RunData gives them, as in the lab's CSV;
//   - effective_batch_size and lr_effective from its config event, at step 0;
// each at the wall time the run reached its step: the run's start (meta.json) plus the step's
// `wall_s` (older streams: the sum of their steps' step_ms), the time of the step at or before
// an eval or epoch event. The encoder writes what is new in a run, so a stored run is written
// at once and a live one as it streams.

#include "client/runs/run_record.hpp"

#include <QByteArray>
#include <QHash>
#include <QString>

namespace ddplab::ui {

class RunData;
class RunStore;

class TensorBoardRunEncoder {
public:
    explicit TensorBoardRunEncoder(const RunRecord& record);

    // The run's start, in seconds since 1970 (its meta.json's `started`; now when it has none).
    double startSeconds() const { return m_start; }
    // events.out.tfevents.<start, whole seconds>.<host>: the same name each time for one run,
    // so writing it again replaces it.
    const QString& fileName() const { return m_fileName; }

    // The file's first record (file_version); empty once given.
    QByteArray header();
    // The records of every point of `run` not encoded yet (the header first, if not given).
    QByteArray encodeNew(const RunData& run);
    // The wall time of `step` in `run`, in seconds since 1970.
    double wallTimeAt(const RunData& run, qint64 step) const;

private:
    double m_start = 0.0;
    QString m_fileName;
    bool m_headerGiven = false;
    bool m_configGiven = false;
    QHash<QString, qsizetype> m_encoded;  // metric -> points already encoded
};

// A name TensorBoard and every file system take as a folder: letters, digits, '.', '-' and '_'
// (anything else becomes '_'), at most 120 characters; never empty.
QString tensorBoardFolderName(const QString& text);
// A run's folder in an export: "<its id>_<its name>".
QString tensorBoardRunFolder(const RunRecord& run);

// The whole of `run` into `folder` (made when missing): the header, `start`, every scalar, then
// `end` (framed records, e.g. the HParams summaries of a study's session). Written whole
// (io/save_file.hpp). Returns the file's path, or "" with *error saying why.
QString writeTensorBoardRun(const RunData& run, const QString& folder, QString* error, const QByteArray& start = {},
                            const QByteArray& end = {});
// A stored run read back from its folder (RunStore::loadRun: what an earlier version wrote too)
// and written into directory/tensorBoardRunFolder(run).
QString exportRunToTensorBoard(const RunStore& store, const RunRecord& run, const QString& directory, QString* error);

}  // namespace ddplab::ui
