#include "chart_panel.hpp"

#include "client/wire.hpp"

#include "charts/chart_canvas.hpp"
#include "client/decimation.hpp"
#include "client/run_data.hpp"
#include "client/series_summary.hpp"
#include "client/smoothed_series.hpp"

#include <QChart>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QPainter>
#include <QGraphicsScene>
#include <QToolButton>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kFaintAlpha = 70;  // the raw curve under a smoothed one
constexpr int kYTickCount = 6;
constexpr int kNarrowestPlot = 32;
// Lines are 2 px wide: reducing to one column per 2 px loses nothing visible and halves what
// Qt Charts has to path, stroke and fill on every frame.
constexpr int kPixelsPerColumn = 2;
constexpr int kColumnsBeforeLayout = 1000;
constexpr double kLineWidth = 2.0;
// A line that a later run retraces exactly (8 x 16 against 1 x 128) is drawn wider by this
// for each such run, so it shows as a rim around the other instead of vanishing under it.
constexpr double kRimWidth = 2.5;
constexpr double kSameValueTolerance = 1e-6;  // relative: float reductions differ in the last digits

Qt::PenStyle penStyleFor(int metricIndex)
{
    static constexpr Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
    return kStyles[std::min(metricIndex, 2)];
}

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

// The smallest of 1, 2 or 5 times a power of ten that is at least `raw`: ticks people read.
double niceStep(double raw)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double step : {1.0, 2.0, 5.0}) {
        if (raw <= step * magnitude * (1 + 1e-9))
            return step * magnitude;
    }
    return 10.0 * magnitude;
}

// Steps are whole: about six ticks, never closer than one step apart.
double integerTickInterval(double span)
{
    return niceStep(std::max(1.0, span / 6.0));
}

bool sameCurve(const QList<QPointF>& a, const QList<QPointF>& b)
{
    if (a.isEmpty() || a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const double scale = std::max(std::fabs(a[i].y()), std::fabs(b[i].y()));
        if (a[i].x() != b[i].x() || std::fabs(a[i].y() - b[i].y()) > kSameValueTolerance * scale)
            return false;
    }
    return true;
}

QString formatValue(double value)
{
    return QString::number(value, 'g', 5);
}

}  // namespace

struct ChartPanel::SeriesEntry {
    QSharedPointer<RunData> run;
    QColor color;
    MetricInfo metric;
    int metricIndex = 0;
    QLineSeries* raw = nullptr;
    QLineSeries* smooth = nullptr;
    SmoothedSeries smoothing;
    SeriesSummary rawSummary;
    SeriesSummary smoothSummary;
    // The data range seen so far, kept up to date incrementally.
    qsizetype scanned = 0;
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = -std::numeric_limits<double>::infinity();
    double yMinPositive = std::numeric_limits<double>::infinity();
    // What the drawn lines were made from: redraw only what changed.
    quint64 drawnRevision = std::numeric_limits<quint64>::max();
    QPointF drawnXRange;
    int drawnColumns = -1;
    bool drawnLog = false;
    double drawnSmoothing = -1.0;
    int retracedBy = 0;  // later runs whose line for this metric is the same as this one
};

struct ChartPanel::LevelEntry {
    QSharedPointer<RunData> run;
    QColor color;
    double value = 0.0;
    QLineSeries* line = nullptr;
};

