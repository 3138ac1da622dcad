#include "run_list_panel.hpp"

#include <QAction>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

enum Column { kName, kStatus, kStarted };
constexpr int kIdRole = Qt::UserRole + 1;

QIcon swatch(const QColor& color)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    if (color.isValid()) {
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setBrush(color);
        painter.setPen(Qt::NoPen);
        painter.drawRoundedRect(QRectF(1, 1, 10, 10), 2, 2);
    }
    return QIcon(pixmap);
}

QColor statusColor(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return QColor(0x2e, 0x86, 0xc1);
    case RunStatus::Finished: return QColor(0x2e, 0x9d, 0x4a);
    case RunStatus::Failed: return QColor(0xd6, 0x45, 0x41);
    case RunStatus::Cancelled:
    case RunStatus::Interrupted:
    case RunStatus::Incomplete: return QColor(0xc4, 0x8a, 0x1c);
    case RunStatus::Damaged: return QColor(0xc0, 0x39, 0x2b);
    case RunStatus::Diverged: return QColor(0xb0, 0x3a, 0x8c);
    }
    return QColor();
}

}  // namespace

RunListPanel::RunListPanel(QWidget* parent)
    : QWidget(parent)
{
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter runs"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, &RunListPanel::applyFilter);

    m_tree = new QTreeWidget(this);
    m_tree->setHeaderLabels({tr("Run"), tr("Status"), tr("Started")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setMinimumSectionSize(40);
    m_tree->header()->setSectionResizeMode(kName, QHeaderView::Stretch);
    for (const int column : {kStatus, kStarted})
        m_tree->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_tree->setToolTip(tr("Tick runs to overlay them on the charts. F2 renames, Delete deletes; right-click for more."));
    connect(m_tree, &QTreeWidget::customContextMenuRequested, this, &RunListPanel::showContextMenu);
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (m_filling || column != kName)
            return;
        const RunRecord run = m_records.value(item->data(kName, kIdRole).toString());
        emit shownChanged(run, item->checkState(kName) == Qt::Checked);
    });

    auto* rename = new QAction(tr("Rename…"), this);
    rename->setShortcut(Qt::Key_F2);
    rename->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(rename, &QAction::triggered, this, [this] {
        const QList<RunRecord> runs = selectedRuns();
        if (runs.size() == 1)
            emit renameRequested(runs.first());
    });
    auto* remove = new QAction(tr("Delete…"), this);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(remove, &QAction::triggered, this, [this] {
        const QList<RunRecord> runs = selectedRuns();
        if (!runs.isEmpty())
            emit deleteRequested(runs);
    });
    addAction(rename);
    addAction(remove);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filter);
    layout->addWidget(m_tree, 1);
}

void RunListPanel::setRuns(const QList<RunRecord>& runs)
{
    const QStringList shown = shownRunIds();
    m_filling = true;
    m_tree->clear();
    m_records.clear();
    for (const RunRecord& run : runs) {
        auto* item = new QTreeWidgetItem(m_tree);
        fillItem(item, run);
        item->setCheckState(kName, shown.contains(run.id) ? Qt::Checked : Qt::Unchecked);
    }
    m_filling = false;
    applyFilter();
}

void RunListPanel::updateRun(const RunRecord& run)
{
    m_filling = true;
    QTreeWidgetItem* item = itemFor(run.id);
    const bool inserted = !item;
    if (inserted) {
        item = new QTreeWidgetItem;
        m_tree->insertTopLevelItem(0, item);
        item->setCheckState(kName, Qt::Unchecked);
    }
    fillItem(item, run);
    m_filling = false;
    applyFilter();
    // The view lays out inserted rows later, but repaints a changed row at once: while a run
    // streams, that showed the new row over a stale list. Laying it out now keeps them together.
    if (inserted)
        m_tree->doItemsLayout();
}

