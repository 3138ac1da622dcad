// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_panel.hpp"

#include "charts/chart_axes.hpp"
#include "charts/chart_canvas.hpp"
#include "charts/chart_header.hpp"
#include "charts/chart_lines.hpp"
#include "charts/chart_readout.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/why_no_data.hpp"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QMenu>
#include <QPainter>
#include <QToolButton>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace ddplab::ui {
namespace {

constexpr int kNarrowestPlot = 32;
// Lines are 2 px wide: reducing to one column per 2 px loses nothing visible and halves what
// Qt Charts has to path, stroke and fill on every frame.
constexpr int kPixelsPerColumn = 2;
constexpr int kColumnsBeforeLayout = 1000;
constexpr double kAxisFontScale = 0.9;  // axis labels and legend, against the window's font
constexpr double kExportPlotShare = 0.7;  // of an exported chart's height, about what its plot gets

}  // namespace

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
    m_canvas->setMinimumHeight(120);
    m_lines = std::make_unique<ChartLines>(m_chart, m_definition);

    m_axes = std::make_unique<ChartAxes>(m_chart, m_definition.yTitle, m_definition.fraction, m_definition.fromZero);
    m_axes->setXAxis(m_xAxis);
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
    m_title->setWordWrap(true);  // a narrow chart, or presentation's large font, wraps it
    m_title->setToolTip(m_definition.yTitle + QStringLiteral("\n") + zoomHelp());
    m_title->installEventFilter(this);  // double-click: enlarge

    m_emptyNote = new QLabel(this);
    m_emptyNote->setForegroundRole(QPalette::PlaceholderText);
    m_emptyNote->setWordWrap(true);
    m_styleKey = new QLabel(this);
    m_styleKey->setTextFormat(Qt::RichText);
    m_styleKey->setWordWrap(true);  // a narrow chart wraps its key instead of cutting it
    m_styleKey->setVisible(false);

    m_logButton = headerButton(this, tr("log"), tr("Logarithmic y axis"));
    m_logButton->setCheckable(true);
    m_logButton->setChecked(m_logScale);
    connect(m_logButton, &QToolButton::toggled, this, [this](bool checked) {
        setLogScale(checked);
        emit logScaleToggled(checked);
    });
    m_enlargeButton = headerButton(this, QStringLiteral("⤢"), tr("Enlarge this chart to the whole page, and back (double-click the title)"));
    connect(m_enlargeButton, &QToolButton::clicked, this, [this] { emit enlargeRequested(this); });
    m_resetButton = headerButton(this, QStringLiteral(":/icons/fit.svg"), tr("Reset view: fit all data (double-click the chart)"));
    connect(m_resetButton, &QToolButton::clicked, this, &ChartPanel::resetView);
    m_exportButton = headerButton(this, QStringLiteral(":/icons/export.svg"), tr("Export this chart as PNG or SVG, or its data as CSV"));
    connect(m_exportButton, &QToolButton::clicked, this, [this] { emit exportRequested(this); });

    // Title and notes take what is left and wrap; the buttons keep their size.
    auto* words = new QVBoxLayout;
    words->setSpacing(0);
    words->addWidget(m_title);
    words->addWidget(m_styleKey);
    words->addWidget(m_emptyNote);
    auto* header = new QHBoxLayout;
    header->setContentsMargins(8, 4, 4, 0);
    header->addLayout(words, 1);
    for (QToolButton* button : {m_logButton, m_enlargeButton, m_resetButton, m_exportButton})
        header->addWidget(button, 0, Qt::AlignTop);
    return header;
}

