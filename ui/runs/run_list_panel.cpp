// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_list_panel.hpp"

#include "theme/palette.hpp"

#include <QAction>
#include <QHeaderView>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QStyle>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ddplab::ui {
namespace {

enum Column { kName, kStatus, kShape, kLr, kOptimizer, kStarted, kColumnCount };
constexpr int kIdRole = Qt::UserRole + 1;     // a run's row: its id
constexpr int kGroupRole = Qt::UserRole + 2;  // a group's row: its key
// Fitted to the names, the name column stops here; dragging it makes it wider.
constexpr int kWidestFittedName = 420;

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

QString startedText(const QDateTime& started)
{
    // Today's runs by time alone, this year's without the year: the column stays narrow.
    const QDate today = QDate::currentDate();
    if (started.date() == today)
        return started.toString(QStringLiteral("HH:mm:ss"));
    if (started.date().year() == today.year())
        return QLocale().toString(started, QStringLiteral("d MMM HH:mm"));
    return QLocale().toString(started.date(), QStringLiteral("d MMM yyyy"));
}

bool isGroup(const QTreeWidgetItem* item)
{
    return !item->data(kName, kGroupRole).toString().isEmpty();
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
    m_tree->setColumnCount(kColumnCount);
    m_tree->setHeaderLabels({tr("Run"), tr("Status"), tr("Ranks × batch"), tr("LR"), tr("Optimizer"), tr("Started")});
    m_tree->headerItem()->setToolTip(kShape, tr("Ranks × batch per rank (× gradient accumulation)"));
    m_tree->headerItem()->setToolTip(kLr, tr("The effective learning rate: the LR rule applied to the LR as tuned"));
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    // The name keeps the width it needs; the columns beside it scroll into view.
    m_tree->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    QHeaderView* header = m_tree->header();
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(40);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(kName, QHeaderView::Interactive);
    connect(header, &QHeaderView::sectionResized, this, [this](int column) {
        if (column == kName && !m_filling)
            m_nameWidthChosen = true;
    });
    m_tree->setToolTip(tr("Tick runs to overlay them on the charts. F2 renames, Delete deletes; right-click for more."));
    connect(m_tree, &QTreeWidget::customContextMenuRequested, this, &RunListPanel::showContextMenu);
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (m_filling || column != kName || isGroup(item))
            return;
        const RunRecord run = m_records.value(item->data(kName, kIdRole).toString());
        emit shownChanged(run, item->checkState(kName) == Qt::Checked);
    });
    connect(m_tree, &QTreeWidget::itemExpanded, this,
            [this](QTreeWidgetItem* item) { m_openGroups.insert(item->data(kName, kGroupRole).toString()); });
    connect(m_tree, &QTreeWidget::itemCollapsed, this,
            [this](QTreeWidgetItem* item) { m_openGroups.remove(item->data(kName, kGroupRole).toString()); });

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
    m_items.clear();
    for (const RunRecord& run : runs) {  // newest first
        QTreeWidgetItem* item = placeNewRun(run, false);
        fillItem(item, run);
        item->setCheckState(kName, shown.contains(run.id) ? Qt::Checked : Qt::Unchecked);
    }
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* group = m_tree->topLevelItem(i);
        if (isGroup(group))
            fillGroup(group);
    }
    m_filling = false;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        restoreExpansion(m_tree->topLevelItem(i));
    fitNameColumn();
    applyFilter();
}

void RunListPanel::updateRun(const RunRecord& run)
{
    m_filling = true;
    QTreeWidgetItem* item = m_items.value(run.id);
    const bool inserted = !item;
    if (inserted) {
        item = placeNewRun(run, true);
        item->setCheckState(kName, Qt::Unchecked);
    }
    fillItem(item, run);
    if (item->parent())
        fillGroup(item->parent());
    m_filling = false;
    if (inserted && item->parent())
        restoreExpansion(item->parent());  // a group moved to the top is a new row
    if (inserted)
        fitNameColumn();
    applyFilter();
    // The view lays out inserted rows later, but repaints a changed row at once: while a run
    // streams, that showed the new row over a stale list. Laying it out now keeps them together.
    if (inserted)
        m_tree->doItemsLayout();
}

// A new run's row: a run of its own at the top (or, filling the list newest first, below the
// rest); a study's or lesson's run in its group, in the order the group's runs ran.
QTreeWidgetItem* RunListPanel::placeNewRun(const RunRecord& run, bool atTop)
{
    auto* item = new QTreeWidgetItem;
    if (runGroupKey(run).isEmpty()) {
        if (atTop)
            m_tree->insertTopLevelItem(0, item);
        else
            m_tree->addTopLevelItem(item);
    } else {
        QTreeWidgetItem* group = groupFor(run, atTop);
        if (atTop)
            group->addChild(item);
        else
            group->insertChild(0, item);
    }
    m_items.insert(run.id, item);
    return item;
}

