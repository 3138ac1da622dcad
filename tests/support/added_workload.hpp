// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The row of a workload the lab does not have, added by the suites that prove a workload is
// one entry plus its code (docs/architecture.md, "Adding a workload"): "mean", the mean of
// mean_points numbers around mean_target. Its code, and its maker registered with the row, are
// tests/engine/tst_added_workload.cpp's; tests/ui/tst_added_workload_script adds the row alone.

#include "core/derived.hpp"
#include "core/workload_table.hpp"

#include <string>

namespace ddplab::added_workload {

inline constexpr char kName[] = "mean";
inline constexpr char kPoints[] = "mean_points";
inline constexpr char kTarget[] = "mean_target";

inline WorkloadTraits meanRow()
{
    WorkloadTraits row{};
    row.name = kName;
    row.sizeKey = kPoints;
    row.validation = WorkloadTraits::Validation::None;
    row.classes = WorkloadTraits::Classes::Never;
    row.setupLabel = "mean: the mean of numbers (a test's)";
    row.helpPhrase = "the mean of some numbers";
    row.wholeTrainingSet = [](const Config& c) { return int64_t(workloadValue(c, kPoints)); };
    row.modelWords = [](const Config&) { return std::string("one weight"); };
    row.dataWords = [](const Config& c) { return std::to_string(datasetSize(c)) + " numbers"; };
    row.rankDataBytes = [](const Config& c) { return double(datasetSize(c)) * 4; };
    row.keys = {{kPoints, true, 2, 1'000'000, 64, "numbers whose mean the weight learns", "Numbers"},
                {kTarget, false, -1000, 1000, 3, "their mean", "Their mean"}};
    return row;
}

}  // namespace ddplab::added_workload
