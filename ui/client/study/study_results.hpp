// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a study found, summed up for its charts: a figure against the effective batch (mean and
// standard error over repeats), steps and samples to the target with the best setting of the
// other axes at each batch (and McCandlish's fit), a figure over two axes, curves against
// epochs. Each summary reads the runs' rows (study_run_result.hpp).

#include "client/study/figure_summary.hpp"
#include "client/study/scaling_fit.hpp"
#include "client/study/study_run_result.hpp"
#include "client/study/study_store.hpp"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

// The runs that differ only by seed (repeats), or by the chart's x.
struct SeriesPoint {
    double x = 0.0;
    MeanAndError y;
    int runs = 0;
    int diverged = 0;
};
struct StudySeries {
    QString label;       // "lr_rule sqrt", or "" when the study has a single line
    QString colourValue; // the colour axis's value ("sqrt"); lines of one value share a colour
    QList<SeriesPoint> points;  // by x
};

// The x every study chart shares: the effective batch when it varies, else the first numeric axis.
struct StudyXAxis {
    QString key;    // kEffectiveBatchAxis, an axis key, or a resolved figure (study_spec.hpp)
    QString title;  // "effective batch"
    bool log = true;
    bool resolved() const;  // a figure of each run's config, not a value the study set
};
// The study's `x` when it names one, else the effective batch when it varies, else the first
// numeric axis.
StudyXAxis studyXAxis(const StoredStudy& study);
// The same without the study's `x`: what the best setting is drawn against.
StudyXAxis batchOrFirstAxis(const StoredStudy& study);
double xOf(const StudyRunResult& result, const StudyXAxis& axis);

// A figure against x: one line per combination of the other axes (repeats averaged); against a
// resolved figure (the runs' own x), one line per colour value.
QList<StudySeries> figureSeries(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& figure,
                                const StudyXAxis& axis, const QString& colourBy, FigureSummary summary = FigureSummary::LastEpochMean);

// Steps and samples to the target against x: at each x the best over the other axes (the LR
// grid), per colour value. Points whose runs never reached it are kept, as not reached.
struct TargetPoint {
    double x = 0.0;
    double steps = 0.0;    // mean over repeats of the best setting; NaN when not reached
    double samples = 0.0;
    double stepsSpread = 0.0;  // standard deviation of the best setting's steps over its repeats
    // Not reached: the fewest steps (and samples) a setting ran without reaching it, so the
    // figure lies above them.
    double stepsRun = 0.0;
    double samplesRun = 0.0;
    QString bestSetting;   // "lr 0.04"
    bool reached = false;
};
struct TargetCurve {
    QString colourValue;
    QList<TargetPoint> points;
    CriticalBatchFit fit;        // over the reached points
    ExcessStepsBatch excess;     // Zhang et al.'s: where the steps exceed linear scaling by 20 %
    int reachedPoints = 0;
    double measuredBSimple = 0.0;  // mean B_simple of its runs when they met the target (0: none measured)
};
QList<TargetCurve> targetCurves(const QList<StudyRunResult>& results, const StoredStudy& study, const StudyXAxis& axis,
                                const QString& colourBy);

// The best value of one axis (the learning rate) at each x, per colour value: by the fewest
// steps to the target when the study has one (every repeat reaching it), else by the final
// figure. With the power law it follows (Goyal et al.: exponent 1 for SGD's linear rule;
// Malladi et al.: 1/2 for Adam).
struct BestSettingCurve {
    enum class Edge { Inside, Lowest, Highest };  // where the best value lies among those tried at its x
    QString colourValue;
    QList<QPointF> points;  // (x, best value)
    QList<Edge> edges;      // per point
    // Per point: the runner-up lies within noise of the best (two standard errors of their
    // difference over repeats; with one run each, within 1 %): which one is best is not known.
    QList<bool> tied;
    int fewestRepeats = 0;  // the fewest runs behind any best point's score (1: one seed)
    PowerLawFit fit;
};
QList<BestSettingCurve> bestSettingCurves(const QList<StudyRunResult>& results, const StoredStudy& study, const StudyXAxis& axis,
                                          const QString& settingKey, const QString& figure, const QString& colourBy,
                                          FigureSummary summary = FigureSummary::LastEpochMean);

// An axis of words or true/false (lr_rule sqrt against linear, warmup on and off, a batch
// schedule) head to head: for each combination of the other axes, the figure's mean and
// standard error over repeats at each of its values, in the axis's order. Axes zipped to it
// advance with it.
struct HeadToHead {
    QString axisKey;
    QString others;  // "schedule step"; "" when the study has no other axis
    struct Entry {
        QString value;
        MeanAndError score;
    };
    QList<Entry> entries;
    int best = -1;         // the entry with the best mean
    int runnerUp = -1;     // the next best
    bool tied = false;     // the runner-up within noise of the best (as the best setting's)
    int fewestRuns = 0;    // the fewest runs behind any entry (1: one seed)
};
QList<HeadToHead> headToHeads(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& figure,
                              FigureSummary summary = FigureSummary::LastEpochMean);

// The point (every swept value) with the best mean of `figure` over its repeats: what a study
// says of a figure besides the one its charts draw. score.count is 0 when no run has it.
struct BestPoint {
    QString where;  // "schedule cosine · batch_schedule constant"; "" in a study without axes
    MeanAndError score;
};
BestPoint bestPointOf(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& figure,
                      FigureSummary summary = FigureSummary::LastEpochMean);

// A figure over two axes: the mean over repeats, the best over any other axis.
struct HeatmapCell {
    double value = StudyRunResult::kNone;
    bool diverged = false;
    bool bestInColumn = false;
    bool present = false;
};
struct StudyHeatmap {
    QString columnKey, rowKey;
    QList<QJsonValue> columns, rows;  // the axes' values
    QList<QList<HeatmapCell>> cells;  // [row][column]
};
StudyHeatmap heatmapOf(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& figure,
                       const QString& columnKey, const QString& rowKey, FigureSummary summary = FigureSummary::LastEpochMean);

// The study's `curves` figure against epochs, one panel per colour value: in each, a line per
// combination of the other axes (a zipped group named by its first axis), the mean over
// repeats at each measurement.
struct CurvePanel {
    QString colourValue;
    QList<StudySeries> lines;
};
QList<CurvePanel> curvePanels(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& colourBy);

// The engine's B_simple as the runs ended, averaged over those that measured one (it needs two
// ranks or more): the mark on charts against the effective batch. 0 when none did.
double meanFinalBSimple(const QList<StudyRunResult>& results);

}  // namespace ddplab::ui
