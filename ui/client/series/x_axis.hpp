// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the charts' x axis counts. A run logs by optimizer step, but runs of unlike batches are
// compared by how far they have come: a 2 x 32 run takes half the steps of a 1 x 32 run for
// the same epochs, and the linear rule's promise (1 x 128 against 8 x 16 at 8x the LR) shows
// only per sample seen.

#include <QList>
#include <QString>

#include <optional>

namespace ddplab::ui {

enum class XAxis {
    Step,         // optimizer steps
    Epoch,        // step / steps_per_epoch (fractional)
    SamplesSeen,  // running sum of `samples` over all ranks
    WallTime,     // seconds since the run's first step
};

QList<XAxis> allXAxes();
QString xAxisTitle(XAxis axis);     // "optimizer step", "epoch", "samples seen", "wall time (s)"
QString xAxisName(XAxis axis);      // "step", "epoch", "samples_seen", "wall_s": settings and CSV columns
std::optional<XAxis> xAxisFromName(const QString& name);
// Whether its values are whole numbers (ticks and read-outs without decimals).
bool xAxisIsWhole(XAxis axis);

}  // namespace ddplab::ui
