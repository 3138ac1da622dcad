// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// When a run diverged: the first step whose training loss is not a number (NaN or infinite,
// which the engine writes as null) or has grown to kDivergedGrowth times its early level (the
// largest of its first kEarlySteps losses, at the initial weights). A healthy run's loss only
// falls from its start; one thirty times higher has blown up, and the run's later figures (an
// accuracy at chance, a gradient norm of 1e18) follow from that.

#include <QJsonValue>
#include <QString>

#include <limits>
#include <optional>

namespace ddplab::ui {

// Growth over the early loss that counts as diverged: one and a half orders of magnitude.
inline constexpr double kDivergedGrowth = 30.0;
// The early level is the largest of this many first losses, so one lucky batch does not set it.
inline constexpr int kEarlySteps = 3;

struct Divergence {
    qint64 step = -1;
    double loss = std::numeric_limits<double>::quiet_NaN();       // NaN: not a number any more
    double earlyLoss = std::numeric_limits<double>::quiet_NaN();  // NaN: it diverged before any finite loss

    // "the loss became NaN at step 28" / "the loss grew from 2.3 to 3.5e+08 at step 28"
    QString describe() const;
};

// Watches a run's step losses as they arrive.
class DivergenceWatch {
public:
    // One step's `loss` field: a number, null (NaN or infinite on the engine's side), or absent
    // (a step without a loss says nothing).
    void observe(qint64 step, const QJsonValue& loss);
    const std::optional<Divergence>& found() const { return m_found; }

private:
    int m_earlySteps = 0;
    double m_earlyLoss = 0.0;
    std::optional<Divergence> m_found;
};

}  // namespace ddplab::ui
