// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the lab is busy with: nothing, runs started from Setup or a lesson, a study, or an
// advice. The one busy state of a window (and of a headless command): the Run button, the
// Study and Advise pages' starts and the window's title read it, and each start claims it, so
// two things never run at once even between an advice's phases, when no run is going. The
// session (LabSession) holds one; a study or an advice claims it before its first run and lets
// it go when it has ended (LabSession::claim, release); runs started on their own are claimed
// by the session itself.

#include <QObject>
#include <QString>

namespace ddplab::ui {

enum class Busy {
    Idle,
    Runs,    // a run or a lesson's runs, started from Setup, a lesson or the command line
    Study,   // a study's points (StudyRunner)
    Advice,  // an advice's phases (AdviceJob)
};

class LabActivity : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;

    Busy busy() const { return m_busy; }
    bool isBusy() const { return m_busy != Busy::Idle; }
    // "a study is running": what holds the lab, for a refusal or a tooltip ("" when idle).
    QString busyWords() const;

signals:
    void changed(ddplab::ui::Busy busy);

private:
    // Claimed and let go through LabSession (claim, release), which knows whether a run still
    // goes on when a study or an advice lets go.
    friend class LabSession;
    // The lab is taken for `what`; false when it is busy already, with *refusal saying with what.
    bool claim(Busy what, QString* refusal);
    // `what` holds the lab no more; `next` does (Idle, or Runs for a run still going). A late
    // release by another never frees someone else's claim.
    void handOver(Busy what, Busy next);

    Busy m_busy = Busy::Idle;
};

}  // namespace ddplab::ui
