// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// study.csv: a header, then one row per run (every swept key, seed, what it was, where it
// ended, steps and samples to the target, wall time, status). It opens in pandas and
// spreadsheets; a figure a run does not have is an empty cell, never a made-up number.

#include "client/study/study_results.hpp"

#include <QByteArray>

namespace ddplab::ui {

QByteArray studyCsv(const StoredStudy& study, const QList<StudyRunResult>& results);

}  // namespace ddplab::ui
