// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The names of the advisor's phases, as its run labels and advice.json's `evidence` give them:
// one place for the advisor that plans the runs, the decision that reads them and the charts
// that draw them (docs/advisor.md).

#include <QString>

namespace ddplab::ui::advice_phase {

inline const QString kBase = QStringLiteral("base");                    // the user's settings on N GPUs, a checkpoint halfway
inline const QString kRangeTest = QStringLiteral("range test");         // from the checkpoint, one per branch batch
inline const QString kBranch = QStringLiteral("branch");                // k x the base batch from the checkpoint
inline const QString kBranchRepeat = QStringLiteral("branch repeat");   // advice.json before paired orders: the base batch, another data order
inline const QString kRefinement = QStringLiteral("refinement");        // the closest call and the base batch in one more data order
inline const QString kNoiseScale = QStringLiteral("noise scale");       // 2 GPUs of a 1-GPU base, for B_simple
inline const QString kThroughput = QStringLiteral("throughput");       // a batch per GPU timed on the Run-on host, for goodput
inline const QString kConfirmation = QStringLiteral("confirmation");    // the LR ladder at the chosen batch, from the start
inline const QString kWarmup = QStringLiteral("warmup");                // the best LRs again with a warmup from the base's LR

}  // namespace ddplab::ui::advice_phase
