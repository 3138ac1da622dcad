#pragma once
// The advisor's answer (docs/advisor.md): the batch per GPU, accumulation, LR and rule for the
// user's model on N GPUs, with the evidence it rests on. Written as advice.json and advice.md.

#include "core/config.hpp"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

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
};

struct Advice {
    // The answer.
    int gpus = 0;
    qint64 batchPerGpu = 0;
    qint64 gradAccum = 1;
    qint64 effectiveBatch = 0;
    double lr = 0.0;
    QString lrRule;                 // "linear", "sqrt", "none" or "measured"
    double lrExponent = 0.0;        // NaN when not measured
    double lrExponentLow = 0.0, lrExponentHigh = 0.0;
    qint64 warmupSteps = 0;
    QList<QPointF> noiseScale;      // (samples, B_simple) as the base run went
    double criticalBatch = 0.0;
    bool criticalBatchBeyond = false;  // every branch stayed within tolerance
    double branchTolerance = 0.0;
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
    QStringList cautions;
    QStringList trimmed;            // what the plan cut to fit the budget
    bool dontScale = false;         // N x the base's batch is past the critical batch
    QList<AdviceEvidence> evidence;
    double tookSeconds = 0.0;
    // For the snippet: the user's settings with the answer put in.
    ddplab::Config recommended;
    QString snippet;                // the PyTorch script for torchrun (pytorch_script.hpp)

    QJsonObject toJson() const;
    QString toMarkdown() const;
};

}  // namespace ddplab::ui
