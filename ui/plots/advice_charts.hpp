// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The advisor's evidence as study-style charts (ui/study/study_plot: the same paint for the
// screen, PNG and SVG): the measure against the LR at the recommended batch (the confirmation
// runs, each seed a line, the warmup arm beside them, the safe range shaded), the branch test's
// best measure against the batch (the critical batch marked), the best LR against the batch with
// the linear and square-root rules, the steps to a target against the batch with McCandlish's
// fit, the noise scale over the base run's samples (when it was measured) and the range tests'
// smoothed loss against the LR, one curve per batch, and goodput against the batch per GPU (when
// the batches were timed on the Run-on host).

#include "plots/study_plot.hpp"

#include <QList>
#include <QPointF>

namespace ddplab::ui {

struct Advice;
class RunData;

// The range test's smoothed loss against the LR, from its run's `range_test` event; empty when
// the run has none.
QList<QPointF> rangeTestCurve(const RunData& run);

// The charts for `advice`, in the order above. The range tests come from advice.json; an advice
// from before it kept them draws `rangeCurve`, rangeTestCurve of its range test run (empty: the
// chart says the run could not be read). The noise-scale chart is left out when the base run
// measured none.
QList<PlotSpec> adviceCharts(const Advice& advice, const QList<QPointF>& rangeCurve);

}  // namespace ddplab::ui
