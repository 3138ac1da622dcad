// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_lines.hpp"

#include "charts/chart_canvas.hpp"
#include "charts/run_items.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/why_no_data.hpp"
#include "client/series/decimation.hpp"
#include "client/wire.hpp"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QObject>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// The effective batch a level shows: one value across the chart, or, where the run's batch grew
// (batch_schedule), a staircase that rises after each step it grew at, to the batch the next
// step took.
QList<QPointF> levelPoints(const BatchLevel& level, double xMin, double xMax, XAxis axis)
{
    QList<QPointF> points{{xMin, level.value}};
    double value = level.value;
    for (const RunData::BatchChange& change : level.run->batchChanges()) {
        const double x = level.run->xAt(change.step, axis);
        points << QPointF(x, value) << QPointF(x, change.effectiveBatch);
        value = change.effectiveBatch;
    }
    points << QPointF(xMax, value);
    return points;
}

// A schedule only grows the batch: its last change is its highest.
double highestLevel(const BatchLevel& level)
{
    const QList<RunData::BatchChange>& changes = level.run->batchChanges();
    return changes.isEmpty() ? level.value : std::max(level.value, changes.last().effectiveBatch);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kSameValueTolerance = 1e-6;  // relative: float reductions differ in the last digits
constexpr qsizetype kCoverSamples = 512;      // points of a line looked at to judge it covered
constexpr double kCoverTolerance = 0.005;     // of a line's y extent: about a pixel of a chart 200 px high
// What to draw of `series` between xMin and xMax on `columns` pixel columns. Short stretches
// are reduced from the points themselves; long ones from the summary (at least one bucket per
// column), so the cost does not grow with the run. A log axis drops what it cannot show after
// the reduction, not before, which would copy the whole series every time.
QList<QPointF> pointsToDraw(const QList<QPointF>& series, SeriesSummary& summary, double xMin, double xMax, int columns,
                            bool positiveOnly)
{
    summary.update(series);
    const auto byX = [](const QPointF& point, double x) { return point.x() < x; };
    const qsizetype visible = std::lower_bound(series.begin(), series.end(), xMax, byX) -
                              std::lower_bound(series.begin(), series.end(), xMin, byX);
    const bool useSummary = summary.bucketSize() > 1 && visible / summary.bucketSize() >= columns;
    QList<QPointF> reduced = decimateForColumns(useSummary ? summary.points() : series, xMin, xMax, columns);
    if (positiveOnly)
        reduced.removeIf([](const QPointF& point) { return !(point.y() > 0); });
    return reduced;
}

// The lowest and highest of about kCoverSamples of a line's points, evenly spread.
std::pair<double, double> extentOf(const QList<QPointF>& points)
{
    double low = points.first().y(), high = low;
    const qsizetype step = std::max<qsizetype>(1, points.size() / kCoverSamples);
    for (qsizetype i = 0; i < points.size(); i += step) {
        low = std::min(low, points.at(i).y());
        high = std::max(high, points.at(i).y());
    }
    return {low, high};
}

// Whether `later`, drawn over `mine`, hides it: at least a third of mine's points that lie within
// later's x range (and at least two) are on later's line, interpolated between its own points,
// to within kCoverTolerance of the smaller of the two lines' y extents. A run retraced exactly
// (8 x 16 against 1 x 128), or one whose points all sit on another's straighter segments (1 x 16
// under 8 x 16 with the linear rule, per sample seen), is covered; lines that merely cross are
// not, nor is a run whose loss blew up (its extent of 2 to 217 made every healthy run's first
// steps "on" it: the NovoGrad lesson drew the diverged SGD three times as wide).
bool coveredBy(const QList<QPointF>& mine, const QList<QPointF>& later)
{
    if (mine.isEmpty() || later.isEmpty())
        return false;
    const auto [low, high] = extentOf(mine);
    const auto [laterLow, laterHigh] = extentOf(later);
    const double extent = std::min(high - low, laterHigh - laterLow);
    const double size = std::min(std::max(std::fabs(low), std::fabs(high)), std::max(std::fabs(laterLow), std::fabs(laterHigh)));
    const double tolerance = std::max(kCoverTolerance * extent, kSameValueTolerance * size);
    // At most about kCoverSamples of mine's points, evenly spread: this runs whenever data
    // arrives, and a long run has hundreds of thousands.
    const qsizetype stride = std::max<qsizetype>(1, mine.size() / kCoverSamples);
    qsizetype inside = 0, covered = 0;
    for (qsizetype i = 0; i < mine.size(); i += stride) {
        const QPointF& point = mine.at(i);
        if (point.x() < later.first().x() || point.x() > later.last().x())
            continue;
        ++inside;
        const auto after = std::lower_bound(later.begin(), later.end(), point.x(), [](const QPointF& p, double x) { return p.x() < x; });
        double y = after->y();
        if (after != later.begin() && after->x() != point.x()) {
            const QPointF& before = *(after - 1);
            y = before.y() + (after->y() - before.y()) * (point.x() - before.x()) / (after->x() - before.x());
        }
        covered += std::fabs(y - point.y()) <= tolerance;
    }
    return covered >= 2 && covered * 3 >= inside;
}

QString formatValue(double value)
{
    return QString::number(value, 'g', 5);
}

// The name that tells the run apart on display (RunModel's), else its own.
QString labelOf(const DisplayedRun& shown)
{
    return shown.label.isEmpty() ? shown.data->label() : shown.label;
}

}  // namespace