bool ChartPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_title && event->type() == QEvent::MouseButtonDblClick) {
        emit enlargeRequested(this);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ChartPanel::setRuns(const QList<DisplayedRun>& runs)
{
    m_runs = runs;
    m_lines->setRuns(runs);
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
    if (m_lines->sync(m_axes->x(), m_axes->y()))
        applyTheme();  // a new line takes the theme's look
    if (m_followData) {
        const DataRange range = m_lines->range(m_logScale);
        if (range.hasData())  // else nothing to fit yet
            m_axes->fit(range, m_xAxis, m_logScale, m_compact);
    } else {
        m_axes->followZoom(m_xAxis, m_logScale);  // a zoom or pan set the ranges
    }
    // Until the chart is laid out its plot area is a few pixels: reduce as for a wide one then.
    const int plotWidth = int(m_chart->plotArea().width());
    m_lines->update(m_axes->x()->min(), m_axes->x()->max(),
                    plotWidth >= kNarrowestPlot ? plotWidth / kPixelsPerColumn : kColumnsBeforeLayout, m_logScale);
    // An export has just resized the chart, and its plot area is the screen's until it is laid out.
    m_axes->wrapYTitle(m_exporting ? m_chart->size().height() * kExportPlotShare : m_chart->plotArea().height());
    const QPointF yRange = yAxisRange();
    m_lines->placeDivergenceMarks(yRange.x(), yRange.y(), m_logScale);
    updateEmptyNote();
    const QString key = m_lines->styleKey();
    m_styleKey->setText(key);
    m_styleKey->setVisible(!key.isEmpty() && !m_compact);
    const double ms = timer.nsecsElapsed() / 1e6;
    ++m_stats.redraws;
    m_stats.totalMs += ms;
    m_stats.lastMs = ms;
    m_stats.longestMs = std::max(m_stats.longestMs, ms);
}

void ChartPanel::createYAxis()
{
    m_axes->makeYAxis(m_logScale, !m_compact);
    m_lines->reattach(m_axes->x(), m_axes->y());
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
    m_chart->legend()->setLabelColor(colors.color(QPalette::Text));
    m_axes->applyColors(colors, dark);
    applyFonts(font(), m_lineScale);
}

void ChartPanel::applyFonts(const QFont& base, double lineScale)
{
    QFont titleFont = base;
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_chart->setTitleFont(titleFont);
    QFont small = base;
    if (base.pixelSize() > 0)  // a slide's words, sized in pixels
        small.setPixelSize(int(std::ceil(base.pixelSize() * kAxisFontScale)));
    else
        small.setPointSizeF(base.pointSizeF() * kAxisFontScale);
    m_styleKey->setFont(small);
    m_emptyNote->setFont(small);
    m_chart->legend()->setFont(small);
    m_axes->applyFont(small);
    m_lines->setDivergenceLabels(small, !m_compact);
    m_lines->setLineScale(lineScale);
}

void ChartPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyTheme();
}

void ChartPanel::updateEmptyNote()
{
    QStringList notes;
    for (const QSharedPointer<RunData>& run : m_lines->runsWithoutData()) {
        const QString why = whyNoData(m_definition, *run);
        if (!why.isEmpty() && !notes.contains(why))
            notes.append(why);
    }
    for (const DisplayedRun& shown : m_runs) {
        for (const MetricInfo& metric : m_definition.metrics) {
            const QString why = whyNotDrawn(metric.name, *shown.data);
            if (!why.isEmpty() && !notes.contains(why))
                notes.append(why);
        }
    }
    const DataRange range = m_lines->range(m_logScale);
    if (notes.isEmpty() && !m_lines->hasAnyData() && !m_runs.isEmpty())
        notes.append(tr("waiting for data…"));
    else if (m_logScale && m_lines->hasAnyData() && !std::isfinite(range.yMinPositive))
        notes.append(tr("no positive values for a log axis"));
    m_emptyNote->setText(notes.join(QStringLiteral("; ")));
    m_emptyNote->setVisible(!notes.isEmpty() && !m_compact);
}

void ChartPanel::setXAxis(XAxis axis)
{
    if (axis == m_xAxis)
        return;
    m_xAxis = axis;
    m_axes->setXAxis(axis);
    m_lines->setXAxis(axis);
    m_followData = true;
    scheduleRedraw();
}

void ChartPanel::setSmoothingSpan(double span)
{
    m_lines->setSmoothingSpan(span);
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

void ChartPanel::setLineScale(double scale)
{
    if (scale == m_lineScale)
        return;
    m_lineScale = scale;
    applyTheme();
    scheduleRedraw();
}

void ChartPanel::setEnlarged(bool enlarged)
{
    m_enlargeButton->setText(enlarged ? QStringLiteral("⤡") : QStringLiteral("⤢"));
    m_enlargeButton->setToolTip(enlarged ? tr("Back to all charts (double-click the title)")
                                         : tr("Enlarge this chart to the whole page, and back (double-click the title)"));
}

void ChartPanel::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    m_axes->setDecorated(!compact);
    m_lines->setDivergenceLabels(m_chart->legend()->font(), !compact);
    // A thumbnail keeps its title (at the window's font) and the button that enlarges it.
    for (QToolButton* button : {m_logButton, m_resetButton, m_exportButton})
        button->setVisible(!compact);
    scheduleRedraw();  // the notes follow
}

void ChartPanel::resetView()
{
    m_followData = true;
    redrawNow();
}

void ChartPanel::setThroughputModel(const std::optional<ThroughputModel>& model)
{
    m_lines->setThroughputModel(m_definition.id == QLatin1String("throughput") ? model : std::nullopt);
    scheduleRedraw();
}

QStringList ChartPanel::levelNames() const
{
    return m_lines->levelNames();
}

