// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Branch tests as real advices recorded them on the advisor's ground-truth panel (their
// advice.json's evidence: the branch test, its extensions and the closest call's orders), for
// tst_advice_decision's rules on recorded evidence. A measure of infinity: the run diverged.

#include "client/advisor/advice.hpp"
#include "client/advisor/advice_phases.hpp"

#include <QList>

#include <limits>

namespace recorded {

inline void add(QList<ddplab::ui::AdviceEvidence>& runs, const QString& phase, int gpus, qint64 perGpu, double lr, const QList<qint64>& seeds,
                const QList<double>& measures)
{
    for (qsizetype i = 0; i < seeds.size(); ++i) {
        ddplab::ui::AdviceEvidence evidence;
        evidence.phase = phase;
        evidence.gpus = gpus;
        evidence.batchPerGpu = perGpu;
        evidence.lr = lr;
        evidence.seed = seeds[i];
        evidence.measure = measures[i];
        runs.append(evidence);
    }
}

inline constexpr double kDiverged = std::numeric_limits<double>::infinity();

}  // namespace recorded

// The panel's autoencoder at 509f47b (1 x 32, Adam at 0.005, to 8 GPUs): the branch test from the
// start, cut at its share after 32 of its 49 runs (its larger batches one order each).
inline QList<ddplab::ui::AdviceEvidence> autoencoderBranchesAt509f47b()
{
    using namespace ddplab::ui;
    using recorded::kDiverged;
    QList<AdviceEvidence> runs;
    const auto add = [&runs](const QString& phase, int gpus, qint64 perGpu, double lr, const QList<qint64>& seeds, const QList<double>& measures) {
        recorded::add(runs, phase, gpus, perGpu, lr, seeds, measures);
    };
    add(advice_phase::kBranch, 1, 32, 0.0025, {0, 1}, {0.01695944, 0.01615189});
    add(advice_phase::kBranch, 1, 32, 0.005, {0, 1}, {0.01644931, 0.01454061});
    add(advice_phase::kBranch, 1, 32, 0.01, {0, 1}, {0.01647899, 0.01584921});
    add(advice_phase::kBranch, 8, 32, 0.02, {0, 1}, {0.03721793, 0.05394448});
    add(advice_phase::kBranch, 8, 32, 0.04, {0, 1}, {0.07371786, 0.07265906});
    add(advice_phase::kBranch, 8, 32, 0.08, {0, 1}, {kDiverged, kDiverged});
    add(advice_phase::kBranch, 1, 16, 0.00125, {0, 1}, {0.01602116, 0.01586217});
    add(advice_phase::kBranch, 1, 16, 0.0025, {0, 1}, {0.01523264, 0.01491653});
    add(advice_phase::kBranch, 1, 16, 0.005, {0, 1}, {0.01567477, 0.01508301});
    add(advice_phase::kBranch, 2, 32, 0.005, {0, 1}, {0.01667435, 0.01672935});
    add(advice_phase::kBranch, 2, 32, 0.01, {0}, {0.01621360});
    add(advice_phase::kBranch, 2, 32, 0.02, {0}, {0.02307595});
    add(advice_phase::kBranch, 4, 32, 0.01, {0}, {0.03932787});
    add(advice_phase::kBranch, 4, 32, 0.02, {0}, {0.02879001});
    add(advice_phase::kBranch, 4, 32, 0.04, {0}, {0.07325890});
    add(advice_phase::kBranch, 8, 64, 0.04, {0}, {0.05422626});
    add(advice_phase::kBranch, 8, 64, 0.08, {0}, {kDiverged});
    add(advice_phase::kBranch, 8, 64, 0.16, {0}, {kDiverged});
    add(advice_phase::kBranch, 8, 128, 0.08, {0}, {kDiverged});
    add(advice_phase::kBranch, 8, 128, 0.16, {0}, {kDiverged});
    add(advice_phase::kBranch, 8, 128, 0.32, {0}, {kDiverged});
    return runs;
}