ChartLines::ChartLines(QChart* chart, ChartDefinition definition)
    : m_chart(chart)
    , m_definition(std::move(definition))
    , m_style(m_definition.metrics)
    , m_marks(chart)
    , m_batchMarks(chart)
{
}

ChartLines::~ChartLines() = default;  // the series belong to the chart

void ChartLines::setRuns(const QList<DisplayedRun>& runs)
{
    m_runs = runs;
    keepShownRuns(
        m_lines, runs, m_chart,
        [](ChartLine& line, const DisplayedRun& shown) {
            line.runColor = shown.color;
            line.runLabel = labelOf(shown);
        },
        [](ChartLine& line) { return QList<QAbstractSeries*>{line.raw, line.smooth}; });
    keepShownRuns(
        m_levels, runs, m_chart,
        [](BatchLevel& level, const DisplayedRun& shown) {
            level.color = shown.color;
            level.runLabel = labelOf(shown);
        },
        [](BatchLevel& level) { return QList<QAbstractSeries*>{level.line}; });
    m_marks.setRuns(runs);
    m_batchMarks.setRuns(runs);
    // Lines in the order of the runs on display (a re-ticked run keeps its place).
    std::stable_sort(m_lines.begin(), m_lines.end(), [&](const auto& a, const auto& b) {
        const auto order = [&](const ChartLine& line) {
            return std::find_if(runs.begin(), runs.end(), [&](const DisplayedRun& shown) { return shown.data == line.run; }) - runs.begin();
        };
        return order(*a) != order(*b) ? order(*a) < order(*b) : a->metricIndex < b->metricIndex;
    });
    restyle();
}

bool ChartLines::sync(QAbstractAxis* xAxis, QAbstractAxis* yAxis)
{
    bool added = false;
    const auto attach = [&](QLineSeries* series) {
        m_chart->addSeries(series);
        series->attachAxis(xAxis);
        series->attachAxis(yAxis);
        series->setUseOpenGL(m_useOpenGL);
    };
    for (const DisplayedRun& shown : m_runs) {
        for (int index = 0; index < m_definition.metrics.size(); ++index) {
            const MetricInfo& metric = m_definition.metrics.at(index);
            const bool exists = std::any_of(m_lines.begin(), m_lines.end(),
                                            [&](const auto& line) { return line->run == shown.data && line->metric.name == metric.name; });
            if (exists || !shown.data->hasMetric(metric.name) || !whyNotDrawn(metric.name, *shown.data).isEmpty())
                continue;
            auto line = std::make_unique<ChartLine>();
            line->run = shown.data;
            line->runColor = shown.color;
            line->runLabel = labelOf(shown);
            line->metric = metric;
            line->metricIndex = index;
            line->smoothing.setSpan(m_style.smoothingSpan());
            line->raw = new QLineSeries;
            line->smooth = new QLineSeries;
            attach(line->raw);
            attach(line->smooth);
            m_lines.push_back(std::move(line));
            added = true;
        }
        const double effectiveBatch = shown.data->config().value(wire(field::kEffectiveBatchSize)).toDouble();
        const bool hasLevel = std::any_of(m_levels.begin(), m_levels.end(), [&](const auto& level) { return level->run == shown.data; });
        const int ranks = shown.data->config().value(wire(key::kWorldSize)).toInt();
        if (m_model && ranks > 0 && !hasLevel && std::isfinite(computeSecondsPerSample(*shown.data))) {
            auto level = std::make_unique<BatchLevel>();
            level->run = shown.data;
            level->color = shown.color;
            level->runLabel = labelOf(shown);
            level->modelled = true;
            level->gpus = ranks;
            level->bandwidth = m_model->bandwidthText();
            level->line = new QLineSeries;
            attach(level->line);
            m_levels.push_back(std::move(level));
            added = true;
        }
        if (m_definition.marksEffectiveBatch && effectiveBatch > 0 && !hasLevel) {
            auto level = std::make_unique<BatchLevel>();
            level->run = shown.data;
            level->color = shown.color;
            level->runLabel = labelOf(shown);
            level->value = effectiveBatch;
            level->line = new QLineSeries;
            attach(level->line);
            m_levels.push_back(std::move(level));
            added = true;
        }
    }
    const auto hasLine = [this](const RunData& run) {
        return std::any_of(m_lines.begin(), m_lines.end(), [&](const auto& line) { return line->run.data() == &run; });
    };
    // A divergence is marked where it is seen, on the charts whose values blow up (loss,
    // update variance, gradient norm): on the LR or the accuracy the triangle pointed at nothing.
    if (m_definition.blowsUp)
        added = m_marks.sync(m_runs, hasLine, xAxis, yAxis) || added;
    added = m_batchMarks.sync(m_runs, hasLine, xAxis, yAxis) || added;
    if (added)
        setRuns(m_runs);  // order and style the new lines with the rest
    return added;
}

