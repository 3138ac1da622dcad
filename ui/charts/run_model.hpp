// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The runs on display (the live ones and any past runs the user overlays), each with a colour
// that stays its own while it is shown. Live data comes straight from the lab session it follows
// (follow()): the window and the headless runner wire it the same way, and neither relays steps.

#include <QColor>
#include <QList>
#include <QObject>
#include <QSharedPointer>

namespace ddplab::ui {

class LabSession;
class RunData;

struct DisplayedRun {
    QSharedPointer<RunData> data;
    QColor color;
    QString label{};  // tells it apart from every other run on display (client/runs/run_names.hpp)
};

class RunModel : public QObject {
    Q_OBJECT

public:
    explicit RunModel(QObject* parent = nullptr);

    // Shows every run `session` starts (a study's runs are the Study page's to draw), tells the
    // charts when one gets data, and relabels when one finishes (its config has arrived). Slots
    // connected to the session before this call run first (the window's row for a run exists
    // before the run gets its colour).
    void follow(const LabSession& session);

    const QList<DisplayedRun>& runs() const { return m_runs; }
    bool contains(const QString& runId) const;

    void addRun(const QSharedPointer<RunData>& run);  // replaces a run with the same id
    void removeRun(const QString& runId);
    void clear();

    // Called after new events were appended to a displayed run.
    void notifyDataAppended(const QString& runId);
    // Called after a displayed run was renamed (or its config arrived): labels may change.
    void notifyLabelsChanged();

signals:
    void runsChanged();
    void dataAppended(const QString& runId);

private:
    QColor unusedColor() const;
    void relabel();

    QList<DisplayedRun> m_runs;
};

}  // namespace ddplab::ui