ChartPanel::ChartPanel(ChartDefinition definition, QWidget* parent)
    : QWidget(parent)
    , m_definition(std::move(definition))
    , m_logScale(m_definition.logByDefault)
{
    m_chart = new QChart;
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->setBackgroundRoundness(0);
    // On screen one legend above all charts names the runs; a chart's own legend is drawn in
    // exports only, where the chart stands alone.
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setShowToolTips(true);
    m_chart->legend()->setVisible(false);
    m_canvas = new ChartCanvas(m_chart, this);
    m_canvas->setMinimumHeight(160);

    m_xAxis = new QValueAxis;
    m_xAxis->setTitleText(tr("step"));
    m_xAxis->setLabelFormat(QStringLiteral("%d"));
    m_xAxis->setTickType(QValueAxis::TicksDynamic);
    m_xAxis->setTickAnchor(0);
    m_xAxis->setTickInterval(1);
    m_xAxis->setRange(0, 1);
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    createYAxis();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(buildHeader());
    layout->addWidget(m_canvas, 1);

    connect(m_canvas, &ChartCanvas::viewChangedByUser, this, [this] {
        m_followData = false;
        scheduleRedraw();
    });
    connect(m_canvas, &ChartCanvas::resetRequested, this, &ChartPanel::resetView);
    connect(m_canvas, &ChartCanvas::resized, this, &ChartPanel::scheduleRedraw);
    connect(m_canvas, &ChartCanvas::hovered, this, &ChartPanel::showReadout);
    connect(m_canvas, &ChartCanvas::hoverLeft, m_canvas, &ChartCanvas::clearReadout);
    connect(m_canvas, &ChartCanvas::contextMenuRequested, this, &ChartPanel::showContextMenu);
    connect(m_canvas, &ChartCanvas::painted, this, [this] {
        // Back in sight with data that arrived while it was hidden.
        if (m_needsRedraw)
            emit redrawWanted();
    });

    applyTheme();
    updateEmptyNote();
}

ChartPanel::~ChartPanel() = default;

QHBoxLayout* ChartPanel::buildHeader()
{
    m_title = new QLabel(m_definition.title, this);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setToolTip(m_definition.yTitle);

    m_emptyNote = new QLabel(this);
    m_emptyNote->setForegroundRole(QPalette::PlaceholderText);
    m_styleKey = new QLabel(this);
    m_styleKey->setForegroundRole(QPalette::PlaceholderText);
    m_styleKey->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a narrow chart clips it
    m_styleKey->setVisible(false);

    m_logButton = new QToolButton(this);
    m_logButton->setText(tr("log"));
    m_logButton->setCheckable(true);
    m_logButton->setChecked(m_logScale);
    m_logButton->setAutoRaise(true);
    m_logButton->setToolTip(tr("Logarithmic y axis"));
    connect(m_logButton, &QToolButton::toggled, this, [this](bool checked) {
        setLogScale(checked);
        emit logScaleToggled(checked);
    });

    auto* resetButton = new QToolButton(this);
    resetButton->setIcon(QIcon(QStringLiteral(":/icons/fit.svg")));
    resetButton->setAutoRaise(true);
    resetButton->setToolTip(tr("Reset view: fit all data (double-click the chart)"));
    connect(resetButton, &QToolButton::clicked, this, &ChartPanel::resetView);

    auto* exportButton = new QToolButton(this);
    exportButton->setIcon(QIcon(QStringLiteral(":/icons/export.svg")));
    exportButton->setAutoRaise(true);
    exportButton->setToolTip(tr("Export this chart as PNG or SVG"));
    connect(exportButton, &QToolButton::clicked, this, [this] { emit exportRequested(this); });

    auto* header = new QHBoxLayout;
    header->setContentsMargins(8, 4, 4, 0);
    header->addWidget(m_title);
    header->addSpacing(8);
    header->addWidget(m_styleKey, 1);
    header->addWidget(m_emptyNote);
    header->addWidget(m_logButton);
    header->addWidget(resetButton);
    header->addWidget(exportButton);
    return header;
}

void ChartPanel::setRuns(const QList<DisplayedRun>& runs)
{
    m_runs = runs;
    const auto colorOf = [&](const SeriesEntry& entry) -> std::optional<QColor> {
        for (const DisplayedRun& run : runs) {
            if (run.data == entry.run)
                return run.color;
        }
        return std::nullopt;
    };
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        const std::optional<QColor> color = colorOf(**it);
        if (!color) {
            m_chart->removeSeries((*it)->raw);
            m_chart->removeSeries((*it)->smooth);
            delete (*it)->raw;
            delete (*it)->smooth;
            it = m_entries.erase(it);
        } else {
            (*it)->color = *color;
            ++it;
        }
    }
    for (auto it = m_levels.begin(); it != m_levels.end();) {
        const auto shown = std::find_if(runs.begin(), runs.end(), [&](const DisplayedRun& run) { return run.data == (*it)->run; });
        if (shown == runs.end()) {
            m_chart->removeSeries((*it)->line);
            delete (*it)->line;
            it = m_levels.erase(it);
        } else {
            (*it)->color = shown->color;
            ++it;
        }
    }
    restyleAll();
    if (m_runs.isEmpty())
        m_followData = true;
    scheduleRedraw();
}