void ChartLines::reattach(QAbstractAxis* xAxis, QAbstractAxis* yAxis)
{
    for (QAbstractSeries* series : m_chart->series()) {
        // Emptied first: points a linear axis drew may be zeros or negatives a new log axis
        // would complain about on every paint. The next update draws them again.
        if (auto* xy = qobject_cast<QXYSeries*>(series))
            xy->clear();
        for (QAbstractAxis* axis : {xAxis, yAxis}) {
            if (!series->attachedAxes().contains(axis))
                series->attachAxis(axis);
        }
    }
    for (auto& line : m_lines)
        line->forgetDrawn();
}

void ChartLines::setXAxis(XAxis axis)
{
    if (axis == m_axis)
        return;
    m_axis = axis;
    for (auto& line : m_lines)
        line->forgetDrawn();
}

void ChartLines::setSmoothingSpan(double span)
{
    if (span == m_style.smoothingSpan())
        return;
    m_style.setSmoothingSpan(span);
    for (auto& line : m_lines) {
        line->smoothing.setSpan(span);
        line->smoothSummary.reset();  // same length, new values: the summary cannot tell
        line->drawnRevision = std::numeric_limits<quint64>::max();
    }
    restyle();
}

void ChartLines::setLineScale(double scale)
{
    m_style.setLineScale(scale);
    restyle();
}

void ChartLines::setUseOpenGL(bool useOpenGL)
{
    m_useOpenGL = useOpenGL;
    for (auto& line : m_lines) {
        line->raw->setUseOpenGL(useOpenGL);
        line->smooth->setUseOpenGL(useOpenGL);
    }
}

DataRange ChartLines::range(bool positiveOnly)
{
    DataRange all;
    for (auto& line : m_lines) {
        const QList<QPointF>& data = line->points(m_axis);
        if (data.isEmpty())
            continue;
        const qsizetype end = saneEnd(*line, data, m_definition.blowsUp, m_axis);
        if (end < line->scanned) {
            // Its run has just diverged: what it scanned before counts only up to there.
            line->scanned = 0;
            line->seen = DataRange();
        }
        for (qsizetype i = line->scanned; i < end; ++i) {
            const double y = data.at(i).y();
            line->seen.yMin = std::min(line->seen.yMin, y);
            line->seen.yMax = std::max(line->seen.yMax, y);
            if (y > 0)
                line->seen.yMinPositive = std::min(line->seen.yMinPositive, y);
        }
        line->scanned = end;
        all.xMin = std::min(all.xMin, data.first().x());
        all.xMax = std::max(all.xMax, data.last().x());
        all.yMin = std::min(all.yMin, positiveOnly ? line->seen.yMinPositive : line->seen.yMin);
        if (!positiveOnly || line->seen.yMax > 0)
            all.yMax = std::max(all.yMax, line->seen.yMax);
        all.yMinPositive = std::min(all.yMinPositive, line->seen.yMinPositive);
    }
    if (!all.hasData())
        return all;
    for (const auto& level : m_levels) {
        if (!positiveOnly || level->value > 0) {
            all.yMin = std::min(all.yMin, level->value);
            all.yMax = std::max(all.yMax, highestLevel(*level));
        }
    }
    return all;
}

