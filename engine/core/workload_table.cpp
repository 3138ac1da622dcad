// SPDX-License-Identifier: GPL-3.0-or-later
#include "workload_table.hpp"

#include "key_names.hpp"

#include <stdexcept>

namespace ddplab {

const std::vector<WorkloadTraits>& workloadTable()
{
    static const std::vector<WorkloadTraits> kTable = {
        // kind                      name                            vectorised runsNetwork ownModel sizeKey
        {WorkloadKind::Toy,          choice::workload::kToy,          true,      false,      false,   key::kNumExamples},
        {WorkloadKind::Linreg,       choice::workload::kLinreg,       true,      false,      false,   key::kNumExamples},
        {WorkloadKind::FashionMnist, choice::workload::kFashionMnist, false,     true,       false,   key::kTrainSubset},
        {WorkloadKind::TorchScript,  choice::workload::kTorchScript,  false,     true,       true,    key::kTrainData},
    };
    return kTable;
}

const WorkloadTraits& traitsOf(WorkloadKind kind)
{
    for (const WorkloadTraits& row : workloadTable()) {
        if (row.kind == kind)
            return row;
    }
    throw std::logic_error("a workload without a row in workload_table.cpp");  // a programming error, never input
}

}  // namespace ddplab
