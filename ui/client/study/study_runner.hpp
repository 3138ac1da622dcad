// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs a stored study: the points that have no finished run yet, one after the other through
// the LabSession it is given — the window's or the headless runner's one session, so a study
// and anything else never run at once, and one engine process serves all of them. The same
// call resumes a study that was stopped, or whose window or machine went away: finished points
// are never run twice, a half-finished one runs again. Used by the Study page and
// `ddplab --study` alike.
// One runner at a time holds a study: a lock file in its folder (QLockFile: pid, program and
// host inside; a lock whose process has died on this host is taken over), so two resumes of
// one study never run its points twice; the second is refused, naming the first.

#include "client/session/lab_session.hpp"
#include "client/study/study_store.hpp"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QLockFile>
#include <QObject>

#include <memory>

namespace ddplab::ui {

class StudyRunner : public QObject {
    Q_OBJECT

public:
    explicit StudyRunner(LabSession& session, QObject* parent = nullptr);

    enum class StartResult {
        Started,
        AllDone,  // every point has its run already: nothing started
        Refused,  // the session runs something else, another runner holds the study, or it cannot be locked: refusal() says which
    };
    // Each point's estimated seconds by its index (pointSeconds), for the time left: set before
    // start(). Without them, or for a point without one, the time left is the mean run's so far.
    void setEstimates(QHash<int, double> secondsByPoint) { m_estimateOf = std::move(secondsByPoint); }
    // The points still to run are decided once the study is held, from the run store as it is then.
    StartResult start(const StoredStudy& study);
    const QString& refusal() const { return m_refusal; }
    void stop();

    // True while the session runs this runner's study (not while it runs anything else).
    bool isRunning() const { return m_active; }
    const StoredStudy& study() const { return m_study; }
    const LabSession& session() const { return m_session; }
    int total() const { return int(m_study.points.size()); }
    int done() const { return m_doneBefore + m_doneNow; }  // points with a finished or failed run
    int left() const { return total() - done(); }
    // "run 5 of 21 · 3 done before · about 12 s left"
    QString progressText() const;
    // "about 3 min left"; empty until a run has finished, or when none is left. With estimates, the
    // runs left at their estimates, re-timed by what the finished runs took against theirs
    // (retimedSecondsLeft), so it follows the machine as it is now, and a large run left as large.
    QString timeLeftText() const;
    double secondsLeft() const;  // 0 until a run has finished
    int percent() const;
    // Seconds per run so far (0 before the first ends): for estimates.
    double secondsPerRun() const;

signals:
    void runStarted(const QSharedPointer<ddplab::ui::RunData>& run);
    void runFinished(const QSharedPointer<ddplab::ui::RunData>& run);
    void logMessage(const QString& text, bool isWarning);
    void finished(bool allSucceeded);

private:
    LabSession& m_session;
    bool m_active = false;  // the session's current sequence is this study
    StoredStudy m_study;
    std::unique_ptr<QLockFile> m_lock;  // held from start() until the study's runs have ended
    QString m_refusal;
    int m_doneBefore = 0;
    int m_doneNow = 0;
    QElapsedTimer m_clock;
    QHash<int, double> m_estimateOf;
    QList<double> m_estimates;  // of the runs this start runs, in their order; empty: not all known
};

}  // namespace ddplab::ui
