// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the advisor's measurements say (docs/advisor.md): functions of the measured runs (advice
// evidence) and the request, nothing else, so every rule is tested on recorded evidence without
// a process (tst_advice_decision). The job (advice_job.hpp) calls them between phases:
//   - concludeBranches: each batch's verdict against yours over common data orders, the batch
//     chosen (never past what the branch test measured within its tolerance), the LR's exponent
//     in the batch, McCandlish's fit, where the confirmation's ladder is centred;
//   - nextOnLadder: whether the ladder extends (its best rung must be interior) and to which LRs;
//   - warmupArmLrs / judgeWarmup: the warmup arm planned and judged;
//   - concludeAdvice: the LR (lr_choice.hpp), the rule named, the confidence and the cautions.

#include "advice.hpp"
#include "advice_request.hpp"
#include "batch_verdict.hpp"
#include "lr_bracket.hpp"
#include "lr_choice.hpp"

#include <QList>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct BranchConclusion {
    QString failure;                  // not empty: no advice (the base batch trained in no order)
    BatchJudgement judgement;
    QList<BatchOptimum> optima;       // each batch's best LR of its bracket, and each order's own
    LrExponent exponent;
    StepsToTarget fit;
    QList<double> edgeBatches;        // batches whose best LR sat at the edge of their bracket
    qint64 chosenPerGpu = 0;          // at N GPUs
    bool dontScale = false;           // N x your batch per GPU is past the critical batch
    double divergenceLr = 0.0;        // the range test's runaway at the chosen batch (0: it never ran away)
    double ladderCenter = 0.0;        // the confirmation's ladder is centred here
};

// `evidence`: every run so far (the branch test's, its refinement's); `rangeTests`: their curves.
BranchConclusion concludeBranches(const AdviceRequest& request, const QList<AdviceEvidence>& evidence, const QList<RangeCurve>& rangeTests);

// A branch bracket whose best LR (mean over the orders every LR of it ran) sits at its edge is
// extended by one LR 2x past that edge, in each of those orders, so its best is a measured
// optimum and not the rule the bracket was centred on (the panel's tabular_adamw: half your batch
// compared at 0.003, the middle of ½-2 x the linear rule's, where the truth's best LRs are near
// 0.017). Half your batch first, then yours, then the others ascending; none for a bracket with
// fewer than 3 LRs that trained.
struct BracketExtension {
    int gpus = 0;
    qint64 perGpu = 0;
    double lr = 0.0;
    QList<qint64> seeds;
    bool up = false;
};
QList<BracketExtension> bracketEdgeExtensions(const AdviceRequest& request, const QList<AdviceEvidence>& evidence);

// Half your batch and yours compared at LRs tuned for each, not at the coarse bracket's nearest
// rung: when a batch smaller than yours was measured, each of its brackets and yours whose best LR
// (mean over the orders every LR of it ran) is interior, with its better neighbour 2x away, gets
// the point between them (their geometric mean, one ladder step of sqrt 2 from each) in those
// orders; none once a neighbour is a step away (the point ran). The panel's autoencoder at
// ab4369f: the half, 16, compared at 0.0025 (its bracket 0.00125-0.005) where the truth's best at
// 16 is 0.00354, and yours at 0.005 where the truth's best at 32 is 0.00707: the half -3.0 % over
// 16 orders where the truth has -8.2 %. The half first, then yours; `up`: the point is above the best.
QList<BracketExtension> bracketMidpoints(const AdviceRequest& request, const QList<AdviceEvidence>& evidence);

// Where the confirmation's ladder is centred at `perGpu` on N GPUs: your LR times the ratio of the
// branch test's best LRs at that batch and at yours when it measured both (the branches' bias from
// the checkpoint cancels), its best at that batch when only that, else the exponent's prediction
// (else the linear rule); below half the runaway LR.
double ladderCenterAt(const AdviceRequest& request, const BranchConclusion& conclusion, qint64 perGpu);

// A phase's runs as LR points, one measure per seed (+inf: diverged).
QList<BracketPoint> pointsOf(const QList<AdviceEvidence>& evidence, const QString& phase);

// The ladder's next LRs: two below its lowest when its best is the lowest rung (or nothing trained
// safely), two above its highest when the best is the highest and they stay below the runaway
// LR; none when the best is interior, after `extensions` of kMostExtensions, or past the runaway.
struct LadderNext {
    QList<double> lrs;
    bool down = false;
    QString why;    // when it stops at an edge: why it was not extended
};
LadderNext nextOnLadder(const LrChoice& choice, const QList<BracketPoint>& ladder, double divergenceLr, int extensions);

// The warmup arm's LRs: the advised LR and its neighbour above (else below) when the LR is at
// least twice yours and your own warmup is shorter than the arm's; else none, and `verdict` says why.
QList<double> warmupArmLrs(const AdviceRequest& request, const LrChoice& choice, const QList<BracketPoint>& ladder, qint64 confirmationSteps, QString* verdict);
// The arm against the ladder at the same LRs: the verdict in words; when it helped, the advice
// takes its LR and warmup.
void judgeWarmup(Advice& advice, const AdviceRequest& request, const QList<BracketPoint>& ladder, const QList<BracketPoint>& arm);

// Goodput's basis (docs/advisor.md, "Goodput"): phi is McCandlish's B_crit over the branch test
// when nothing argues against that fit, else B_simple at the base run's end, and never below what
// the branch test measured (noiseScaleFloor); the verdict says why when there is nothing to choose.
Goodput goodputBasis(const Advice& advice, double baseBatch, const QString& timedOn);

struct FinalInputs {
    LrChoice choice;                 // on the confirmation's ladder
    QList<BracketPoint> ladder;
    QList<BracketPoint> arm;         // the warmup arm's (empty: not tested)
    QList<BracketPoint> bracket;     // the branch test's bracket at the chosen batch (from the checkpoint)
    bool confirmed = true;           // false: no confirmation ran (out of time): the LR is the branch test's
    qint64 confirmationSteps = 0;
    double divergenceLr = 0.0;
    bool branchesShort = false;      // the branches trained fewer samples than your horizon
    bool planTrimmed = false;        // batches, range tests or phases were left out
    QString ladderStopped;           // why the ladder was not extended past its best's edge ("" when interior)
    bool timesTransfer = false;      // the runs went to the Run-on host
    QString runOn;                   // its description
    double budgetSeconds = 0.0;
};
// Fills the LR, its safe range and rule, the confidence (confidence.hpp), the cautions, the
// objective, the steps to match and the recommendation; the batch (advice.batchPerGpu) and the
// branch test's findings are already in `advice`.
void concludeAdvice(Advice& advice, const AdviceRequest& request, const FinalInputs& in);

// The confirmation's weaknesses and cautions from the layers of your model (inspect's report).
QStringList layerCautions(const ModelLayers& layers, qint64 batchPerGpu, qint64 yourBatchPerGpu);
// How the BatchNorm caution begins: what says, in a stored advice too, that its model has BatchNorm.
inline const QString kBatchNormCaution = QStringLiteral("Your model has BatchNorm");

}  // namespace ddplab::ui
