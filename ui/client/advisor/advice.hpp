// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The advisor's answer (docs/advisor.md): the batch per GPU, accumulation, LR and rule for the
// user's model on N GPUs, with the evidence it rests on. Written as advice.json and advice.md.

#include "batch_evidence.hpp"
#include "batch_verdict.hpp"
#include "goodput.hpp"
#include "core/config.hpp"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <cmath>
#include <optional>

namespace ddplab::ui {

// One run the advisor made, as advice.json's `evidence` lists it.
struct AdviceEvidence {
    QString phase;    // "base", "range test", "branch", "confirmation"
    QString runId;    // in the run store
    QString label;    // "8 GPUs × 32 · lr 0.4 · seed 1"
    int gpus = 0;
    qint64 batchPerGpu = 0;
    double lr = 0.0;
    qint64 seed = 0;
    double samples = 0.0;
    double measure = 0.0;  // +inf: diverged or failed
    QString status;
    // A branch's noise-free training loss along the way: (optimizer steps since the checkpoint,
    // measure), the checkpoint's own first; McCandlish's steps to a target are read from it.
    QList<QPointF> curve;
    double samplesPerSecond = 0.0;  // a timing run's steady pace (goodput), over its ranks
};

// The warmup arm (Goyal et al. 2017): when the confirmed LR is well above the base's, its best
// LRs again with a linear warmup from the base's LR, the same seeds; measured against the same
// LRs without it.
struct WarmupArm {
    bool tested = false;
    qint64 steps = 0;              // the arm's warmup steps
    double startFactor = 0.0;      // its LR starts at startFactor x the LR (the base's LR)
    QList<double> lrs;             // the LRs it ran
    double lrWith = 0.0, measureWith = 0.0, errorWith = 0.0;           // its best LR, mean, s.e.
    double lrWithout = 0.0, measureWithout = 0.0, errorWithout = 0.0;  // the confirmation's at the same LRs
    bool helped = false;           // lower by more than two standard errors: the advice warms up
    QString verdict;               // in words, with the numbers
};

// A range test's smoothed loss against the LR at one effective batch (advice.json keeps the
// curves, so a reopened advice draws them without its runs).
struct RangeCurve {
    double batch = 0.0;
    double runawayLr = 0.0;        // where the smoothed loss passed 4x its minimum; 0: it never did
    QList<QPointF> points;         // (lr, smoothed loss)
};

struct Advice {
    // What it is about: the model and its data, in a few words (Past advice names them).
    QString model;
    QString data;
    // The answer.
    int gpus = 0;
    qint64 mostBatchPerGpu = 0;  // the most one GPU holds, as the advice was asked (0: not recorded, an older advice)
    qint64 batchPerGpu = 0;
    qint64 gradAccum = 1;
    qint64 effectiveBatch = 0;
    double lr = 0.0;
    QString lrRule;                 // the rule whose value lies in the safe band ("linear", "sqrt", "none"), else "measured"
    double ruleLr = 0.0;            // that rule's LR (the advice gives the measured one, `lr`)
    double lowestMeanLr = 0.0;      // the ladder's lowest mean; `lr` is the middle of the rungs within noise of it (0: not known)
    double quietLow = 0.0, quietHigh = 0.0;  // those rungs' ends (both lowestMeanLr when none is)
    double lrExponent = 0.0;        // NaN when not measured
    double lrExponentLow = 0.0, lrExponentHigh = 0.0;
    QStringList lrExponentRules;    // the rules inside the interval ("linear", "sqrt")
    QList<BatchOptimum> lrOptima;   // the branch test's best LR per batch, each data order's own
    int branchSeeds = 1;            // data orders of the branch test's brackets (every batch, every LR)
    // Each batch against the base batch over common data orders, with the interval of the
    // difference and the verdict (batch_verdict.hpp); the closest call got more orders.
    QList<BatchVerdict> batchVerdicts;
    int refinementOrders = 0;       // data orders added to the closest call
    double branchSamples = 0.0;     // each branch's samples from the checkpoint
    double branchHorizon = 0.0;     // your horizon's samples from the checkpoint: what they compare at when the budget holds it
    WarmupArm warmup;
    QList<RangeCurve> rangeTests;   // by batch
    qint64 warmupSteps = 0;
    QList<QPointF> noiseScale;      // (samples, B_simple) as the base run went
    double criticalBatch = 0.0;
    bool criticalBatchBeyond = false;  // every branch stayed within tolerance
    double branchTolerance = 0.0;   // relative: a batch within it of the base batch's loss is as good
    StepsToTarget stepsFit;         // McCandlish's saturating fit over the branches
    QString criticalBatchFinding;   // the three readings side by side, in words
    qint64 stepsToMatch = -1;       // optimizer steps at the recommendation to reach the base's quality (-1: not reached)
    qint64 baseSteps = 0;           // the base's own
    QString objective;
    QString measureName;            // "validation loss" or "training loss (noise-free)"
    double horizonSamples = 0.0;
    double plannedSamples = 0.0;
    QString schedule;
    double safeLow = 0.0, safeHigh = 0.0;
    QString confidence;             // high, moderate, low
    QString confidenceReason;
    QStringList confidenceWeaknesses;  // confidence.hpp's names
    bool confidenceCalibrated = false; // read from the ground-truth panel's table
    QStringList cautions;
    QStringList trimmed;            // what the plan cut to fit the budget
    bool dontScale = false;         // N x the base's batch is past the critical batch
    // Samples/s timed on the Run-on host at the candidate batches per GPU, and the goodput choice
    // (goodput.hpp); none when the runs happened on this computer's CPU, whose times do not transfer.
    std::optional<Goodput> goodput;
    QList<AdviceEvidence> evidence;
    double tookSeconds = 0.0;
    // beta1, beta2 and eps at the recommendation, for an optimizer with moments (Adam, AdamW, ...):
    // betasRule "sde" (scaled from the base's by Malladi et al.'s rule), "none" (the base's kept:
    // the rule does not apply, a caution says why), empty for an optimizer without them (SGD).
    QString betasRule;
    double beta1 = 0.0, beta2 = 0.0, eps = 0.0;
    // For the snippet: the user's settings with the answer put in.
    ddplab::Config recommended;
    QString snippet;                // the PyTorch script for torchrun (pytorch_script.hpp)