void ChartPanel::scheduleRedraw()
{
    m_needsRedraw = true;
    emit redrawWanted();
}

void ChartPanel::redrawNow()
{
    QElapsedTimer timer;
    timer.start();
    m_needsRedraw = false;
    syncEntries();
    if (m_followData)
        fitAxesToData();
    else
        m_xAxis->setTickInterval(integerTickInterval(m_xAxis->max() - m_xAxis->min()));  // after a zoom
    // Until the chart is laid out its plot area is a few pixels: reduce as for a wide one then.
    const int plotWidth = int(m_chart->plotArea().width());
    updateSeries(plotWidth >= kNarrowestPlot ? plotWidth / kPixelsPerColumn : kColumnsBeforeLayout);
    updateEmptyNote();
    const double ms = timer.nsecsElapsed() / 1e6;
    ++m_stats.redraws;
    m_stats.totalMs += ms;
    m_stats.lastMs = ms;
    m_stats.longestMs = std::max(m_stats.longestMs, ms);
}

void ChartPanel::syncEntries()
{
    bool added = false;
    for (const DisplayedRun& shown : m_runs) {
        for (int index = 0; index < m_definition.metrics.size(); ++index) {
            const MetricInfo& metric = m_definition.metrics.at(index);
            if (!shown.data->hasMetric(metric.name))
                continue;
            const bool exists = std::any_of(m_entries.begin(), m_entries.end(), [&](const auto& entry) {
                return entry->run == shown.data && entry->metric.name == metric.name;
            });
            if (exists)
                continue;
            auto entry = std::make_unique<SeriesEntry>();
            entry->run = shown.data;
            entry->color = shown.color;
            entry->metric = metric;
            entry->metricIndex = index;
            entry->smoothing.setWeight(m_smoothing);
            entry->raw = new QLineSeries;
            entry->smooth = new QLineSeries;
            for (QLineSeries* series : {entry->raw, entry->smooth}) {
                m_chart->addSeries(series);
                series->attachAxis(m_xAxis);
                series->attachAxis(m_yAxis);
                series->setUseOpenGL(m_useOpenGL);
            }
            m_entries.push_back(std::move(entry));
            added = true;
        }
        const double effectiveBatch = shown.data->config().value(wire(field::kEffectiveBatchSize)).toDouble();
        const bool hasLevel = std::any_of(m_levels.begin(), m_levels.end(), [&](const auto& level) { return level->run == shown.data; });
        if (m_definition.marksEffectiveBatch && effectiveBatch > 0 && !hasLevel) {
            auto level = std::make_unique<LevelEntry>();
            level->run = shown.data;
            level->color = shown.color;
            level->value = effectiveBatch;
            level->line = new QLineSeries;
            m_chart->addSeries(level->line);
            level->line->attachAxis(m_xAxis);
            level->line->attachAxis(m_yAxis);
            m_levels.push_back(std::move(level));
            added = true;
        }
    }
    if (added)
        restyleAll();  // a new series takes the theme's colours; and legends may name runs now
}

void ChartPanel::createYAxis()
{
    if (m_yAxis) {
        for (QAbstractSeries* series : m_chart->series())
            series->detachAxis(m_yAxis);
        m_chart->removeAxis(m_yAxis);
        delete m_yAxis;
    }
    if (m_logScale) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(8);
        m_yAxis = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setLabelFormat(QStringLiteral("%.4g"));
        m_yAxis = axis;
    }
    m_yAxis->setTitleText(m_definition.yTitle);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    for (QAbstractSeries* series : m_chart->series())
        series->attachAxis(m_yAxis);
    for (auto& entry : m_entries)
        entry->drawnRevision = std::numeric_limits<quint64>::max();
}

