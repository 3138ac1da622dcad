// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The advice's time (issue 28 §4, issue 46 §4): what a planned run costs here, from the cost
// measured on the base run (run_cost.hpp), scaled by how long the finished phases took against
// what it predicted for them; the time left of an advice; how far it is. One piece of its own,
// so the study estimator (study_estimate.hpp) or an "about N s" before the start can ask it.

#include "advice_plan.hpp"
#include "run_cost.hpp"

#include <QList>

namespace ddplab::ui {

class AdviceTime {
public:
    void setCost(const RunCost& cost, qint64 checkpointStep);
    bool isMeasured() const { return m_cost.isMeasured(); }
    const RunCost& cost() const { return m_cost; }

    // A planned run's seconds at the measured cost, unscaled.
    double runSeconds(const PlannedRun& run) const;
    double runsSeconds(const QList<PlannedRun>& runs) const;
    // A phase took `seconds` where `runs` were predicted: later predictions are scaled by that
    // (within 1/4 and 4), as resuming, evaluating and forking cost what one run cannot show.
    // `engineStart` of those seconds went to starting the engine the phase launched (a resumed
    // advice's first, one that went, on a host, its SSH connection too): no run to come pays it.
    void calibrate(const QList<PlannedRun>& runs, double seconds, double engineStart = 0.0);
    double scale() const { return m_scale; }
    // `runs` still to finish and `later` seconds of phases to come (unscaled), scaled.
    double secondsLeft(const QList<PlannedRun>& runs, double later) const;

private:
    RunCost m_cost;
    qint64 m_checkpointStep = 0;
    double m_scale = 1.0;
};

// How far an advice is: `elapsed` seconds of its clock of a `whole` (elapsed and the time left),
// as a percentage below 100 until it is done.
int percentDone(double elapsed, double whole);

}  // namespace ddplab::ui
