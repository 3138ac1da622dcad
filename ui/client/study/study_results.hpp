#pragma once
// What a study found: one row per run (what it was, where it ended, when it reached the
// target), and the summaries its charts draw — a figure against the effective batch (mean and
// standard error over repeats), steps and samples to the target with the best setting of the
// other axes at each batch (and McCandlish's fit), a figure over two axes. study.csv
// (study_csv.hpp) is the rows, one per run.

#include "client/runs/run_record.hpp"
#include "client/study/figure_summary.hpp"
#include "client/study/study_figures.hpp"
#include "client/study/scaling_fit.hpp"
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

// ---------------------------------------------------------------------------------------
// Summaries for the charts
// ---------------------------------------------------------------------------------------

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
    PowerLawFit fit;
};
QList<BestSettingCurve> bestSettingCurves(const QList<StudyRunResult>& results, const StoredStudy& study, const StudyXAxis& axis,
                                          const QString& settingKey, const QString& figure, const QString& colourBy,
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
