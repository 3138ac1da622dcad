// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Runs list: every stored run, newest first, a study's or a lesson's runs grouped under it
// (one collapsible row each). A tick overlays a run on the charts (and the comparison table);
// the context menu renames, deletes and exports. Beside each name: its status, ranks × batch,
// effective LR, optimizer and when it started.

#include "client/runs/run_groups.hpp"
#include "client/runs/run_record.hpp"

#include <QColor>
#include <QHash>
#include <QSet>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace ddplab::ui {

class RunListPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunListPanel(QWidget* parent = nullptr);

    // The titles group rows show; set before setRuns (or updateRun of a new group's run).
    void setGroupTitles(const RunGroupTitles& titles) { m_groupTitles = titles; }
    void setRuns(const QList<RunRecord>& runs);
    // Adds the run at the top (or at the end of its group, the group moved to the top), or
    // updates its row.
    void updateRun(const RunRecord& run);
    void setShown(const QString& runId, bool shown);
    // The colour a shown run has on the charts (invalid: not shown).
    void setRunColor(const QString& runId, const QColor& color);
    QStringList shownRunIds() const;
    QList<RunRecord> selectedRuns() const;
    int runCount() const;

    // For tests and the window: the list's rows as a person sees them.
    QTreeWidget* tree() const { return m_tree; }
    // The row of a run's group (nullptr for a run of its own).
    QTreeWidgetItem* groupItem(const QString& groupKey) const;
    QTreeWidgetItem* runItem(const QString& runId) const { return m_items.value(runId); }

signals:
    void shownChanged(const ddplab::ui::RunRecord& run, bool shown);
    void renameRequested(const ddplab::ui::RunRecord& run);
    void deleteRequested(const QList<ddplab::ui::RunRecord>& runs);
    void exportCsvRequested(const ddplab::ui::RunRecord& run);
    void exportPresetRequested(const ddplab::ui::RunRecord& run);
    void copyScriptRequested(const ddplab::ui::RunRecord& run);
    void loadSettingsRequested(const ddplab::ui::RunRecord& run);
    void openFolderRequested(const ddplab::ui::RunRecord& run);

private:
    QTreeWidgetItem* placeNewRun(const RunRecord& run, bool atTop);
    QTreeWidgetItem* groupFor(const RunRecord& run, bool atTop);
    void fillItem(QTreeWidgetItem* item, const RunRecord& run);
    void fillGroup(QTreeWidgetItem* group);
    void restoreExpansion(QTreeWidgetItem* group);
    void fitNameColumn();
    void showContextMenu(const QPoint& position);
    void applyFilter();

    QTreeWidget* m_tree = nullptr;
    QLineEdit* m_filter = nullptr;
    QHash<QString, RunRecord> m_records;
    QHash<QString, QTreeWidgetItem*> m_items;  // by run id
    RunGroupTitles m_groupTitles;
    QSet<QString> m_openGroups;  // group keys the person (or a shown run) opened
    bool m_filling = false;
    bool m_nameWidthChosen = false;  // the person dragged the name column: leave it
};

}  // namespace ddplab::ui
