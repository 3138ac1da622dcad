// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A study: one experiment made of many runs — a base config and axes (any config key, or the
// effective batch) whose values combine as a product, or zipped, each point repeated with
// successive seeds. Read from a study file by study_file.hpp; written back by toJson.

#include "client/study/figure_summary.hpp"
#include "client/study/study_target.hpp"
#include "client/wire.hpp"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace ddplab::ui {

// The axis people think in: ranks x batch per GPU (x accumulation), split by a stated rule.
// Named as the step event's field for the same quantity.
inline const QString kEffectiveBatchAxis = wire(field::kEffectiveBatch);

enum class BatchSplit {
    RanksFirst,  // ranks grow (batch per GPU = the base's) up to max_ranks, then the batch grows
    BatchFirst,  // the batch per GPU grows up to max_batch, then the ranks
    FixedRanks,  // the base's ranks; the batch per GPU takes the rest
};

// An axis that applies only where another axis has one of some values (momentum only for
// SGD): elsewhere its key is left to the base, and its values make no runs of their own.
struct AxisCondition {
    QString key;               // another axis of the study
    QList<QJsonValue> values;  // where this one applies
};

// Two values of axes are the same value (a whole number written 4 or 4.0 too).
bool sameAxisValue(const QJsonValue& a, const QJsonValue& b);
// Whether every condition holds where the swept keys have `values` (an axis left out there
// holds none of its values).
bool conditionsHold(const QList<AxisCondition>& conditions, const QJsonObject& values);
// As a study file writes them: {"optimizer": ["sgd"]}.
QJsonObject conditionsJson(const QList<AxisCondition>& conditions);

struct StudyAxis {
    QString key;               // a config key, or kEffectiveBatchAxis
    QList<QJsonValue> values;  // in order, never empty
    QList<AxisCondition> when; // every one must hold; empty: everywhere
    // effective_batch only
    BatchSplit split = BatchSplit::RanksFirst;
    int maxRanks = 8;
    int maxBatch = 1024;
};

struct StudySpec {
    QString id;
    QString title;
    QString source;   // which seed it answers
    QString summary;
    QString lookFor;
    QString explanationMarkdown;
    QString preset;     // the built-in preset it starts from, if any
    QJsonObject base;   // the preset's settings with the file's own over them
    QList<StudyAxis> axes;
    QList<QStringList> zips;  // axes (by key) that advance together instead of combining
    int repeats = 1;          // each point with seeds seed, seed + 1, ...
    StudyTarget target;
    // How the study's charts are drawn (each may be changed in the window).
    QString figure;      // the final figure against the effective batch (default: loss)
    FigureSummary figureSummary = FigureSummary::LastEpochMean;  // how a series figure is summed up
    QString colourBy;    // the axis whose values get a line each
    QStringList heatmap; // two axes
    QString x;           // the charts' x: an axis or a figure of the runs' resolved config; empty: the
                         // effective batch when it varies, else the first numeric axis
    QString curves;      // a figure drawn against epochs, a chart per colour; empty: none
    QString best;        // the axis whose best value is drawn against x; empty: the learning rate

    const StudyAxis* axis(const QString& key) const;
    // The file's own JSON, as the study folder keeps it.
    QJsonObject toJson() const;
};

// Limits a study file cannot go past, whatever it says.
namespace studyLimits {
constexpr int kMaxValuesPerAxis = 1000;
constexpr int kMaxRepeats = 100;
constexpr int kMaxRuns = 10000;       // a plan beyond this is refused
constexpr int kConfirmAbove = 500;    // beyond this, the window asks and headless needs --yes
constexpr qint64 kMaxFileBytes = 1 << 20;
}  // namespace studyLimits

}  // namespace ddplab::ui
