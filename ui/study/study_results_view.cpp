// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_results_view.hpp"

#include "client/study/study_axis_text.hpp"
#include "study/study_chart_view.hpp"
#include "study/study_points_table.hpp"
#include "study/wrapping_combo_box.hpp"
#include "theme/message_colors.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace ddplab::ui {
namespace {

constexpr int kPointsTab = 1;

// The findings as the page shows them: the provisional note first, then the findings that
// carry cautions (in sight without scrolling), each caution beside its finding in a warning
// colour, so that a number is never read without what qualifies it.
QString findingsHtml(const StudyCharts& charts)
{
    QStringList lines;
    if (!charts.provisional.isEmpty())
        lines.append(QStringLiteral("<i>%1</i>").arg(charts.provisional.toHtmlEscaped()));
    QList<StudyFinding> findings = charts.findings;
    std::stable_partition(findings.begin(), findings.end(), [](const StudyFinding& finding) { return !finding.cautions.isEmpty(); });
    for (const StudyFinding& finding : findings) {
        QString line = finding.text.toHtmlEscaped();
        for (const QString& caution : finding.cautions)
            line += QStringLiteral("<br>&nbsp;&nbsp;<span style=\"color:%1\">⚠ %2</span>").arg(QColor(kCautionTextRgb).name(), caution.toHtmlEscaped());
        lines.append(line);
    }
    return lines.join(QStringLiteral("<br>"));
}

}  // namespace

StudyResultsView::StudyResultsView(QWidget* parent) : QWidget(parent)
{
    m_chart = new WrappingComboBox;
    m_chart->setObjectName(QStringLiteral("studyChart"));
    m_chart->setMinimumContentsLength(10);
    m_chart->setHintsOneLine(false);  // a chart's title is often longer than the column: it wraps
    m_figure = new WrappingComboBox;
    m_figure->setToolTip(tr("The final figure the first chart and the heatmap show"));
    for (const StudyFigure& figure : studyFigures())
        m_figure->addItem(figure.title, figure.id);
    m_summary = new WrappingComboBox;
    m_summary->setObjectName(QStringLiteral("studySummary"));
    m_summary->setToolTip(tr("How a figure measured all through a run is summed up: the mean over its last epoch, its last value, "
                             "or the best value it reached"));
    for (const FigureSummary summary : {FigureSummary::LastEpochMean, FigureSummary::Last, FigureSummary::Best})
        m_summary->addItem(summaryPhrase(summary), int(summary));
    m_colour = new WrappingComboBox;
    m_colour->setToolTip(tr("The axis whose values get a colour each"));
    m_figure->setMinimumContentsLength(8);
    m_colour->setMinimumContentsLength(5);
    m_summary->setMinimumContentsLength(8);
    // Every choice whole at 1280 x 720 in presentation mode and at 1920 x 1080: a row each, as
    // wide as the page, and a choice longer than its row on more lines. Always a row each, not
    // side by side where they fit: the page's least width must not depend on which arrangement
    // its last resize chose (a hidden page's width is stale; leaving presentation mode then gave
    // the window another least width and its docks other widths, tst_window_layout).
    auto* choosers = new QGridLayout;
    int row = 0;
    for (const auto& [label, chooser] : {std::pair{tr("Chart:"), m_chart}, std::pair{tr("Figure:"), m_figure},
                                         std::pair{tr("Colour by:"), m_colour}, std::pair{tr("Summary:"), m_summary}}) {
        choosers->addWidget(new QLabel(label), row, 0);
        choosers->addWidget(chooser, row, 1);
        ++row;
    }
    choosers->setColumnStretch(1, 1);

    m_view = new StudyChartView;
    m_findings = new QLabel;
    m_findings->setObjectName(QStringLiteral("studyFindings"));
    m_findings->setWordWrap(true);
    m_findings->setTextFormat(Qt::RichText);
    m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findings->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    // The charts, or every run in a table; the findings under either.
    auto* chartPage = new QWidget;
    auto* chartLayout = new QVBoxLayout(chartPage);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addLayout(choosers);
    chartLayout->addWidget(m_view, 1);
    m_points = new StudyPointsTable;
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(chartPage, tr("Charts"));
    m_tabs->addTab(m_points, tr("Runs"));

    // The findings scroll in their own part of the page, so that however many cautions they
    // carry, the chart keeps its height (the person can move the split).
    auto* findings = new QScrollArea;
    findings->setWidget(m_findings);
    findings->setWidgetResizable(true);
    findings->setFrameShape(QFrame::NoFrame);
    auto* split = new QSplitter(Qt::Vertical);
    split->setChildrenCollapsible(false);
    split->addWidget(m_tabs);
    split->addWidget(findings);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);

    connect(m_chart, &QComboBox::currentIndexChanged, this, &StudyResultsView::showChart);
    connect(m_figure, &QComboBox::currentIndexChanged, this, [this] {
        m_choices.figure = m_figure->currentData().toString();
        rebuild();
    });
    connect(m_summary, &QComboBox::currentIndexChanged, this, [this] {
        m_choices.summary = FigureSummary(m_summary->currentData().toInt());
        rebuild();
    });
    connect(m_colour, &QComboBox::currentIndexChanged, this, [this] {
        m_choices.colourBy = m_colour->currentData().toString();
        rebuild();
    });
    clear();
}

