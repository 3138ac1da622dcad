#pragma once
// When a run diverged: the first step whose training loss is not a number (NaN or infinite,
// which the engine writes as null) or has grown to kDivergedGrowth times its first loss (the
// loss at the initial weights). A loss that large is no slow drift: the weights have blown up,
// and every later figure of the run (accuracy at chance, a gradient norm of 1e18) follows.

#include <QJsonValue>
#include <QString>

#include <limits>
#include <optional>

namespace ddplab::ui {

// Growth over the first loss that counts as diverged: four orders of magnitude.
inline constexpr double kDivergedGrowth = 1e4;

struct Divergence {
    qint64 step = -1;
    double loss = std::numeric_limits<double>::quiet_NaN();       // NaN: not a number any more
    double firstLoss = std::numeric_limits<double>::quiet_NaN();  // NaN: it diverged before any finite loss

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
    double m_firstLoss = std::numeric_limits<double>::quiet_NaN();
    std::optional<Divergence> m_found;
};

}  // namespace ddplab::ui
