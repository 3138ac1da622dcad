// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run of the lab as a TensorBoard run, written by the engine's own writer
// (engine/tensorboard/run_encoder.hpp, which rank 0 uses for tensorboard_dir): one event file,
// `events.out.tfevents.<start>.<host>`, made from the run's events.jsonl event by event, so that
// what the window writes and what the engine writes are the same scalars under the same tags
// (docs/tensorboard.md). Here: the events as that writer takes them, the run's start and its
// file's name, the folders of an export, and a stored run written whole.

#include "client/runs/run_record.hpp"

#include "tensorboard/run_encoder.hpp"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <functional>

namespace ddplab::ui {

// One event as the writer takes it: its type and each field that is a number.
tensorboard::EventNumbers tensorBoardEventOf(const QJsonObject& event);

// When the run began, in seconds since 1970: its meta.json's `started`; without one, the time
// its id names (the lab's ids are the local time it started, yyyyMMdd-HHmmss-zzz); else 0.
// Never the clock, so a run exported twice gets the same file name, replacing the first.
double tensorBoardStartOf(const RunRecord& run);
// events.out.tfevents.<start, whole seconds>.<host it ran on, or this computer>.
QString tensorBoardFileName(const RunRecord& run);

// A name TensorBoard and every file system take as a folder (tensorboard::folderName).
QString tensorBoardFolderName(const QString& text);
// A run's folder in an export: "<its id>_<its name>".
QString tensorBoardRunFolder(const RunRecord& run);

// What writing a stored run gave: its file, or why none was written; and a sentence about
// values beyond float32's range ("" when none), which are written all the same.
struct TensorBoardRunFile {
    QString path;
    QString error;
    QString warning;
};
// Stored `run` (its events.jsonl, read as the Runs list reads it: a regular file only, at most
// RunStore's bound) into `folder` (made when missing), written whole (io/save_file.hpp): the
// header, `start`, its events' scalars, then what `end` adds once they are encoded (a study's
// figures and session end, which need the run's last step). An events.jsonl that is not a
// regular file one can read is refused, naming it; nothing is written then.
TensorBoardRunFile writeTensorBoardRun(const RunRecord& run, const QString& folder, const QByteArray& start = {},
                                       const std::function<QByteArray(tensorboard::RunEncoder&)>& end = {});

}  // namespace ddplab::ui
