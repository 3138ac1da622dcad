// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a study sums up a figure a run measured many times (its loss, accuracy, validation
// figures): the person's choice, as TensorBoard's HParams and W&B users ask for
// (tensorflow/tensorboard#4630, wandb/wandb#12137) — the mean over the run's last epoch (the
// default: one step's figure is noise), the last value, or the best value it reached.

#include <QString>
#include <QStringList>

#include <limits>
#include <optional>

namespace ddplab::ui {

class RunData;

enum class FigureSummary { LastEpochMean, Last, Best };

// As a study file spells it (show.summary): "last_epoch_mean", "last", "best".
QString summaryName(FigureSummary summary);
std::optional<FigureSummary> summaryNamed(const QString& name);
QStringList summaryNames();
// As a chart's title says it: "mean of the last epoch", "last value", "best value".
QString summaryPhrase(FigureSummary summary);

// A series figure's last and best values (its last epoch's mean is kept beside them).
struct SeriesEnds {
    double last = std::numeric_limits<double>::quiet_NaN();
    double best = std::numeric_limits<double>::quiet_NaN();
};
SeriesEnds seriesEnds(const RunData& run, const QString& metric, bool lowerIsBetter);

// The mean of a metric over the run's last epoch: the epoch event's own mean where it carries
// the figure (loss, accuracy: every sample of the epoch), else the mean of the metric's points
// after the epoch before it ended (the training-set and validation measurements). A run that
// never ended an epoch: over all its points. NaN when it has none.
double lastEpochMeanOf(const RunData& run, const QString& metric);

}  // namespace ddplab::ui
