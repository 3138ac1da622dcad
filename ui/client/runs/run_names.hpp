// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Names that tell apart every run shown together (legends, read-outs, CSV files): each run's
// own label, and where runs share one, what differs between their settings ("… · epochs 3"),
// or their order when nothing does.

#include <QList>
#include <QStringList>

namespace ddplab::ui {

class RunData;

QStringList distinguishingLabels(const QList<const RunData*>& runs);

}  // namespace ddplab::ui
