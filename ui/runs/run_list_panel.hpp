#pragma once
// The Runs list: every stored run, newest first. A tick overlays a run on the charts (and the
// comparison table); the context menu renames, deletes and exports.

#include "client/runs/run_record.hpp"

#include <QColor>
#include <QHash>
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

    void setRuns(const QList<RunRecord>& runs);
    // Adds the run at the top, or updates its row.
    void updateRun(const RunRecord& run);
    void setShown(const QString& runId, bool shown);
    // The colour a shown run has on the charts (invalid: not shown).
    void setRunColor(const QString& runId, const QColor& color);
    QStringList shownRunIds() const;
    QList<RunRecord> selectedRuns() const;
    int runCount() const;

signals:
    void shownChanged(const ddplab::ui::RunRecord& run, bool shown);
    void renameRequested(const ddplab::ui::RunRecord& run);
    void deleteRequested(const QList<ddplab::ui::RunRecord>& runs);
    void exportCsvRequested(const ddplab::ui::RunRecord& run);
    void exportPresetRequested(const ddplab::ui::RunRecord& run);
    void loadSettingsRequested(const ddplab::ui::RunRecord& run);
    void openFolderRequested(const ddplab::ui::RunRecord& run);

private:
    QTreeWidgetItem* itemFor(const QString& runId) const;
    void fillItem(QTreeWidgetItem* item, const RunRecord& run);
    void showContextMenu(const QPoint& position);
    void applyFilter();

    QTreeWidget* m_tree = nullptr;
    QLineEdit* m_filter = nullptr;
    QHash<QString, RunRecord> m_records;
    bool m_filling = false;
};

}  // namespace ddplab::ui
