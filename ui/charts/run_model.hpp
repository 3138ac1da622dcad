#pragma once
// The runs on display (the live ones and any past runs the user overlays), each with a colour
// that stays its own while it is shown.

#include <QColor>
#include <QList>
#include <QObject>
#include <QSharedPointer>

namespace ddplab::ui {

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