void ChartPanel::applyTheme()
{
    const QPalette colors = palette();
    const bool dark = colors.color(QPalette::Window).lightness() < 128;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // The theme brings its own background and fonts; the window's look wins.
    m_chart->setBackgroundBrush(colors.color(QPalette::Base));
    m_chart->setBackgroundRoundness(0);
    m_chart->setTitleBrush(colors.color(QPalette::Text));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_chart->legend()->setFont(small);
    m_chart->legend()->setLabelColor(colors.color(QPalette::Text));
    QColor grid = colors.color(QPalette::Text);
    grid.setAlpha(dark ? 40 : 30);
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(m_xAxis), m_yAxis}) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
        axis->setLabelsColor(colors.color(QPalette::Text));
        axis->setTitleBrush(colors.color(QPalette::Text));
        axis->setGridLineColor(grid);
        axis->setMinorGridLineColor(QColor(grid.red(), grid.green(), grid.blue(), grid.alpha() / 2));
        axis->setLinePenColor(colors.color(QPalette::Mid));
    }
    restyleAll();
}

void ChartPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyTheme();
}

QString ChartPanel::legendName(const SeriesEntry& entry) const
{
    if (m_runs.size() <= 1)
        return m_definition.metrics.size() > 1 ? entry.metric.label : entry.run->label();
    return entry.run->label();
}

void ChartPanel::styleEntry(SeriesEntry& entry)
{
    const bool smoothed = m_smoothing > 0 && entry.metric.smoothable;
    const Qt::PenStyle style = penStyleFor(entry.metricIndex);
    // Bevel joins and flat caps: a round join costs trigonometry at every one of thousands of
    // points, each frame, and looks the same at this width.
    QPen strong(QBrush(entry.color), kLineWidth + kRimWidth * entry.retracedBy, style, Qt::FlatCap, Qt::BevelJoin);
    QColor faint = entry.color;
    faint.setAlpha(kFaintAlpha);
    entry.raw->setPen(smoothed ? QPen(QBrush(faint), 1.0, style, Qt::FlatCap, Qt::BevelJoin) : strong);
    entry.raw->setBrush(entry.color);
    entry.raw->setPointsVisible(entry.metric.markers);
    entry.raw->setMarkerSize(5);
    entry.smooth->setPen(strong);
    entry.smooth->setVisible(smoothed);
    const QString name = legendName(entry);
    entry.raw->setName(name);
    entry.smooth->setName(name);
}

void ChartPanel::styleLevel(LevelEntry& level)
{
    QColor color = level.color;
    color.setAlpha(200);
    level.line->setPen(QPen(color, 1.5, Qt::DashDotLine));
    const QString value = QString::number(level.value, 'g', 6);
    level.line->setName(m_runs.size() > 1 ? tr("B_eff %1 (%2)").arg(value, level.run->label())
                                          : tr("effective batch %1").arg(value));
}

void ChartPanel::restyleAll()
{
    for (auto& entry : m_entries)
        styleEntry(*entry);
    for (auto& level : m_levels)
        styleLevel(*level);
    updateLegendVisibility();
}

bool ChartPanel::legendNamesRunsOnly() const
{
    // Several runs and several metrics: the legend names each run once (by colour) and the
    // style key says which line style is which metric, instead of runs × metrics entries.
    return m_runs.size() > 1 && m_definition.metrics.size() > 1;
}

QString ChartPanel::lineStyleKey() const
{
    static const QStringList kStyleNames{tr("solid"), tr("dashed"), tr("dotted")};
    QStringList parts;
    for (int index = 0; index < m_definition.metrics.size(); ++index) {
        const bool present = std::any_of(m_entries.begin(), m_entries.end(), [&](const auto& entry) { return entry->metricIndex == index; });
        if (present)
            parts.append(QStringLiteral("%1: %2").arg(kStyleNames.value(std::min(index, 2)), m_definition.metrics.at(index).label));
    }
    if (parts.size() < 2)
        parts.clear();
    if (!m_levels.empty())
        parts.append(tr("dash-dot: effective batch"));
    return parts.join(QStringLiteral(", "));
}