void StudyResultsView::setStudy(const StoredStudy& study, const QList<StudyRunResult>& results)
{
    m_study = study;
    m_results = results;
    m_choices = defaultChartChoices(study);
    fillChoosers();
    rebuild();
}

void StudyResultsView::setResults(const QList<StudyRunResult>& results)
{
    m_results = results;
    rebuild();
}

void StudyResultsView::clear()
{
    m_study.reset();
    m_results.clear();
    m_charts = StudyCharts();
    const QSignalBlocker blockChart(m_chart);
    m_chart->clear();
    PlotSpec empty;
    empty.emptyText = tr("Choose a study on the left and run it, or open one that ran before.");
    m_view->show([empty](QPainter& painter, const QRect& area, const QPalette& colors) { paintPlot(painter, area, empty, 1.0, &colors); },
                 QString());
    m_findings->clear();
    m_points->clear();
    m_points->setRowCount(0);
    m_tabs->setTabText(kPointsTab, tr("Runs"));
    setEnabled(true);
}

QStringList StudyResultsView::chartTitles() const
{
    QStringList titles;
    for (int i = 0; i < m_chart->count(); ++i)
        titles.append(m_chart->itemText(i));
    return titles;
}

void StudyResultsView::fillChoosers()
{
    const QSignalBlocker blockFigure(m_figure);
    const QSignalBlocker blockColour(m_colour);
    const QSignalBlocker blockSummary(m_summary);
    m_figure->setCurrentIndex(std::max(0, m_figure->findData(m_choices.figure)));
    m_summary->setCurrentIndex(std::max(0, m_summary->findData(int(m_choices.summary))));
    m_colour->clear();
    m_colour->addItem(tr("nothing"), QString());
    if (m_study) {
        for (const StudyAxis& axis : m_study->spec.axes)
            m_colour->addItem(axisLabel(axis.key), axis.key);
    }
    m_colour->setCurrentIndex(std::max(0, m_colour->findData(m_choices.colourBy)));
}

void StudyResultsView::rebuild()
{
    if (!m_study)
        return;
    const int shown = m_chart->currentIndex();
    m_charts = buildStudyCharts(*m_study, m_results, m_choices);
    offerMeasuredFigures();
    const StudyFigure* figure = findStudyFigure(m_choices.figure);
    m_summary->setEnabled(figure && figure->summarised);  // steps to the target, wall time: one number a run
    {
        const QSignalBlocker blocker(m_chart);
        m_chart->clear();
        for (const PlotSpec& plot : m_charts.plots)
            m_chart->addItem(plot.title);
        for (const HeatmapSpec& heatmap : m_charts.heatmaps)
            m_chart->addItem(heatmap.title);
        m_chart->setCurrentIndex(std::clamp(shown, 0, int(m_chart->count()) - 1));
    }
    showChart(m_chart->currentIndex());
    m_findings->setText(findingsHtml(m_charts));
    m_points->setResults(*m_study, m_results);
    m_tabs->setTabText(kPointsTab, tr("Runs (%1)").arg(m_results.size()));
}

void StudyResultsView::offerMeasuredFigures()
{
    // Only figures the runs have: a toy study has no validation accuracy, and a heatmap of "—"
    // says nothing. Before any run has ended, the figures its settings can have; the chosen one stays.
    const QSignalBlocker blocker(m_figure);
    m_figure->clear();
    QStringList applying;
    if (m_results.isEmpty() && m_study) {
        QList<QJsonObject> configs;
        for (const StudyPoint& point : m_study->points)
            configs.append(point.config);
        applying = figuresThatApply(configs, m_study->spec.target.isSet());
    }
    for (const StudyFigure& figure : studyFigures()) {
        const bool measured = m_results.isEmpty() ? applying.contains(figure.id)
                                                  : std::any_of(m_results.begin(), m_results.end(), [&](const StudyRunResult& result) {
                                                        return figure.value && std::isfinite(figure.value(result));
                                                    });
        if (measured || figure.id == m_choices.figure)
            m_figure->addItem(figure.title, figure.id);
    }
    m_figure->setCurrentIndex(std::max(0, m_figure->findData(m_choices.figure)));
}

QStringList StudyResultsView::figureChoices() const
{
    QStringList ids;
    for (int i = 0; i < m_figure->count(); ++i)
        ids.append(m_figure->itemData(i).toString());
    return ids;
}

void StudyResultsView::showChart(int index)
{
    if (index < 0)
        return;
    if (index < m_charts.plots.size()) {
        const PlotSpec plot = m_charts.plots[index];
        m_view->show([plot](QPainter& painter, const QRect& area, const QPalette& colors) { paintPlot(painter, area, plot, 1.0, &colors); },
                     plot.subtitle);
    } else if (index - m_charts.plots.size() < m_charts.heatmaps.size()) {
        const HeatmapSpec heatmap = m_charts.heatmaps[index - m_charts.plots.size()];
        m_view->show([heatmap](QPainter& painter, const QRect& area, const QPalette& colors) { paintHeatmap(painter, area, heatmap, 1.0, &colors); },
                     heatmap.subtitle);
    }
}

}  // namespace ddplab::ui
