// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The right half of the Study page: one of a study's charts at a time (chosen from a list),
// the figure, how it is summed up over a run (last, best, mean of the last epoch) and the
// colour axis they use, or every run in a sortable table; and the findings (fitted slopes,
// B_crit against B_simple, exponents, with the cautions that qualify them) under them.
// Redrawn from the results whenever a run ends.

#include "plots/study_charts.hpp"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTabWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class StudyChartView;
class StudyPointsTable;
class WrappingComboBox;

class StudyResultsView : public QWidget {
    Q_OBJECT

public:
    explicit StudyResultsView(QWidget* parent = nullptr);

    // A study (its choices reset to the study's own) and what it found so far.
    void setStudy(const StoredStudy& study, const QList<StudyRunResult>& results);
    // New results of the same study; the person's choices are kept.
    void setResults(const QList<StudyRunResult>& results);
    void clear();

    const StudyCharts& charts() const { return m_charts; }
    StudyPointsTable* pointsTable() const { return m_points; }
    const StudyChartChoices& choices() const { return m_choices; }
    QStringList chartTitles() const;
    // The figures the Figure chooser offers (ids): those the study's runs measured.
    QStringList figureChoices() const;
    void showChart(int index);

private:
    void offerMeasuredFigures();
    void rebuild();
    void fillChoosers();

    std::optional<StoredStudy> m_study;
    QList<StudyRunResult> m_results;
    StudyChartChoices m_choices;
    StudyCharts m_charts;
    WrappingComboBox* m_chart = nullptr;
    WrappingComboBox* m_figure = nullptr;
    WrappingComboBox* m_summary = nullptr;
    WrappingComboBox* m_colour = nullptr;
    StudyChartView* m_view = nullptr;
    StudyPointsTable* m_points = nullptr;
    QTabWidget* m_tabs = nullptr;
    QLabel* m_findings = nullptr;
};

}  // namespace ddplab::ui