void ChartPanel::setUseOpenGL(bool useOpenGL)
{
    m_lines->setUseOpenGL(useOpenGL);
}

void ChartPanel::render(QPainter& painter, const QSize& size, double scale, int textPixels)
{
    m_canvas->clearReadout();
    const QSizeF shownSize = m_chart->size();
    // A thumbnail (presentation mode's strip) is exported as the chart it stands for: a file is
    // read at its own size, with tick labels, axis titles, notes and divergence words.
    const bool thumbnail = m_compact;
    if (thumbnail) {
        m_compact = false;
        m_axes->setDecorated(true);
    }
    // Every line made first: a line made during the export's own redraw would take the theme's
    // look again, and with it the screen's fonts.
    redrawNow();
    // Absolute sizes: the screen's presentation mode has no say in what a file looks like.
    QFont base = QApplication::font();
    if (textPixels > 0)
        base.setPixelSize(int(std::ceil(textPixels / kAxisFontScale)));
    else
        base.setPointSizeF(base.pointSizeF() * scale);
    applyFonts(base, scale);
    const QString key = m_lines->styleKey(false);
    m_chart->setTitle(key.isEmpty() ? m_definition.title : QStringLiteral("%1 (%2)").arg(m_definition.title, key));
    m_lines->setLegendVisible(true);
    // The y title as the export's size wants it before the resize lays the chart out: a title
    // changed after would be drawn as the screen's layout left it.
    m_axes->wrapYTitle(size.height() * kExportPlotShare);
    m_chart->resize(QSizeF(size));
    m_exporting = true;
    redrawNow();  // reduce to the export's own pixel columns
    m_exporting = false;
    m_canvas->scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), QRectF(m_chart->pos(), QSizeF(size)));
    m_exportedPlotArea = m_chart->plotArea();  // the chart's own coordinates are the image's
    m_chart->setTitle(QString());
    m_lines->setLegendVisible(false);
    if (thumbnail) {
        m_compact = true;
        m_axes->setDecorated(false);
    }
    applyFonts(font(), m_lineScale);
    m_chart->resize(shownSize);
    redrawNow();
}

void ChartPanel::showReadout(const QPointF& value)
{
    const QList<ReadoutLine> lines = m_lines->readout(value.x());
    if (lines.isEmpty()) {
        m_canvas->clearReadout();
        return;
    }
    m_canvas->setReadout(value.x(), xValueText(value.x(), m_xAxis), placedReadout(lines, value.x(), m_xAxis));
}

void ChartPanel::showContextMenu(const QPoint& globalPosition)
{
    QMenu menu(this);
    QAction* log = menu.addAction(tr("Logarithmic y axis"));
    log->setCheckable(true);
    log->setChecked(m_logScale);
    connect(log, &QAction::toggled, m_logButton, &QToolButton::setChecked);
    menu.addAction(tr("Reset view"), this, &ChartPanel::resetView);
    menu.addAction(tr("Enlarge / back"), this, [this] { emit enlargeRequested(this); });
    menu.addSeparator();
    menu.addAction(tr("Export chart…"), this, [this] { emit exportRequested(this); });
    menu.exec(globalPosition);
}

QList<QPointF> ChartPanel::drawnPoints(const QString& runId, const QString& metric, bool smoothed) const
{
    return m_lines->drawnPoints(runId, metric, smoothed);
}

double ChartPanel::lineWidth(const QString& runId, const QString& metric) const
{
    return m_lines->lineWidth(runId, metric);
}

QColor ChartPanel::lineColor(const QString& runId, const QString& metric) const
{
    return m_lines->lineColor(runId, metric);
}

QStringList ChartPanel::legendLabels() const
{
    return m_lines->legendLabels();
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
    return m_lines->levelOf(runId);
}

QList<QPointF> ChartPanel::effectiveBatchLine(const QString& runId) const
{
    return m_lines->levelDrawn(runId);
}

QPointF ChartPanel::yAxisRange() const
{
    return m_axes->yRange();
}

QStringList ChartPanel::divergenceLabels() const
{
    return m_lines->divergenceLabels();
}

QList<QList<QPointF>> ChartPanel::batchChangeMarks() const
{
    return m_lines->batchChangeMarks();
}

QList<QRectF> ChartPanel::divergenceLabelRects() const
{
    return m_lines->divergenceLabelRects();
}

QRectF ChartPanel::plotArea() const
{
    return m_chart->plotArea();
}

QString ChartPanel::yTitleShown() const
{
    return m_axes->yTitleShown();
}

bool ChartPanel::tickLabelsShown() const
{
    return m_axes->y()->labelsVisible() && m_axes->x()->labelsVisible();
}

}  // namespace ddplab::ui