QTreeWidgetItem* RunListPanel::groupFor(const RunRecord& run, bool atTop)
{
    const QString key = runGroupKey(run);
    QTreeWidgetItem* group = groupItem(key);
    if (group && atTop && m_tree->indexOfTopLevelItem(group) != 0) {
        // A group with a new run moves to the top, with the runs of its own.
        m_tree->takeTopLevelItem(m_tree->indexOfTopLevelItem(group));
        m_tree->insertTopLevelItem(0, group);
    } else if (!group) {
        group = new QTreeWidgetItem;
        group->setData(kName, kGroupRole, key);
        group->setText(kName, runGroupTitle(run, m_groupTitles));
        QFont bold = group->font(kName);
        bold.setBold(true);
        group->setFont(kName, bold);
        group->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        if (atTop)
            m_tree->insertTopLevelItem(0, group);
        else
            m_tree->addTopLevelItem(group);
    }
    group->setFirstColumnSpanned(true);  // the title across the row: no columns to fill
    return group;
}

QTreeWidgetItem* RunListPanel::groupItem(const QString& groupKey) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (item->data(kName, kGroupRole).toString() == groupKey)
            return item;
    }
    return nullptr;
}

void RunListPanel::fillItem(QTreeWidgetItem* item, const RunRecord& run)
{
    m_records.insert(run.id, run);
    item->setData(kName, kIdRole, run.id);
    item->setText(kName, nameInGroup(run.name, runGroupTitle(run, m_groupTitles)));
    item->setText(kStatus, run.statusLine());
    item->setForeground(kStatus, statusColor(run.status));
    item->setText(kShape, run.settings.shapeText());
    item->setText(kLr, run.settings.effectiveLrText());
    item->setText(kOptimizer, run.settings.optimizer);
    for (const int column : {kShape, kLr})
        item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
    item->setText(kStarted, startedText(run.started));
    item->setToolTip(kStarted, QLocale().toString(run.started, QLocale::LongFormat));
    QString tip = QStringLiteral("%1\n%2 steps · %3").arg(run.name).arg(run.steps).arg(run.directory);
    if (!run.error.isEmpty())
        tip += QStringLiteral("\n") + run.error;
    item->setToolTip(kName, tip);
    item->setToolTip(kStatus, run.error.isEmpty() ? statusText(run.status) : run.error);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
}

// "A study of … · 21 runs" (", one running"), with how they ended in its tooltip.
void RunListPanel::fillGroup(QTreeWidgetItem* group)
{
    QMap<QString, int> byStatus;
    bool running = false;
    QString title;
    for (int i = 0; i < group->childCount(); ++i) {
        const RunRecord& run = m_records[group->child(i)->data(kName, kIdRole).toString()];
        ++byStatus[statusText(run.status)];
        running = running || run.status == RunStatus::Running;
        title = runGroupTitle(run, m_groupTitles);
    }
    QString text = group->childCount() == 1 ? tr("%1 · 1 run").arg(title) : tr("%1 · %2 runs").arg(title).arg(group->childCount());
    if (running)
        text += tr(", one running");
    group->setText(kName, text);
    QStringList ended;
    for (auto it = byStatus.constBegin(); it != byStatus.constEnd(); ++it)
        ended.append(QStringLiteral("%1 %2").arg(it.value()).arg(it.key()));
    group->setToolTip(kName, QStringLiteral("%1\n%2").arg(title, ended.join(QStringLiteral(", "))));
}

// A group is open when the person left it open or a run of it is on the charts.
void RunListPanel::restoreExpansion(QTreeWidgetItem* group)
{
    if (!isGroup(group))
        return;
    bool open = m_openGroups.contains(group->data(kName, kGroupRole).toString());
    for (int i = 0; i < group->childCount() && !open; ++i)
        open = group->child(i)->checkState(kName) == Qt::Checked;
    group->setExpanded(open);
}

void RunListPanel::fitNameColumn()
{
    if (m_nameWidthChosen)
        return;
    // The runs' names, not the group titles (they span the row).
    const QFontMetrics metrics(m_tree->font());
    int widest = 0;
    for (auto it = m_items.constBegin(); it != m_items.constEnd(); ++it) {
        const int depth = it.value()->parent() ? 2 : 1;
        widest = std::max(widest, metrics.horizontalAdvance(it.value()->text(kName)) + depth * m_tree->indentation());
    }
    const int checkAndSwatch = 2 * m_tree->style()->pixelMetric(QStyle::PM_IndicatorWidth) + 16;
    const bool filling = std::exchange(m_filling, true);
    m_tree->setColumnWidth(kName, std::clamp(widest + checkAndSwatch, 120, kWidestFittedName));
    m_filling = filling;
}

