// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The field names of a study file (docs/studies.md), spelt once: the reader, the writer and
// the Study page's builder use these.

#include <QString>
#include <QStringList>

namespace ddplab::ui {

// effective_batch's "split" values, in the order of BatchSplit (study_spec.hpp).
inline const QStringList kSplitNames{QStringLiteral("ranks_first"), QStringLiteral("batch_first"), QStringLiteral("fixed_ranks")};

namespace studyField {
inline const QString kId = QStringLiteral("id");
inline const QString kTitle = QStringLiteral("title");
inline const QString kSource = QStringLiteral("source");
inline const QString kSummary = QStringLiteral("summary");
inline const QString kLookFor = QStringLiteral("look_for");
inline const QString kExplanation = QStringLiteral("explanation");
inline const QString kPreset = QStringLiteral("preset");
inline const QString kBase = QStringLiteral("base");
inline const QString kAxes = QStringLiteral("axes");
inline const QString kZip = QStringLiteral("zip");
inline const QString kRepeats = QStringLiteral("repeats");
inline const QString kTarget = QStringLiteral("target");
inline const QString kShow = QStringLiteral("show");
// an axis
inline const QString kKey = QStringLiteral("key");
inline const QString kValues = QStringLiteral("values");
inline const QString kFrom = QStringLiteral("from");
inline const QString kTo = QStringLiteral("to");
inline const QString kFactor = QStringLiteral("factor");
inline const QString kStep = QStringLiteral("step");
inline const QString kCount = QStringLiteral("count");
inline const QString kScale = QStringLiteral("scale");
inline const QString kSplit = QStringLiteral("split");
inline const QString kMaxRanks = QStringLiteral("max_ranks");
inline const QString kMaxBatch = QStringLiteral("max_batch");
inline const QString kWhen = QStringLiteral("when");
// a target
inline const QString kMetric = QStringLiteral("metric");
inline const QString kAtMost = QStringLiteral("at_most");
inline const QString kAtLeast = QStringLiteral("at_least");
inline const QString kStop = QStringLiteral("stop");
inline const QString kTrainedShare = QStringLiteral("trained_share");
// the target's one measure that is no engine name: the step's mini-batch accuracy
inline const QString kBatchAccuracy = QStringLiteral("batch_accuracy");
// show
inline const QString kFigure = QStringLiteral("figure");
inline const QString kColour = QStringLiteral("colour");
inline const QString kHeatmap = QStringLiteral("heatmap");
inline const QString kSummarise = QStringLiteral("summarise");
inline const QString kX = QStringLiteral("x");
inline const QString kCurves = QStringLiteral("curves");
inline const QString kBest = QStringLiteral("best");
}  // namespace studyField

}  // namespace ddplab::ui