// The panel's tabular_adamw at 70dadd7 (1 x 64, AdamW at 0.006, to 8 GPUs): the branch test, its
// brackets extended past their edges, and the closest call's orders 2 to 4 (32 and 128 each got
// them; after them, 128 got orders 5 to 7).
inline QList<ddplab::ui::AdviceEvidence> tabularAdamwBranchesAt70dadd7()
{
    using namespace ddplab::ui;
    using recorded::kDiverged;
    QList<AdviceEvidence> runs;
    const auto add = [&runs](const QString& phase, int gpus, qint64 perGpu, double lr, const QList<qint64>& seeds, const QList<double>& measures) {
        recorded::add(runs, phase, gpus, perGpu, lr, seeds, measures);
    };
    add(advice_phase::kBranch, 1, 64, 0.003, {0, 1}, {0.41185336, 0.41926181});
    add(advice_phase::kBranch, 1, 64, 0.006, {0, 1}, {0.33877788, 0.38908028});
    add(advice_phase::kBranch, 1, 64, 0.012, {0, 1}, {0.40823014, 0.35433500});
    add(advice_phase::kBranch, 8, 64, 0.024, {0, 1}, {1.01579212, 0.80054197});
    add(advice_phase::kBranch, 8, 64, 0.048, {0, 1}, {1.49101380, 1.10098986});
    add(advice_phase::kBranch, 8, 64, 0.096, {0, 1}, {1.56731641, 5.19676805});
    add(advice_phase::kBranch, 1, 32, 0.0015, {0, 1}, {0.44037028, 0.44527141});
    add(advice_phase::kBranch, 1, 32, 0.003, {0, 1}, {0.37787987, 0.39874216});
    add(advice_phase::kBranch, 1, 32, 0.006, {0, 1}, {0.39236598, 0.33703257});
    add(advice_phase::kBranch, 2, 64, 0.006, {0, 1}, {0.40485777, 0.42889334});
    add(advice_phase::kBranch, 2, 64, 0.012, {0, 1}, {0.41017924, 0.37692714});
    add(advice_phase::kBranch, 2, 64, 0.024, {0, 1}, {0.43902348, 0.37278200});
    add(advice_phase::kBranch, 4, 64, 0.012, {0, 1}, {0.40687501, 0.56902236});
    add(advice_phase::kBranch, 4, 64, 0.024, {0, 1}, {0.40872183, 0.50351217});
    add(advice_phase::kBranch, 4, 64, 0.048, {0, 1}, {0.46706349, 0.72863699});
    add(advice_phase::kBranch, 8, 128, 0.048, {0, 1}, {3.39566392, 3.25662088});
    add(advice_phase::kBranch, 8, 128, 0.096, {0, 1}, {3.15195614, 3.51261193});
    add(advice_phase::kBranch, 8, 128, 0.192, {0, 1}, {3.66393018, 3.13930607});
    add(advice_phase::kBranch, 8, 256, 0.096, {0, 1}, {6.21084130, 6.21976173});
    add(advice_phase::kBranch, 8, 256, 0.192, {0, 1}, {12.10316873, 11.72617888});
    add(advice_phase::kBranch, 8, 256, 0.384, {0, 1}, {kDiverged, kDiverged});
    add(advice_phase::kBranch, 1, 32, 0.012, {0, 1}, {0.37531598, 0.28727647});
    add(advice_phase::kBranch, 8, 64, 0.012, {0, 1}, {1.08884999, 0.86134747});
    add(advice_phase::kBranch, 8, 128, 0.024, {0, 1}, {3.14571583, 2.91152650});
    add(advice_phase::kBranch, 1, 32, 0.024, {0, 1}, {0.40774047, 0.31667107});
    add(advice_phase::kBranch, 8, 128, 0.012, {0, 1}, {2.17497194, 1.95470893});
    add(advice_phase::kRefinement, 1, 32, 0.012, {2, 3, 4}, {0.37291998, 0.29288232, 0.31015528});
    add(advice_phase::kRefinement, 1, 64, 0.006, {2, 3, 4}, {0.39329449, 0.34719709, 0.36316424});
    add(advice_phase::kRefinement, 2, 64, 0.012, {2, 3, 4}, {0.38197458, 0.38538346, 0.37470341});
    return runs;
}