void ChartLines::updateRetracing()
{
    bool changed = false;
    for (auto& line : m_lines) {
        const QList<QPointF>& mine = line->points(m_axis);
        const auto position = std::find_if(m_runs.begin(), m_runs.end(), [&](const DisplayedRun& run) { return run.data == line->run; });
        int retracedBy = 0;
        for (auto later = position == m_runs.end() ? position : position + 1; later != m_runs.end(); ++later)
            retracedBy += coveredBy(mine, later->data->series(line->metric.name, m_axis));
        changed = changed || retracedBy != line->retracedBy;
        line->retracedBy = retracedBy;
    }
    if (changed)
        restyle();
}

void ChartLines::update(double xMin, double xMax, int columns, bool logScale)
{
    const bool anyNewData = std::any_of(m_lines.begin(), m_lines.end(),
                                        [](const auto& line) { return line->drawnRevision != line->run->revision(); });
    if (anyNewData)
        updateRetracing();
    for (auto& line : m_lines) {
        const quint64 revision = line->run->revision();
        const bool unchanged = line->drawnRevision == revision && line->drawnXRange == QPointF(xMin, xMax) &&
                               line->drawnColumns == columns && line->drawnLog == logScale;
        if (unchanged)
            continue;
        const QList<QPointF>& data = line->points(m_axis);
        line->raw->replace(pointsToDraw(data, line->rawSummary, xMin, xMax, columns, logScale));
        if (smoothed(line->metric)) {
            const QList<QPointF>& smooth = line->smoothing.update(data);
            line->smooth->replace(pointsToDraw(smooth, line->smoothSummary, xMin, xMax, columns, logScale));
        } else if (line->smooth->count() > 0) {
            line->smooth->clear();
        }
        line->drawnRevision = revision;
        line->drawnXRange = QPointF(xMin, xMax);
        line->drawnColumns = columns;
        line->drawnLog = logScale;
    }
    updateModelledLevels();
    for (auto& level : m_levels)
        level->line->replace(levelPoints(*level, xMin, xMax, m_axis));
}

// Each run's model at the compute speed of the least crowded rank shown (the one-rank run's, on
// a CPU where more ranks share the cores): a GPU computes alone.
void ChartLines::updateModelledLevels()
{
    if (!m_model)
        return;
    double compute = kNaN;
    for (const DisplayedRun& shown : m_runs) {
        const double perSample = computeSecondsPerSample(*shown.data);
        if (std::isfinite(perSample) && !(perSample >= compute))
            compute = perSample;
    }
    bool renamed = false;
    for (auto& level : m_levels) {
        if (!level->modelled)
            continue;
        const double value = modelledSamplesPerSecond(level->gpus, level->run->config().value(wire(key::kBatchSize)).toInt(), compute,
                                                      gradientBytes(*level->run), m_model->bandwidthBytesPerSecond);
        renamed = renamed || value != level->value;
        level->value = value;
    }
    if (renamed)
        restyle();  // the legend names the modelled figure
}

QStringList ChartLines::levelNames() const
{
    QStringList names;
    for (const auto& level : m_levels)
        names.append(level->line->name());
    return names;
}

void ChartLines::setThroughputModel(const std::optional<ThroughputModel>& model)
{
    const bool had = m_model.has_value();
    m_model = model;
    if (had && !model) {
        for (auto it = m_levels.begin(); it != m_levels.end();) {
            if ((*it)->modelled) {
                m_chart->removeSeries((*it)->line);
                delete (*it)->line;
                it = m_levels.erase(it);
            } else {
                ++it;
            }
        }
        restyle();
    }
}