void RunListPanel::setShown(const QString& runId, bool shown)
{
    if (QTreeWidgetItem* item = m_items.value(runId)) {
        m_filling = true;
        item->setCheckState(kName, shown ? Qt::Checked : Qt::Unchecked);
        if (shown && item->parent())
            item->parent()->setExpanded(true);  // a run on the charts is in sight in the list
        m_filling = false;
    }
}

void RunListPanel::setRunColor(const QString& runId, const QColor& color)
{
    if (QTreeWidgetItem* item = m_items.value(runId)) {
        m_filling = true;
        item->setIcon(kName, swatch(color));
        m_filling = false;
    }
}

QStringList RunListPanel::shownRunIds() const
{
    QStringList ids;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if (!isGroup(*it) && (*it)->checkState(kName) == Qt::Checked)
            ids.append((*it)->data(kName, kIdRole).toString());
    }
    return ids;
}

QList<RunRecord> RunListPanel::selectedRuns() const
{
    // A selected group stands for its runs.
    QList<RunRecord> runs;
    QStringList ids;
    for (QTreeWidgetItem* item : m_tree->selectedItems()) {
        if (!isGroup(item)) {
            ids.append(item->data(kName, kIdRole).toString());
            continue;
        }
        for (int i = 0; i < item->childCount(); ++i)
            ids.append(item->child(i)->data(kName, kIdRole).toString());
    }
    ids.removeDuplicates();
    for (const QString& id : ids)
        runs.append(m_records.value(id));
    return runs;
}

int RunListPanel::runCount() const
{
    return int(m_items.size());
}

void RunListPanel::applyFilter()
{
    const QString filter = m_filter->text().trimmed();
    const auto matches = [&](const QString& text) { return filter.isEmpty() || text.contains(filter, Qt::CaseInsensitive); };
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (!isGroup(item)) {
            item->setHidden(!matches(m_records.value(item->data(kName, kIdRole).toString()).name));
            continue;
        }
        // A group whose title matches shows every run; else the runs that match, the group open.
        const bool titleMatches = matches(item->text(kName));
        bool anyShown = false;
        for (int j = 0; j < item->childCount(); ++j) {
            QTreeWidgetItem* child = item->child(j);
            const bool shown = titleMatches || matches(m_records.value(child->data(kName, kIdRole).toString()).name);
            child->setHidden(!shown);
            anyShown = anyShown || shown;
        }
        item->setHidden(!anyShown);
        if (!filter.isEmpty() && anyShown && !titleMatches)
            item->setExpanded(true);
    }
}

void RunListPanel::showContextMenu(const QPoint& position)
{
    QTreeWidgetItem* clicked = m_tree->itemAt(position);
    if (!clicked)
        return;
    QMenu menu(this);
    const QList<RunRecord> runs = selectedRuns();
    if (isGroup(clicked)) {
        QList<RunRecord> inGroup;
        for (int i = 0; i < clicked->childCount(); ++i)
            inGroup.append(m_records.value(clicked->child(i)->data(kName, kIdRole).toString()));
        menu.addAction(inGroup.size() == 1 ? tr("Delete its run…") : tr("Delete its %1 runs…").arg(inGroup.size()), this,
                       [this, inGroup] { emit deleteRequested(inGroup); });
        menu.exec(m_tree->viewport()->mapToGlobal(position));
        return;
    }
    const RunRecord run = m_records.value(clicked->data(kName, kIdRole).toString());
    menu.addAction(tr("Rename…"), this, [this, run] { emit renameRequested(run); });
    menu.addAction(tr("Load its settings"), this, [this, run] { emit loadSettingsRequested(run); });
    menu.addSeparator();
    menu.addAction(tr("Export metrics as CSV…"), this, [this, run] { emit exportCsvRequested(run); });
    menu.addAction(tr("Export config as preset…"), this, [this, run] { emit exportPresetRequested(run); });
    menu.addAction(tr("Copy as PyTorch script"), this, [this, run] { emit copyScriptRequested(run); });
    menu.addAction(tr("Open run folder"), this, [this, run] { emit openFolderRequested(run); });
    menu.addSeparator();
    const QList<RunRecord> toDelete = runs.isEmpty() ? QList<RunRecord>{run} : runs;
    menu.addAction(toDelete.size() == 1 ? tr("Delete…") : tr("Delete %1 runs…").arg(toDelete.size()), this,
                   [this, toDelete] { emit deleteRequested(toDelete); });
    menu.exec(m_tree->viewport()->mapToGlobal(position));
}

}  // namespace ddplab::ui