void RunListPanel::fillItem(QTreeWidgetItem* item, const RunRecord& run)
{
    m_records.insert(run.id, run);
    item->setData(kName, kIdRole, run.id);
    item->setText(kName, run.name);
    item->setText(kStatus, run.statusLine());
    item->setForeground(kStatus, statusColor(run.status));
    // Today's runs by time alone, older ones with their date: the column stays narrow.
    const bool today = run.started.date() == QDate::currentDate();
    item->setText(kStarted, today ? run.started.toString(QStringLiteral("HH:mm:ss"))
                                  : QLocale().toString(run.started, QStringLiteral("d MMM HH:mm")));
    item->setToolTip(kStarted, QLocale().toString(run.started, QLocale::LongFormat));
    QString tip = QStringLiteral("%1\n%2 steps · %3").arg(run.name).arg(run.steps).arg(run.directory);
    if (!run.error.isEmpty())
        tip += QStringLiteral("\n") + run.error;
    item->setToolTip(kName, tip);
    item->setToolTip(kStatus, run.error.isEmpty() ? statusText(run.status) : run.error);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
}

QTreeWidgetItem* RunListPanel::itemFor(const QString& runId) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (item->data(kName, kIdRole).toString() == runId)
            return item;
    }
    return nullptr;
}

void RunListPanel::setShown(const QString& runId, bool shown)
{
    if (QTreeWidgetItem* item = itemFor(runId)) {
        m_filling = true;
        item->setCheckState(kName, shown ? Qt::Checked : Qt::Unchecked);
        m_filling = false;
    }
}

void RunListPanel::setRunColor(const QString& runId, const QColor& color)
{
    if (QTreeWidgetItem* item = itemFor(runId)) {
        m_filling = true;
        item->setIcon(kName, swatch(color));
        m_filling = false;
    }
}

QStringList RunListPanel::shownRunIds() const
{
    QStringList ids;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (item->checkState(kName) == Qt::Checked)
            ids.append(item->data(kName, kIdRole).toString());
    }
    return ids;
}

QList<RunRecord> RunListPanel::selectedRuns() const
{
    QList<RunRecord> runs;
    for (QTreeWidgetItem* item : m_tree->selectedItems())
        runs.append(m_records.value(item->data(kName, kIdRole).toString()));
    return runs;
}

int RunListPanel::runCount() const
{
    return m_tree->topLevelItemCount();
}

void RunListPanel::applyFilter()
{
    const QString filter = m_filter->text().trimmed();
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        item->setHidden(!filter.isEmpty() && !item->text(kName).contains(filter, Qt::CaseInsensitive));
    }
}

void RunListPanel::showContextMenu(const QPoint& position)
{
    QTreeWidgetItem* clicked = m_tree->itemAt(position);
    if (!clicked)
        return;
    const QList<RunRecord> runs = selectedRuns();
    const RunRecord run = m_records.value(clicked->data(kName, kIdRole).toString());
    QMenu menu(this);
    menu.addAction(tr("Rename…"), this, [this, run] { emit renameRequested(run); });
    menu.addAction(tr("Load its settings"), this, [this, run] { emit loadSettingsRequested(run); });
    menu.addSeparator();
    menu.addAction(tr("Export metrics as CSV…"), this, [this, run] { emit exportCsvRequested(run); });
    menu.addAction(tr("Export config as preset…"), this, [this, run] { emit exportPresetRequested(run); });
    menu.addAction(tr("Open run folder"), this, [this, run] { emit openFolderRequested(run); });
    menu.addSeparator();
    const QList<RunRecord> toDelete = runs.isEmpty() ? QList<RunRecord>{run} : runs;
    menu.addAction(toDelete.size() == 1 ? tr("Delete…") : tr("Delete %1 runs…").arg(toDelete.size()), this,
                   [this, toDelete] { emit deleteRequested(toDelete); });
    menu.exec(m_tree->viewport()->mapToGlobal(position));
}

}  // namespace ddplab::ui
