// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Goodput (Pollux, Qiao et al. OSDI 2021): which batch per GPU reaches the same quality soonest,
// from samples/s measured where the runs will happen and the statistical efficiency of the
// effective batch B against the base's B0,
//   E(B) = (phi + B0) / (phi + B),   goodput = throughput x E,
// phi the gradient noise scale: a batch B needs 1/E times the samples B0 needs for the same
// progress, so goodput is the rate at which B0-equivalent samples are trained. Only samples/s
// from the Run-on host count (issue 28 §3i): this computer's CPU says nothing about a GPU's.
// Pure arithmetic, tested on numbers with a known answer (tst_advisor_goodput).

#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QString>

#include <optional>

namespace ddplab::ui {

struct GoodputPoint {
    qint64 batchPerGpu = 0;
    double samplesPerSecondPerGpu = 0.0;  // measured on the host
    double effectiveBatch = 0.0;          // N x the batch per GPU
    double throughput = 0.0;              // N GPUs: N x per GPU
    double efficiency = 0.0;              // (phi + B0) / (phi + B)
    double goodput = 0.0;                 // throughput x efficiency
};

struct Goodput {
    bool chosen = false;         // the batch per GPU was chosen by it
    QString timedOn;             // where the samples/s were measured: "gpu1, cuda"
    double noiseScale = 0.0;     // phi
    QString noiseScaleFrom;      // which measurement gave phi, in words
    double baseBatch = 0.0;      // B0, effective
    QList<GoodputPoint> points;  // by batch per GPU, ascending
    qint64 bestBatchPerGpu = 0;
    QString verdict;             // in words: the choice with its numbers, or why there was none
};

// The batches per GPU worth timing for N GPUs: `largest` (the most the branch test allows),
// halved while N x b stays at or above the base's effective batch (the branch test measured no
// smaller), at most `most` of them, ascending.
QList<qint64> goodputCandidates(qint64 largest, int gpus, qint64 baseBatch, int most);

// Each candidate's efficiency and goodput at N GPUs, and the one with the most goodput; a point
// without a positive samples/s is left out. `chosen` is false (the verdict says why) with fewer
// than two timed batches or no positive noise scale.
Goodput goodputOf(const QList<GoodputPoint>& timed, int gpus, double baseBatch, double noiseScale);

// The median samples/s of a run's steps after its first `warmupSteps` (start-up, first-touch
// allocation and the allocator's growth are no part of the steady pace); 0 with none.
double steadySamplesPerSecond(const QList<QPointF>& perStep, int warmupSteps);

// The least noise scale the branch test allows: it measured every batch up to `criticalBatch`
// within `tolerance` (relative) of the base batch B0's loss at equal samples, so the efficiency
// there is at least 1 / (1 + tolerance), which Pollux's model gives only for
// phi >= (criticalBatch - (1 + tolerance) B0) / tolerance. 0 when it bounds nothing.
double noiseScaleFloor(double criticalBatch, double tolerance, double baseBatch);

QJsonObject goodputJson(const Goodput& goodput);
// advice.json's `goodput` read back; nullopt when the advice has none (not measured).
std::optional<Goodput> goodputFromJson(const QJsonValue& value);

}  // namespace ddplab::ui
