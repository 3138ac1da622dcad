// SPDX-License-Identifier: GPL-3.0-or-later
#include "batch_memory.hpp"

#include "client/engine/device_inventory.hpp"
#include "client/engine/model_inspection.hpp"
#include "core/derived.hpp"
#include "core/host_memory.hpp"
#include "core/workload_table.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

constexpr qint64 kSlopeBatch = 4096;  // where the engine's estimate is linear in the batch for every built-in workload

QString gib(double bytes)
{
    return QString::number(bytes / double(qint64(1) << 30), 'f', 1) + QStringLiteral(" GiB");
}

QString bytesText(double bytes)
{
    if (bytes >= double(1 << 20))
        return QString::number(bytes / double(1 << 20), 'f', 1) + QStringLiteral(" MiB");
    if (bytes >= 1024.0)
        return QString::number(bytes / 1024.0, 'f', 1) + QStringLiteral(" KiB");
    return QString::number(bytes, 'g', 3) + QStringLiteral(" bytes");
}

}  // namespace

BatchMemory batchMemoryOf(const ddplab::Config& base, const ModelInspection* inspection)
{
    BatchMemory need;
    if (traitsOf(base).ownModel) {
        if (inspection && inspection->stepBytes > 0 && inspection->stepSamples > 0) {
            need.fixedBytes = double(inspection->fixedBytes);
            need.bytesPerSample = double(inspection->stepBytes) / double(inspection->stepSamples);
            need.from = QStringLiteral("inspect's measured training step on your model over its first %1 samples").arg(inspection->stepSamples);
        }
        return need;
    }
    // The engine's estimate is linear in the batch past its evaluation's chunk (the CNN's 250
    // images): its slope there is the memory per sample.
    ddplab::Config one = base;
    one.batchSize = kSlopeBatch;
    ddplab::Config two = base;
    two.batchSize = 2 * kSlopeBatch;
    const double atOne = double(estimatedRankBytes(one));
    need.bytesPerSample = (double(estimatedRankBytes(two)) - atOne) / double(kSlopeBatch);
    need.fixedBytes = atOne - need.bytesPerSample * double(kSlopeBatch);
    need.from = QStringLiteral("the engine's estimate of a rank's memory for this workload");
    return need;
}

GpuMemory memoryPerGpu(const ddplab::Config& base, const DeviceInventory& runOn, int ranks)
{
    GpuMemory memory;
    if (base.device == DeviceKind::Cuda && runOn.isKnown() && runOn.smallestGpuMemoryBytes() > 0) {
        memory.bytes = double(runOn.smallestGpuMemoryBytes());
        memory.from = QStringLiteral("the Run-on host's %1 (%2)").arg(runOn.smallestGpuName(), gib(memory.bytes));
        return memory;
    }
    ranks = std::max(1, ranks);
    if (runOn.isKnown() && runOn.memoryAvailableBytes() > 0) {
        memory.bytes = double(runOn.memoryAvailableBytes()) / ranks;
        memory.from = QStringLiteral("the Run-on host's available memory (%1) over %2 ranks").arg(gib(double(runOn.memoryAvailableBytes()))).arg(ranks);
    } else if (const qint64 available = hostMemory().availableBytes; available > 0) {
        memory.bytes = double(available) / ranks;
        memory.from = QStringLiteral("this computer's available memory (%1) over %2 ranks").arg(gib(double(available))).arg(ranks);
    }
    return memory;
}

qint64 trainingSamplesPerGpu(const ddplab::Config& base, int gpus)
{
    if (traitsOf(base).ownModel && base.trainSamples <= 0)
        return 0;
    return datasetSize(base) / std::max(1, gpus);
}

MostBatch mostBatchPerGpu(const BatchMemory& need, const GpuMemory& memory, qint64 baseBatchPerGpu, qint64 samplesPerGpu)
{
    MostBatch most;
    most.batch = baseBatchPerGpu;
    if (!(need.bytesPerSample > 0) || !(memory.bytes > 0)) {
        most.source = need.bytesPerSample > 0 ? QStringLiteral("your batch per GPU: the memory of a GPU is not known")
                                              : QStringLiteral("your batch per GPU: the memory a sample takes is not known until inspect has run on your model");
        most.brief = need.bytesPerSample > 0 ? QStringLiteral("yours, a GPU's memory not known") : QStringLiteral("yours, until inspect has measured your model");
        return most;
    }
    const double fits = std::floor((memory.bytes - need.fixedBytes) / need.bytesPerSample);
    qint64 power = 1;  // what memory holds, as a power of two
    while (power * 2 <= kLargestBatchPerGpu && double(power * 2) <= fits)
        power *= 2;
    const bool fitsAny = fits >= 1.0;
    const QString arithmetic = QStringLiteral("%1 less %2 a rank holds whatever its batch, at %3 a sample by %4")
                                   .arg(gib(memory.bytes), gib(need.fixedBytes), bytesText(need.bytesPerSample), need.from);
    if (!fitsAny || power < baseBatchPerGpu) {
        most.source = QStringLiteral("your batch per GPU, kept as it trains for you, though %1 holds fewer (%2)").arg(memory.from, arithmetic);
        most.brief = QStringLiteral("yours, though %1 holds fewer").arg(memory.from);
        return most;
    }
    qint64 dataPower = 1;  // the training set over the GPUs, as a power of two
    while (samplesPerGpu > 0 && dataPower * 2 <= samplesPerGpu)
        dataPower *= 2;
    if (samplesPerGpu > 0 && dataPower < power) {
        // Memory would hold more, but the data set decides: a batch past it is less than a step an epoch.
        most.batch = std::max(baseBatchPerGpu, dataPower);
        most.brief = QStringLiteral("the training set over your GPUs (memory holds more)");
        most.source = QStringLiteral("%1 samples per GPU: the training set's %2 samples per GPU, rounded down to a power of two (a "
                                     "larger batch would make less than one step an epoch); memory holds more: %3")
                              .arg(most.batch)
                              .arg(samplesPerGpu)
                              .arg(arithmetic);
        return most;
    }
    most.batch = power;
    most.brief = QStringLiteral("what fits in %1").arg(memory.from);
    most.source = QStringLiteral("%1 samples per GPU fit in %2 (%3), rounded down to a power of two%4")
                          .arg(most.batch)
                          .arg(memory.from, arithmetic, power == kLargestBatchPerGpu ? QStringLiteral(" and at most 2^20") : QString());
    return most;
}

}  // namespace ddplab::ui