void ChartPanel::updateLegendVisibility()
{
    QLegend* legend = m_chart->legend();
    const bool runsOnly = legendNamesRunsOnly();
    m_legendLabels.clear();
    for (auto& entry : m_entries) {
        // With runs only, the first metric a run has stands for the run.
        const bool representsRun = !runsOnly || std::none_of(m_entries.begin(), m_entries.end(), [&](const auto& other) {
            return other->run == entry->run && other->metricIndex < entry->metricIndex;
        });
        const bool smoothed = m_smoothing > 0 && entry->metric.smoothable;
        for (QLegendMarker* marker : legend->markers(entry->raw))
            marker->setVisible(representsRun && !smoothed);
        for (QLegendMarker* marker : legend->markers(entry->smooth))
            marker->setVisible(representsRun && smoothed);
        if (representsRun)
            m_legendLabels.append(legendName(*entry));
    }
    for (const auto& level : m_levels)
        m_legendLabels.append(level->line->name());
    const QString key = lineStyleKey();
    m_styleKey->setText(key);
    m_styleKey->setToolTip(key);
    m_styleKey->setVisible(!key.isEmpty());
}

void ChartPanel::fitAxesToData()
{
    double xMin = std::numeric_limits<double>::infinity();
    double xMax = -xMin;
    double yMin = xMin;
    double yMax = -xMin;
    for (auto& entry : m_entries) {
        const QList<QPointF>& data = entry->run->series(entry->metric.name);
        if (data.isEmpty())
            continue;
        for (qsizetype i = entry->scanned; i < data.size(); ++i) {
            const double y = data.at(i).y();
            entry->yMin = std::min(entry->yMin, y);
            entry->yMax = std::max(entry->yMax, y);
            if (y > 0)
                entry->yMinPositive = std::min(entry->yMinPositive, y);
        }
        entry->scanned = data.size();
        xMin = std::min(xMin, data.first().x());
        xMax = std::max(xMax, data.last().x());
        yMin = std::min(yMin, m_logScale ? entry->yMinPositive : entry->yMin);
        if (!m_logScale || entry->yMax > 0)
            yMax = std::max(yMax, entry->yMax);
    }
    if (!std::isfinite(xMin))
        return;  // nothing to fit yet
    for (const auto& level : m_levels) {
        if (!m_logScale || level->value > 0) {
            yMin = std::min(yMin, level->value);
            yMax = std::max(yMax, level->value);
        }
    }
    if (xMin == xMax) {
        xMin -= 1;
        xMax += 1;
    }
    // The spacing first: a long range with a short old spacing would make a tick per step.
    m_xAxis->setTickInterval(integerTickInterval(xMax - xMin));
    m_xAxis->setRange(xMin, xMax);
    if (!std::isfinite(yMin) || !std::isfinite(yMax))
        return;  // a log axis with no positive value: the note says so
    if (m_logScale) {
        double low = std::pow(10.0, std::floor(std::log10(yMin)));
        double high = std::pow(10.0, std::ceil(std::log10(yMax)));
        if (high <= low)
            high = low * 10;
        // A hair beyond the decades, so rounding in pow() cannot drop the end labels.
        m_yAxis->setRange(low * (1 - 1e-9), high * (1 + 1e-9));
    } else {
        double pad = (yMax - yMin) * 0.05;
        if (pad == 0)
            pad = yMin == 0 ? 1.0 : std::fabs(yMin) * 0.1;
        // Ends on whole steps, with a tick at each (QValueAxis::applyNiceNumbers keeps the tick
        // count and can land on steps like 0.24).
        const double step = niceStep((yMax - yMin + 2 * pad) / (kYTickCount - 1));
        double low = std::floor((yMin - pad) / step) * step;
        if (yMin >= 0)
            low = std::max(low, 0.0);  // a loss, an accuracy, a rate: no axis below zero for them
        const double high = std::ceil((yMax + pad) / step) * step;
        auto* axis = static_cast<QValueAxis*>(m_yAxis);
        axis->setRange(low, high);
        axis->setTickCount(int(std::lround((high - low) / step)) + 1);
    }
}