    // The LR is the middle of the rungs within noise of the lowest mean, not the lowest mean's own.
    bool lrIsMiddleOfNoise() const { return lowestMeanLr > 0 && lr > 0 && std::abs(lowestMeanLr / lr - 1.0) > 1e-6; }

    QJsonObject toJson() const;
    QString toMarkdown() const;
    // advice.json read back (a stored advice reopened); nullopt with `error` when it is not one.
    static std::optional<Advice> fromJson(const QJsonObject& json, QString* error);
};

// The recommendation as lab settings and the torchrun script: `base` (the user's settings) with
// the answer in `a` put in (GPUs, batch per GPU, LR, the warmup arm's warmup when it helped). For
// an optimizer with moments, beta1, beta2 and eps follow the batch by the SDE rule (Malladi et al.
// 2022; engine/core/derived.hpp's appliedAdamSettings under lr_rule sde) at k = a's effective
// batch / the base's: 1 - beta -> k (1 - beta), eps -> eps / sqrt(k), from the base's applied
// values; where the engine refuses the rule (not Adam or AdamW, or k at or past 1 / (1 - beta)) the
// base's are kept. Fills a.recommended, a.betasRule, a.beta1/beta2/eps and a.snippet, and adds a
// caution saying which was done.
void putRecommendation(Advice& a, const ddplab::Config& base);

// Whether the batch per GPU was chosen by speed, in words: the goodput verdict with where it was
// timed, or why the times do not transfer.
QString speedWords(const Advice& advice);

// The critical batch's readings side by side in words: the branch test's, McCandlish's fit (and
// why it cannot be trusted, when it cannot) and the simple noise scale.
QString criticalBatchWords(const Advice& advice);

}  // namespace ddplab::ui
