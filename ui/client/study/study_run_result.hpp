// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One row per run of a study: what it was (its point, seed, ranks, batch, LR), where it ended
// (each figure, its status) and when it reached the study's target. study.csv
// (study_csv.hpp) writes these rows; the summaries (study_results.hpp) read them.

#include "client/runs/run_record.hpp"
#include "client/study/figure_summary.hpp"
#include "client/study/study_figures.hpp"
#include "client/study/study_store.hpp"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QString>

#include <limits>

namespace ddplab::ui {

class RunData;
class RunStore;

struct StudyRunResult {
    int point = -1;
    int repeat = 0;
    QJsonObject values;  // the swept keys' values
    QString runId;
    RunStatus status = RunStatus::Running;
    QString error;
    // What it was.
    qint64 seed = 0;
    qint64 worldSize = 0;
    qint64 batchSize = 0;
    qint64 effectiveBatch = 0;
    double lr = 0.0;
    double effectiveLr = 0.0;
    QString lrRule;
    QString optimizer;
    // Where it ended (NaN: the run has no such figure). The series figures: their last epoch's
    // mean (study.csv's columns); `ends` keeps their last and best values.
    double loss = kNone;
    double accuracy = kNone;
    double trainLoss = kNone;      // over the training set (a fixed set of it for Fashion-MNIST)
    double trainAccuracy = kNone;
    double valLoss = kNone;
    double valAccuracy = kNone;
    QHash<QString, SeriesEnds> ends;  // by figure id
    QJsonObject config;               // the run's resolved config (a chart's x may be one of its figures)
    QList<QPointF> curve;             // the study's `curves` figure against epochs
    double updateVar = kNone;
    double noiseScale = kNone;
    double wMean = kNone;
    double wallSeconds = kNone;
    qint64 steps = 0;
    double samples = 0.0;
    // When it first met the study's target: -1 / NaN when it never did.
    qint64 stepsToTarget = -1;
    double samplesToTarget = kNone;
    // The engine's B_simple when the target was met: McCandlish et al. compare the critical
    // batch with the noise scale at the loss of the target, not at the end of training. A noise
    // scale is a batch size, never negative: NaN where the engine could not measure one.
    double noiseScaleAtTarget = kNone;
    qint64 divergedAtStep = -1;

    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    double figure(const QString& id) const;
    double figure(const QString& id, FigureSummary summary) const;
    // A run that trained to its end has figures: a diverged one too (that is what they show).
    bool usable() const { return status == RunStatus::Finished || diverged(); }
    bool diverged() const { return status == RunStatus::Diverged; }
};

// One run's row, from its data (no files read): testable on recorded events.
StudyRunResult resultOf(const StudyPoint& point, const RunData& run, const StudyTarget& target);
// The same, with what the study's charts need besides: its `curves` figure against epochs.
StudyRunResult resultOf(const StudyPoint& point, const RunData& run, const StudySpec& spec);

// Every point's latest run, read from the store (points without one are left out).
QList<StudyRunResult> collectStudyResults(const StoredStudy& study, const RunStore& store, const QList<RunRecord>& runs);

}  // namespace ddplab::ui
