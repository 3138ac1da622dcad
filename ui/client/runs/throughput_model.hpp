// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model of N GPUs' throughput, for a lesson about speed on a computer that has none (issue 43):
// each GPU computes its batch at the compute speed one rank measured here, with no other rank
// beside it, and the gradients go round a ring all-reduce, which sends 2 (n - 1) / n of the
// gradient's bytes through every link, at a stated bandwidth:
//     samples/s = n b / (b c + 2 (n - 1) / n * bytes / bandwidth)
// with c the measured compute seconds per sample. It leaves out what overlap hides and what a
// real network adds (latency, contention): a model, drawn beside what this computer measured and
// labelled as one.

#include <QString>

#include <cmath>
#include <optional>

namespace ddplab::ui {

class RunData;

struct ThroughputModel {
    double bandwidthBytesPerSecond = 0.0;  // one link of the ring, each way
    QString link;                          // what it stands for: "PCIe 4.0 between GPUs"
    QString bandwidthText() const;         // "10 GB/s"
};

// Seconds a ring all-reduce of `bytes` takes between `ranks` (0 for one).
double ringAllReduceSeconds(int ranks, double bytes, double bandwidthBytesPerSecond);
double modelledSamplesPerSecond(int ranks, int batchPerRank, double computeSecondsPerSample, double gradientBytes,
                                double bandwidthBytesPerSecond);
// A run's forward and backward seconds per sample on one rank: its median step's compute_ms over
// its batch per rank; NaN before it has a step.
double computeSecondsPerSample(const RunData& run);
// Its gradient's bytes: its parameters as 32-bit floats (the config event's parameter_count).
double gradientBytes(const RunData& run);

}  // namespace ddplab::ui
