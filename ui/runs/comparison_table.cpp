#include "comparison_table.hpp"

#include "charts/run_model.hpp"
#include "client/runs/run_comparison.hpp"
#include "client/runs/run_data.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ddplab::ui {

ComparisonTable::ComparisonTable(RunModel& model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
{
    m_hint = new QLabel(tr("Final figures of the runs on display. Tick runs in the Runs list to add them."), this);
    m_hint->setWordWrap(true);
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::ContiguousSelection);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_hint);
    layout->addWidget(m_table, 1);
    connect(&m_model, &RunModel::runsChanged, this, &ComparisonTable::refresh);
    refresh();
}

void ComparisonTable::refresh()
{
    QList<QSharedPointer<RunData>> runs;
    for (const DisplayedRun& run : m_model.runs())
        runs.append(run.data);
    const Comparison comparison = compareRuns(runs);
    m_table->clear();
    m_table->setColumnCount(int(comparison.runLabels.size()));
    m_table->setRowCount(int(comparison.rows.size()));
    for (int column = 0; column < comparison.runLabels.size(); ++column) {
        auto* header = new QTableWidgetItem(m_model.runs().at(column).label);
        header->setForeground(m_model.runs().at(column).color);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        m_table->setHorizontalHeaderItem(column, header);
    }
    for (int row = 0; row < comparison.rows.size(); ++row) {
        m_table->setVerticalHeaderItem(row, new QTableWidgetItem(comparison.rows.at(row).quantity));
        for (int column = 0; column < comparison.runLabels.size(); ++column) {
            const QString value = comparison.rows.at(row).values.value(column);
            const QString note = comparison.rows.at(row).notes.value(column);
            // No figure: why not, in words, rather than a blank cell.
            auto* item = new QTableWidgetItem(value.isEmpty() ? note : value);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (value.isEmpty()) {
                item->setForeground(palette().color(QPalette::PlaceholderText));
                QFont italic = item->font();
                italic.setItalic(true);
                item->setFont(italic);
            } else if (!note.isEmpty()) {
                item->setToolTip(note);  // a value with a reason beside it: an incomplete run's status
            }
            m_table->setItem(row, column, item);
        }
    }
}

}  // namespace ddplab::ui
