// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison_table.hpp"

#include "charts/run_model.hpp"
#include "client/runs/run_comparison.hpp"
#include "client/runs/run_data.hpp"

#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

constexpr int kCellPadding = 16;  // a cell's margins and grid line, in pixels

// "8×16 · lr 0.002828 sqrt · toy" over three lines, and each line wrapped at its words to
// `width` pixels: a column need not be as wide as the name, and no name is cut.
QString headerText(QString label, const QFontMetrics& metrics, int width)
{
    for (const QString& separator : {QStringLiteral(" · "), QStringLiteral(" — "), QStringLiteral(", ")})
        label.replace(separator, QStringLiteral("\n"));
    QStringList lines;
    for (const QString& part : label.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : part.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                lines.append(line);
                line = word;
            } else {
                line = longer;
            }
        }
        lines.append(line);
    }
    return lines.join(QLatin1Char('\n'));
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
    m_table->setWordWrap(true);
    // Tab moves on to the next part of the window, as everywhere else; arrows move between cells.
    m_table->setTabKeyNavigation(false);
    // The runs share the page's width, each name wrapped at its words to its column
    // (fitColumns); only when their figures alone are wider does the page scroll sideways.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->viewport()->installEventFilter(this);
    m_table->installEventFilter(this);
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
        auto* header = new QTableWidgetItem(label);
        header->setToolTip(label);
        header->setForeground(m_model.runs().at(column).color);
        QFont bold = m_table->font();  // the table's: presentation mode's larger one too
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
                QFont italic = m_table->font();
                italic.setItalic(true);
                item->setFont(italic);
            } else if (!note.isEmpty()) {
                item->setToolTip(note);  // a value with a reason beside it: an incomplete run's status
            }
            m_table->setItem(row, column, item);
        }
    }
    fitColumns();
}

bool ComparisonTable::eventFilter(QObject* watched, QEvent* event)
{
    // The table's own viewport, once it has its size: a page resized while hidden tells its
    // children later, so the page's own resize would still see the old width.
    if (watched == m_table->viewport() && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        fitColumns();
    // Presentation mode's font, once the table has it: the names and notes, which carry fonts
    // of their own, follow it.
    if (watched == m_table && event->type() == QEvent::FontChange)
        refresh();
    return QWidget::eventFilter(watched, event);
}

void ComparisonTable::fitColumns()
{
    const int columns = m_table->columnCount();
    if (columns == 0)
        return;
    // What the figures need, then an equal share of what is left. A note saying why a cell has
    // no figure wraps within its cell (the rows grow), so it never widens the column.
    int widest = 0;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        for (int column = 0; column < columns; ++column) {
            const QTableWidgetItem* item = m_table->item(row, column);
            if (item && !item->font().italic())
                widest = std::max(widest, QFontMetrics(item->font()).horizontalAdvance(item->text()) + kCellPadding);
        }
    }
    const int available = m_table->viewport()->width();
    const int width = std::max(widest, available / columns);
    for (int column = 0; column < columns; ++column) {
        QTableWidgetItem* header = m_table->horizontalHeaderItem(column);
        const QString label = m_model.runs().value(column).label;
        if (header && !label.isEmpty())
            header->setText(headerText(label, QFontMetrics(header->font()), width - kCellPadding));
        m_table->setColumnWidth(column, width);
    }
    m_table->resizeRowsToContents();  // the wrapped notes' rows
}

int ComparisonTable::columnWidth(int column) const
{
    return m_table->columnWidth(column);
}

QStringList ComparisonTable::headerLines(int column) const
{
    const QTableWidgetItem* header = m_table->horizontalHeaderItem(column);
    return header ? header->text().split(QLatin1Char('\n')) : QStringList();
}

QTableWidget* ComparisonTable::table() const
{
    return m_table;
}

}  // namespace ddplab::ui
