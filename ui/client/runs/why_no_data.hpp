// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Why a chart or a metric has no data for a run, in words a newcomer understands, read from
// the run's settings: the charts' empty notes, the Compare table's empty cells and the
// exports' notes all ask here.

#include "client/series/chart_catalog.hpp"

#include <QString>

namespace ddplab::ui {

class RunData;

// Why a run has none of a chart's figures, in words a newcomer understands ("noise scale
// needs 2 ranks or more"); "" when it has them or may still get them.
QString whyNoData(const ChartDefinition& chart, const RunData& run);
// The same for one metric (the Compare table's cells).
QString whyNoMetric(const QString& metric, const RunData& run);
// Why a figure the run has is not drawn for it ("" when it is): the update-variance estimate's
// formula holds for SGD only, so a run of Adam (or any other optimizer) shows the measured
// variance alone.
QString whyNotDrawn(const QString& metric, const RunData& run);

}  // namespace ddplab::ui
