// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What one of the advisor's runs costs on this machine (issue 28 §4: a plan sized from measured
// step times, a time left right within 2x): measured once, on the advice's base run, as the
// seconds of a run's start and end, of each training sample, and of each evaluation (the
// noise-free training loss and the validation set). The plan's branches and horizon are cut to
// fit the budget with it, and the time left is said with it.

#include <QtGlobal>

namespace ddplab::ui {

class RunCost {
public:
    // From the base run: the seconds its steps took (summary train_s) for its `samples`, its
    // seconds from the first step to its end (wall_s), the seconds the whole run took here
    // (its start and end included; the engine's own start, which the runs after it do not pay,
    // not), and the evaluations it made.
    static RunCost measured(double trainSeconds, double samples, double wallSeconds, double elapsedSeconds, qint64 evaluations);
    // A run's own start and end (the engine's fork of it, its ranks, data, events; LibTorch is
    // loaded once, by the engine): its whole time less the time from its first step to its end,
    // within these bounds.
    static constexpr double kFewestPerRun = 0.2;
    static constexpr double kMostPerRun = 5.0;

    bool isMeasured() const { return m_perSample > 0; }
    double perSample() const { return m_perSample > 0 ? m_perSample : kUnmeasuredPerSample; }
    double perRun() const { return m_perRun; }
    double perEvaluation() const { return m_perEvaluation; }

    // A run of `samples` training samples and `evaluations` measurements.
    double seconds(double samples, double evaluations) const { return m_perRun + evaluations * m_perEvaluation + samples * perSample(); }
    // evalEvery for a run of `steps` steps of `samplesPerStep`: `wanted` measurements along it,
    // fewer where they would take longer than its training, never fewer than `fewest`.
    qint64 measuringEvery(qint64 steps, double samplesPerStep, qint64 wanted, qint64 fewest) const;

private:
    static constexpr double kUnmeasuredPerSample = 1e-4;  // before the base run: a guess that only orders the plan
    double m_perSample = 0.0;
    double m_perRun = 1.0;
    double m_perEvaluation = 0.0;
};

}  // namespace ddplab::ui
