// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_points_table.hpp"

#include "client/study/study_values.hpp"

#include <QHeaderView>

#include <cmath>

namespace ddplab::ui {
namespace {

// A cell that sorts by its number (display role), or by text for a value that is none.
QTableWidgetItem* cellOf(const QJsonValue& value)
{
    auto* item = new QTableWidgetItem;
    if (value.isDouble())
        item->setData(Qt::DisplayRole, value.toDouble());
    else
        item->setText(valueText(value));
    return item;
}

QTableWidgetItem* cellOf(double figure)
{
    auto* item = new QTableWidgetItem;
    if (std::isfinite(figure))
        item->setData(Qt::DisplayRole, figure);
    return item;
}

}  // namespace

StudyPointsTable::StudyPointsTable(QWidget* parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("studyPoints"));
    setSortingEnabled(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionsMovable(true);
    setToolTip(tr("One row per run; click a column's header to sort by it"));
}

void StudyPointsTable::setResults(const StoredStudy& study, const QList<StudyRunResult>& results)
{
    const int sortColumn = horizontalHeader()->sortIndicatorSection();
    const Qt::SortOrder sortOrder = horizontalHeader()->sortIndicatorOrder();
    setSortingEnabled(false);  // rows are filled in place: sorting now would move them under our feet
    const QStringList swept = axisKeys(study);
    QList<const StudyFigure*> figures;
    for (const StudyFigure& figure : studyFigures()) {
        if (std::any_of(results.begin(), results.end(), [&](const StudyRunResult& result) { return std::isfinite(figure.value(result)); }))
            figures.append(&figure);
    }
    QStringList headers{tr("point"), tr("repeat")};
    headers += swept;
    const bool batchSwept = swept.contains(kEffectiveBatchAxis);
    if (!batchSwept)
        headers.append(tr("effective batch"));
    headers.append(tr("status"));
    for (const StudyFigure* figure : figures)
        headers.append(figure->id);
    clear();
    setColumnCount(int(headers.size()));
    setHorizontalHeaderLabels(headers);
    for (int i = 0; i < figures.size(); ++i)
        horizontalHeaderItem(int(headers.size() - figures.size()) + i)->setToolTip(figures[i]->title);
    setRowCount(int(results.size()));
    for (int row = 0; row < results.size(); ++row) {
        const StudyRunResult& result = results[row];
        int column = 0;
        setItem(row, column++, cellOf(QJsonValue(result.point + 1)));
        setItem(row, column++, cellOf(QJsonValue(result.repeat + 1)));
        for (const QString& key : swept)
            setItem(row, column++, cellOf(result.values.value(key)));
        if (!batchSwept)
            setItem(row, column++, cellOf(QJsonValue(double(result.effectiveBatch))));
        auto* status = new QTableWidgetItem(statusLine(result.status, result.divergedAtStep));
        status->setToolTip(result.error);
        setItem(row, column++, status);
        for (const StudyFigure* figure : figures)
            setItem(row, column++, cellOf(figure->value(result)));
    }
    resizeColumnsToContents();
    setSortingEnabled(true);
    sortByColumn(sortColumn >= 0 && sortColumn < columnCount() ? sortColumn : 0, sortOrder);
}

}  // namespace ddplab::ui
