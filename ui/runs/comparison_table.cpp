#include "comparison_table.hpp"

#include "charts/run_model.hpp"
#include "client/runs/run_comparison.hpp"
#include "client/runs/run_data.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

// "8×16 · lr 0.002828 sqrt · toy" over three lines: a column need not be as wide as the name.
QString headerText(QString label)
{
    for (const QString& separator : {QStringLiteral(" · "), QStringLiteral(" — "), QStringLiteral(", ")})
        label.replace(separator, QStringLiteral("\n"));
    return label;
}

}  // namespace

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
    // Tab moves on to the next part of the window, as everywhere else; arrows move between cells.
    m_table->setTabKeyNavigation(false);
    // Each run's column as wide as its name (over a few lines) and figures need: a page too
    // narrow for them all scrolls sideways instead of cutting every name short.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
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
        const QString label = m_model.runs().at(column).label;
        auto* header = new QTableWidgetItem(headerText(label));
        header->setToolTip(label);
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