void ChartPanel::updateRetracing()
{
    bool changed = false;
    for (auto& entry : m_entries) {
        const QList<QPointF>& mine = entry->run->series(entry->metric.name);
        const auto position = std::find_if(m_runs.begin(), m_runs.end(), [&](const DisplayedRun& run) { return run.data == entry->run; });
        int retracedBy = 0;
        for (auto later = position == m_runs.end() ? position : position + 1; later != m_runs.end(); ++later)
            retracedBy += sameCurve(mine, later->data->series(entry->metric.name));
        changed = changed || retracedBy != entry->retracedBy;
        entry->retracedBy = retracedBy;
    }
    if (changed)
        restyleAll();
}

void ChartPanel::updateSeries(int columns)
{
    const double xMin = m_xAxis->min();
    const double xMax = m_xAxis->max();
    const bool anyNewData = std::any_of(m_entries.begin(), m_entries.end(),
                                        [](const auto& entry) { return entry->drawnRevision != entry->run->revision(); });
    if (anyNewData)
        updateRetracing();
    for (auto& entry : m_entries) {
        const bool smoothed = m_smoothing > 0 && entry->metric.smoothable;
        const quint64 revision = entry->run->revision();
        const bool unchanged = entry->drawnRevision == revision && entry->drawnXRange == QPointF(xMin, xMax) &&
                               entry->drawnColumns == columns && entry->drawnLog == m_logScale &&
                               entry->drawnSmoothing == m_smoothing;
        if (unchanged)
            continue;
        const QList<QPointF>& data = entry->run->series(entry->metric.name);
        entry->raw->replace(pointsToDraw(data, entry->rawSummary, xMin, xMax, columns, m_logScale));
        if (smoothed) {
            const QList<QPointF>& smooth = entry->smoothing.update(data);
            entry->smooth->replace(pointsToDraw(smooth, entry->smoothSummary, xMin, xMax, columns, m_logScale));
        } else if (entry->smooth->count() > 0) {
            entry->smooth->clear();
        }
        entry->drawnRevision = revision;
        entry->drawnXRange = QPointF(xMin, xMax);
        entry->drawnColumns = columns;
        entry->drawnLog = m_logScale;
        entry->drawnSmoothing = m_smoothing;
    }
    for (auto& level : m_levels)
        level->line->replace({QPointF(xMin, level->value), QPointF(xMax, level->value)});
}

void ChartPanel::updateEmptyNote()
{
    bool anyData = false;
    bool anyPositive = false;
    for (const auto& entry : m_entries) {
        const QList<QPointF>& data = entry->run->series(entry->metric.name);
        anyData = anyData || !data.isEmpty();
        anyPositive = anyPositive || entry->yMax > 0;
    }
    QString note;
    if (!anyData)
        note = m_runs.isEmpty() ? QString() : tr("waiting for data…");
    else if (m_logScale && !anyPositive)
        note = tr("no positive values for a log axis");
    m_emptyNote->setText(note);
}

void ChartPanel::setSmoothing(double weight)
{
    if (weight == m_smoothing)
        return;
    m_smoothing = weight;
    for (auto& entry : m_entries) {
        entry->smoothing.setWeight(weight);
        entry->smoothSummary.reset();  // same length, new values: the summary cannot tell
    }
    restyleAll();
    scheduleRedraw();
}

void ChartPanel::setLogScale(bool logScale)
{
    if (logScale == m_logScale)
        return;
    m_logScale = logScale;
    const QSignalBlocker blocker(m_logButton);
    m_logButton->setChecked(logScale);
    createYAxis();
    applyTheme();
    m_followData = true;
    scheduleRedraw();
}

