// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure_summary.hpp"

#include "client/runs/run_data.hpp"
#include "client/wire.hpp"

#include <QList>

#include <array>
#include <cmath>

namespace ddplab::ui {
namespace {

struct SummaryWords {
    FigureSummary summary;
    const char* name;
    const char* phrase;
};
constexpr std::array<SummaryWords, 3> kSummaries{{
    {FigureSummary::LastEpochMean, "last_epoch_mean", "mean of the last epoch"},
    {FigureSummary::Last, "last", "last value"},
    {FigureSummary::Best, "best", "best value"},
}};

const SummaryWords& wordsOf(FigureSummary summary)
{
    for (const SummaryWords& words : kSummaries) {
        if (words.summary == summary)
            return words;
    }
    return kSummaries.front();
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

QString summaryName(FigureSummary summary)
{
    return QString::fromLatin1(wordsOf(summary).name);
}

std::optional<FigureSummary> summaryNamed(const QString& name)
{
    for (const SummaryWords& words : kSummaries) {
        if (name == QLatin1String(words.name))
            return words.summary;
    }
    return std::nullopt;
}

QStringList summaryNames()
{
    QStringList names;
    for (const SummaryWords& words : kSummaries)
        names.append(QString::fromLatin1(words.name));
    return names;
}

QString summaryPhrase(FigureSummary summary)
{
    return QString::fromLatin1(wordsOf(summary).phrase);
}

SeriesEnds seriesEnds(const RunData& run, const QString& metric, bool lowerIsBetter)
{
    SeriesEnds ends;
    const QList<QPointF>& points = run.series(metric);
    if (points.isEmpty())
        return ends;
    ends.last = points.last().y();
    ends.best = points.first().y();
    for (const QPointF& point : points)
        ends.best = lowerIsBetter ? std::min(ends.best, point.y()) : std::max(ends.best, point.y());
    return ends;
}

double lastEpochMeanOf(const RunData& run, const QString& metric)
{
    if (!run.epochSeries(metric).isEmpty())
        return run.lastEpochMean(metric);
    // The last epoch: after the step at which the one before it ended.
    const QList<QPointF>& epochEnds = run.epochSeries(wire(field::kSteps));
    const double after = epochEnds.size() >= 2 ? epochEnds.at(epochEnds.size() - 2).x() : -1.0;
    double sum = 0.0;
    int count = 0;
    for (const QPointF& point : run.series(metric)) {
        if (point.x() > after) {
            sum += point.y();
            ++count;
        }
    }
    return count > 0 ? sum / count : kNaN;
}

}  // namespace ddplab::ui
