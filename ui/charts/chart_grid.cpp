// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_grid.hpp"

#include "charts/chart_panel.hpp"
#include "charts/run_model.hpp"
#include "client/runs/run_data.hpp"

#include <QApplication>
#include <QGridLayout>
#include <QLabel>
#include <QHBoxLayout>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>

#include <cmath>

namespace ddplab::ui {
namespace {
constexpr int kMinChartHeight = 220;
constexpr int kThumbnailHeight = 150;     // presentation: the charts beside the enlarged one
constexpr int kThumbnailWidth = 260;      // in a strip that scrolls sideways when they do not fit
constexpr int kThreeColumnWidth = 1150;  // below this, three charts side by side get cramped
constexpr int kOneColumnWidth = 560;     // below this, even two are
// The smoothing window at weight w is w / (1 - w) / kSpanDivisor of the x extent: 0.6 (the
// default) smooths over 0.75 % of it, about what TensorBoard's 0.6 does on a few hundred steps.
constexpr double kSpanDivisor = 200.0;
}  // namespace

ChartGrid::ChartGrid(RunModel& model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
{
    m_turnTimer.setSingleShot(true);
    connect(&m_turnTimer, &QTimer::timeout, this, &ChartGrid::redrawNextPanel);
    m_layout = new QGridLayout(this);
    m_layout->setContentsMargins(6, 6, 6, 6);
    m_layout->setSpacing(8);
    m_placeholder = new QLabel(tr("No runs on display.\n\nPress Run (Ctrl+R) to train with the settings on the left,\n"
                                  "pick a lesson, or tick past runs in the Runs list to compare them."),
                               this);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    auto* strip = new QWidget;
    m_stripLayout = new QHBoxLayout(strip);
    m_stripLayout->setContentsMargins(0, 0, 0, 0);
    m_stripLayout->setSpacing(8);
    m_strip = new QScrollArea(this);
    m_strip->setWidget(strip);
    m_strip->setWidgetResizable(true);
    m_strip->setFrameShape(QFrame::NoFrame);
    m_strip->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_strip->setFixedHeight(kThumbnailHeight + m_strip->horizontalScrollBar()->sizeHint().height());
    m_strip->hide();
    connect(&m_model, &RunModel::runsChanged, this, [this] {
        syncPanels();
        for (ChartPanel* panel : m_panels)
            panel->setRuns(m_model.runs());
        applySmoothing();
    });
    connect(&m_model, &RunModel::dataAppended, this, [this] {
        if (m_focus.isEmpty())
            syncPanels();  // a new metric may bring a new chart
        applySmoothing();  // a run's length may have become known
        adaptRedrawInterval();
        for (ChartPanel* panel : m_panels)
            panel->scheduleRedraw();
    });
    relayout();
}

ChartPanel* ChartGrid::panel(const QString& chartId) const
{
    for (ChartPanel* panel : m_panels) {
        if (panel->definition().id == chartId)
            return panel;
    }
    return nullptr;
}

void ChartGrid::setFocusCharts(const QList<ChartDefinition>& charts)
{
    m_focus = charts;
    syncPanels();
    // A lesson's first chart is its lead: in front of a class it is the large one, whatever was
    // large before (a chart the last lesson also had would otherwise stay enlarged); out of
    // presentation every chart of the lesson is shown, the lead first.
    if (!charts.isEmpty())
        setEnlarged(m_presentation ? panel(charts.first().id) : nullptr);
}

QList<ChartDefinition> ChartGrid::wantedCharts() const
{
    if (!m_focus.isEmpty())
        return m_focus;
    QList<ChartDefinition> wanted;
    for (const ChartDefinition& chart : chartCatalog()) {
        if (chart.onlyWhenNamed)
            continue;
        const bool hasData = std::any_of(m_model.runs().begin(), m_model.runs().end(), [&](const DisplayedRun& run) {
            const QStringList names = chart.metricNames();
            return std::any_of(names.begin(), names.end(), [&](const QString& name) {
                if (!chart.onlyWhenItMoves || !run.data->hasMetric(name))
                    return run.data->hasMetric(name);
                // A batch schedule only grows the batch: its first and last points tell (and this
                // runs at every arrival, so it must not read the whole series).
                const QList<QPointF>& points = run.data->series(name);
                return !points.isEmpty() && points.last().y() != points.first().y();
            });
        });
        if (hasData)
            wanted.append(chart);
    }
    return wanted;
}

void ChartGrid::syncPanels()
{
    const QList<ChartDefinition> wanted = wantedCharts();
    QStringList wantedIds;
    for (const ChartDefinition& chart : wanted)
        wantedIds.append(chart.id);
    QStringList currentIds;
    for (ChartPanel* panel : m_panels)
        currentIds.append(panel->definition().id);
    if (wantedIds == currentIds)
        return;

    QList<ChartPanel*> panels;
    for (const ChartDefinition& chart : wanted) {
        ChartPanel* existing = panel(chart.id);
        if (existing) {
            m_panels.removeOne(existing);
            panels.append(existing);
            continue;
        }
        auto* created = new ChartPanel(chart, this);
        connect(created, &ChartPanel::redrawWanted, this, &ChartGrid::requestRedraw);
        created->setXAxis(m_xAxis);
        created->setUseOpenGL(m_useOpenGL);
        created->setThroughputModel(m_throughputModel);
        created->setLineScale(m_lineScale);
        if (m_logChoices.contains(chart.id))
            created->setLogScale(m_logChoices.value(chart.id));
        created->setRuns(m_model.runs());
        if (m_span >= 0)
            created->setSmoothingSpan(m_span);
        connect(created, &ChartPanel::exportRequested, this, &ChartGrid::exportRequested);
        connect(created, &ChartPanel::enlargeRequested, this,
                [this](ChartPanel* panel) { setEnlarged(m_enlarged == panel ? nullptr : panel); });
        connect(created, &ChartPanel::logScaleToggled, this, [this, id = chart.id](bool logScale) { m_logChoices.insert(id, logScale); });
        panels.append(created);
    }
    qDeleteAll(m_panels);  // the ones no longer wanted
    m_panels = panels;
    // In front of a class one chart is always large: the first, when charts came after the mode.
    if (m_presentation && !m_enlarged && !m_panels.isEmpty())
        m_enlarged = m_panels.first();
    m_columns = 0;
    relayout();
}

int ChartGrid::columnsForWidth(int width) const
{
    if (m_panels.size() <= 1 || width < kOneColumnWidth)
        return 1;
    if (m_panels.size() == 2 || m_panels.size() == 4 || width < kThreeColumnWidth)
        return 2;
    return 3;
}

void ChartGrid::relayout()
{
    const int columns = columnsForWidth(width());
    m_columns = columns;
    while (m_layout->count() > 0)
        delete m_layout->takeAt(0);
    while (m_stripLayout->count() > 0)
        delete m_stripLayout->takeAt(0);
    m_strip->hide();
    for (int row = 0; row < m_layout->rowCount(); ++row)
        m_layout->setRowStretch(row, 0);
    for (int column = 0; column < m_layout->columnCount(); ++column)
        m_layout->setColumnStretch(column, 0);
    m_placeholder->setVisible(m_panels.isEmpty());
    if (m_panels.isEmpty()) {
        m_layout->addWidget(m_placeholder, 0, 0);
        return;
    }
    if (m_enlarged && m_panels.contains(m_enlarged.data())) {
        // One chart over the page; in presentation mode the others stay as thumbnails below,
        // in a strip that scrolls sideways rather than widening the page.
        m_layout->addWidget(m_enlarged, 0, 0);
        m_layout->setRowStretch(0, 1);
        m_layout->setColumnStretch(0, 1);
        m_enlarged->setMinimumSize(0, kMinChartHeight);
        m_enlarged->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
        m_enlarged->setFont(QFont());  // the window's (large, in presentation mode)
        m_enlarged->setLineScale(m_lineScale);
        m_enlarged->setCompact(false);
        m_enlarged->show();
        if (m_presentation && m_panels.size() > 1) {
            m_layout->addWidget(m_strip, 1, 0);
            m_strip->show();
        }
        for (ChartPanel* panel : m_panels) {
            panel->setEnlarged(panel == m_enlarged);
            if (panel == m_enlarged)
                continue;
            if (!m_presentation) {
                panel->hide();
                continue;
            }
            // Thumbnails: the title at the window's (large) font, the lines as thick as the
            // enlarged chart's, and no words smaller than those (ChartPanel::setCompact).
            panel->setFont(QFont());
            panel->setLineScale(m_lineScale);
            panel->setCompact(true);
            panel->setFixedSize(kThumbnailWidth, kThumbnailHeight);
            m_stripLayout->addWidget(panel);  // reparents, which hides it
            panel->show();
        }
        return;
    }
    for (qsizetype i = 0; i < m_panels.size(); ++i) {
        ChartPanel* panel = m_panels.at(i);
        const int row = int(i) / columns;
        m_layout->addWidget(panel, row, int(i) % columns);
        m_layout->setRowStretch(row, 1);
        panel->setMinimumSize(0, kMinChartHeight);
        panel->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
        panel->setFont(QFont());
        panel->setLineScale(m_lineScale);
        panel->setCompact(false);
        panel->setEnlarged(false);
        panel->show();
    }
    for (int column = 0; column < columns; ++column)
        m_layout->setColumnStretch(column, 1);
}

void ChartGrid::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (columnsForWidth(event->size().width()) != m_columns)
        relayout();
}

void ChartGrid::setXAxis(XAxis axis)
{
    m_xAxis = axis;
    for (ChartPanel* panel : m_panels)
        panel->setXAxis(axis);
    m_span = -1.0;
    applySmoothing();
}

void ChartGrid::setSmoothing(double weight)
{
    m_smoothing = weight;
    m_span = -1.0;
    applySmoothing();
}

double ChartGrid::smoothingSpan() const
{
    // The extent as a power of two: a live run's growing wall time changes it rarely, and every
    // run on display is smoothed over the same span of the axis.
    double extent = 0.0;
    for (const DisplayedRun& run : m_model.runs())
        extent = std::max(extent, run.data->plannedExtent(m_xAxis));
    if (!(extent > 0) || m_smoothing <= 0)
        return 0.0;
    extent = std::pow(2.0, std::ceil(std::log2(extent)));
    const double weight = std::min(m_smoothing, 0.99);
    return extent * weight / (1.0 - weight) / kSpanDivisor;
}

void ChartGrid::applySmoothing()
{
    const double span = smoothingSpan();
    if (span == m_span)
        return;
    m_span = span;
    for (ChartPanel* panel : m_panels)
        panel->setSmoothingSpan(span);
}

void ChartGrid::setUseOpenGL(bool useOpenGL)
{
    m_useOpenGL = useOpenGL;
    for (ChartPanel* panel : m_panels)
        panel->setUseOpenGL(useOpenGL);
}

void ChartGrid::setThroughputModel(const std::optional<ThroughputModel>& model)
{
    m_throughputModel = model;
    for (ChartPanel* panel : m_panels)
        panel->setThroughputModel(model);
}

void ChartGrid::setLogScaleChoices(const QHash<QString, bool>& choices)
{
    m_logChoices = choices;
    for (ChartPanel* panel : m_panels) {
        const auto it = choices.constFind(panel->definition().id);
        if (it != choices.constEnd())
            panel->setLogScale(*it);
    }
}

void ChartGrid::setPresentation(bool on, double lineScale)
{
    m_presentation = on;
    m_lineScale = on ? lineScale : 1.0;
    relayout();
}

ChartPanel* ChartGrid::enlarged() const
{
    return m_enlarged.data();
}

void ChartGrid::setEnlarged(ChartPanel* panel)
{
    m_enlarged = panel;
    relayout();
    for (ChartPanel* shown : m_panels)
        shown->scheduleRedraw();
}

double ChartGrid::frameCostMs() const
{
    double cost = 0;
    for (ChartPanel* panel : m_panels) {
        const RedrawStats stats = panel->redrawStats();
        cost += stats.lastMs + stats.lastPaintMs;
    }
    return cost;
}

void ChartGrid::adaptRedrawInterval()
{
    m_scheduler.adapt(frameCostMs());
}

void ChartGrid::requestRedraw()
{
    if (!m_turnTimer.isActive())
        m_turnTimer.start(m_scheduler.tickMs(m_panels.size()));
}

QList<bool> ChartGrid::waitingPanels() const
{
    // A chart out of sight (scrolled away, another tab) waits until it is painted again
    // (ChartPanel asks then).
    QList<bool> waiting;
    for (ChartPanel* panel : m_panels)
        waiting.append(panel->needsRedraw() && !panel->visibleRegion().isEmpty());
    return waiting;
}

void ChartGrid::redrawNextPanel()
{
    const qsizetype turn = m_scheduler.pick(waitingPanels());
    if (turn >= 0)
        m_panels.at(turn)->redrawNow();
    if (waitingPanels().contains(true))
        requestRedraw();
}

void ChartGrid::redrawAllNow()
{
    for (ChartPanel* panel : m_panels)
        panel->redrawNow();
}

void ChartGrid::resetAllViews()
{
    for (ChartPanel* panel : m_panels)
        panel->resetView();
}

}  // namespace ddplab::ui