void ChartPanel::resetView()
{
    m_followData = true;
    redrawNow();
}

void ChartPanel::setUseOpenGL(bool useOpenGL)
{
    m_useOpenGL = useOpenGL;
    for (auto& entry : m_entries) {
        entry->raw->setUseOpenGL(useOpenGL);
        entry->smooth->setUseOpenGL(useOpenGL);
    }
}

void ChartPanel::render(QPainter& painter, const QSize& size)
{
    m_canvas->clearReadout();
    const QSizeF shownSize = m_chart->size();
    const QString key = lineStyleKey();
    m_chart->setTitle(key.isEmpty() ? m_definition.title : QStringLiteral("%1 (%2)").arg(m_definition.title, key));
    m_chart->legend()->setVisible(true);
    m_chart->resize(QSizeF(size));
    redrawNow();  // reduce to the export's own pixel columns
    m_canvas->scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), QRectF(m_chart->pos(), QSizeF(size)));
    m_chart->setTitle(QString());
    m_chart->legend()->setVisible(false);
    m_chart->resize(shownSize);
    redrawNow();
}

void ChartPanel::showReadout(const QPointF& value)
{
    QList<ReadoutLine> lines;
    const qint64 hoveredStep = qRound64(value.x());
    for (const auto& entry : m_entries) {
        const QList<QPointF>& data = entry->run->series(entry->metric.name);
        if (data.isEmpty())
            continue;
        auto nearest = std::lower_bound(data.begin(), data.end(), value.x(),
                                        [](const QPointF& point, double x) { return point.x() < x; });
        if (nearest == data.end() || (nearest != data.begin() && value.x() - (nearest - 1)->x() < nearest->x() - value.x()))
            --nearest;
        QString text = formatValue(nearest->y());
        const qsizetype index = nearest - data.begin();
        const QList<QPointF>& smooth = entry->smoothing.points();
        if (m_smoothing > 0 && entry->metric.smoothable && index < smooth.size())
            text += tr(" (smoothed %1)").arg(formatValue(smooth.at(index).y()));
        if (qRound64(nearest->x()) != hoveredStep)
            text += tr(" at step %1").arg(qRound64(nearest->x()));
        // The metric first: a long run label is what gets shortened.
        const QString name = legendNamesRunsOnly() ? entry->metric.label + QStringLiteral(" · ") + entry->run->label()
                                                   : legendName(*entry);
        lines.append({name, text, entry->color});
    }
    if (lines.isEmpty()) {
        m_canvas->clearReadout();
        return;
    }
    m_canvas->setReadout(double(hoveredStep), tr("step %1").arg(hoveredStep), lines);
}

void ChartPanel::showContextMenu(const QPoint& globalPosition)
{
    QMenu menu(this);
    QAction* log = menu.addAction(tr("Logarithmic y axis"));
    log->setCheckable(true);
    log->setChecked(m_logScale);
    connect(log, &QAction::toggled, m_logButton, &QToolButton::setChecked);
    menu.addAction(tr("Reset view"), this, &ChartPanel::resetView);
    menu.addSeparator();
    menu.addAction(tr("Export chart…"), this, [this] { emit exportRequested(this); });
    menu.exec(globalPosition);
}

QList<QPointF> ChartPanel::drawnPoints(const QString& runId, const QString& metric, bool smoothed) const
{
    for (const auto& entry : m_entries) {
        if (entry->run->id() == runId && entry->metric.name == metric)
            return smoothed ? entry->smooth->points() : entry->raw->points();
    }
    return {};
}

RedrawStats ChartPanel::redrawStats() const
{
    RedrawStats stats = m_stats;
    stats.totalPaintMs = m_canvas->totalPaintMs();
    stats.lastPaintMs = m_canvas->lastPaintMs();
    return stats;
}

double ChartPanel::effectiveBatchMark(const QString& runId) const
{
    for (const auto& level : m_levels) {
        if (level->run->id() == runId)
            return level->value;
    }
    return kNaN;
}

}  // namespace ddplab::ui