QList<ReadoutLine> ChartLines::readout(double x) const
{
    QList<ReadoutLine> lines;
    for (const auto& line : m_lines) {
        const QList<QPointF>& data = line->points(m_axis);
        if (data.isEmpty())
            continue;
        auto nearest = std::lower_bound(data.begin(), data.end(), x, [](const QPointF& point, double value) { return point.x() < value; });
        if (nearest == data.end() || (nearest != data.begin() && x - (nearest - 1)->x() < nearest->x() - x))
            --nearest;
        QString text = formatValue(nearest->y());
        const qsizetype index = nearest - data.begin();
        const QList<QPointF>& smooth = line->smoothing.points();
        if (smoothed(line->metric) && index < smooth.size())
            text += QObject::tr(" (smoothed %1)").arg(formatValue(smooth.at(index).y()));
        lines.append({m_style.legendName(*line), text, m_style.colorOf(*line), nearest->x()});
    }
    return lines;
}

bool ChartLines::hasAnyData() const
{
    return std::any_of(m_lines.begin(), m_lines.end(), [&](const auto& line) { return !line->points(XAxis::Step).isEmpty(); });
}

QList<QSharedPointer<RunData>> ChartLines::runsWithoutData() const
{
    QList<QSharedPointer<RunData>> without;
    for (const DisplayedRun& shown : m_runs) {
        const bool has = std::any_of(m_lines.begin(), m_lines.end(), [&](const auto& line) { return line->run == shown.data; });
        if (!has)
            without.append(shown.data);
    }
    return without;
}

QList<QPointF> ChartLines::drawnPoints(const QString& runId, const QString& metric, bool smoothedLine) const
{
    for (const auto& line : m_lines) {
        if (line->run->id() == runId && line->metric.name == metric)
            return smoothedLine ? line->smooth->points() : line->raw->points();
    }
    return {};
}

double ChartLines::lineWidth(const QString& runId, const QString& metric) const
{
    for (const auto& line : m_lines) {
        if (line->run->id() == runId && line->metric.name == metric)
            return line->smooth->pen().widthF();  // the strong pen, smoothed or not (LineStyle::apply)
    }
    return 0.0;
}

QColor ChartLines::lineColor(const QString& runId, const QString& metric) const
{
    for (const auto& line : m_lines) {
        if (line->run->id() == runId && line->metric.name == metric)
            return m_style.colorOf(*line);
    }
    return QColor();
}

void ChartLines::restyle()
{
    m_style.setRunCount(m_runs.size());
    m_style.setInLesson(std::any_of(m_runs.begin(), m_runs.end(), [](const DisplayedRun& run) { return !run.data->record().lessonId.isEmpty(); }));
    for (auto& line : m_lines)
        m_style.apply(*line);
    for (auto& level : m_levels)
        m_style.apply(*level);
    m_marks.style(m_style.lineScale());
    m_batchMarks.style(m_style.lineScale());
    setLegendVisible(m_legendInExports);
}

void ChartLines::setLegendVisible(bool inExports)
{
    m_legendInExports = inExports;
    m_legendLabels = m_style.showLegend(*m_chart->legend(), m_lines, m_levels, inExports);
}

QString ChartLines::styleKey(bool html) const
{
    const bool modelled = std::any_of(m_levels.begin(), m_levels.end(), [](const auto& level) { return level->modelled; });
    const QString levels = m_levels.empty() ? QString()
                           : modelled       ? QObject::tr("dash-dot: a model of as many GPUs (compute measured here, ring all-reduce at %1)")
                                            .arg(m_model ? m_model->bandwidthText() : QString())
                                            : QObject::tr("dash-dot: effective batch");
    return m_style.key(m_lines, levels, html);
}

void ChartLines::placeDivergenceMarks(double yLow, double yHigh, bool logScale)
{
    m_marks.place(yLow, yHigh, logScale, m_axis);
    m_batchMarks.place(yLow, yHigh, m_axis);
}

QStringList ChartLines::divergenceLabels() const
{
    return m_marks.labels();
}

QList<QRectF> ChartLines::divergenceLabelRects() const
{
    return m_marks.labelRects();
}

void ChartLines::setDivergenceLabels(const QFont& font, bool visible)
{
    m_marks.setLabelFont(font);
    m_marks.setLabelsVisible(visible);
}

QList<QPointF> ChartLines::levelDrawn(const QString& runId) const
{
    for (const auto& level : m_levels) {
        if (level->run->id() == runId)
            return level->line->points();
    }
    return {};
}

double ChartLines::levelOf(const QString& runId) const
{
    for (const auto& level : m_levels) {
        if (level->run->id() == runId)
            return level->value;
    }
    return kNaN;
}

}  // namespace ddplab::ui
