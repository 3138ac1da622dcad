#include "comparison_table.hpp"

#include "charts/run_model.hpp"
#include "client/run_comparison.hpp"
#include "client/run_data.hpp"

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
        auto* header = new QTableWidgetItem(comparison.runLabels.at(column));
        header->setForeground(m_model.runs().at(column).color);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        m_table->setHorizontalHeaderItem(column, header);
    }
    for (int row = 0; row < comparison.rows.size(); ++row) {
        m_table->setVerticalHeaderItem(row, new QTableWidgetItem(comparison.rows.at(row).quantity));
        for (int column = 0; column < comparison.runLabels.size(); ++column) {
            auto* item = new QTableWidgetItem(comparison.rows.at(row).values.value(column));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        }
    }
}

}  // namespace ddplab::ui
