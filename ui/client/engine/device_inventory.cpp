// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_inventory.hpp"

#include "client/wire.hpp"
#include "core/limits.hpp"

#include <QJsonArray>

#include <algorithm>

namespace ddplab::ui {

DeviceInventory DeviceInventory::fromJson(const QJsonObject& devices)
{
    DeviceInventory inventory;
    inventory.m_known = true;
    namespace report = ddplab::protocol::devices;
    inventory.m_engineVersion = devices.value(wire(report::kEngineVersion)).toString();
    inventory.m_torchVersion = devices.value(wire(report::kTorchVersion)).toString();
    inventory.m_protocol = devices.value(wire(report::kProtocol)).toInt();
    inventory.m_cpuCores = devices.value(wire(report::kCpuCores)).toInt();
    inventory.m_memoryAvailableBytes = devices.value(wire(report::kMemoryAvailableBytes)).toInteger();
    inventory.m_maxLocalRanks = devices.value(wire(report::kMaxLocalRanks)).toInt(int(limits::kMaxRanks));
    const QJsonArray gpus = devices.value(wire(report::kCudaDevices)).toArray();
    for (const QJsonValue& gpu : gpus) {
        const QJsonObject object = gpu.toObject();
        const QString name = object.value(wire(report::kName)).toString();
        inventory.m_gpuNames.append(name.isEmpty() ? QStringLiteral("GPU %1").arg(object.value(wire(report::kIndex)).toInt())
                                                   : name);
        const qint64 memory = object.value(wire(report::kMemoryMib)).toInteger() * (qint64(1) << 20);
        if (memory > 0 && (inventory.m_smallestGpuMemoryBytes == 0 || memory < inventory.m_smallestGpuMemoryBytes)) {
            inventory.m_smallestGpuMemoryBytes = memory;
            inventory.m_smallestGpuName = inventory.m_gpuNames.last();
        }
    }
    return inventory;
}

ddplab::MachineResources DeviceInventory::machine() const
{
    MachineResources machine;
    machine.cpuCores = m_cpuCores;
    machine.memoryAvailableBytes = m_memoryAvailableBytes;
    return machine;
}

int DeviceInventory::maxRanks(const QString& device) const
{
    if (device == wire(choice::device::kCuda))
        return std::min<int>(m_gpuNames.size(), m_maxLocalRanks);
    return m_maxLocalRanks;
}

QString DeviceInventory::rankDescription() const
{
    if (!m_known)
        return QStringLiteral("Asking the engine which devices this machine has…");
    if (m_gpuNames.isEmpty()) {
        return QStringLiteral("No GPU here: ranks run as CPU processes over Gloo (same mathematics, slower). "
                              "Up to %1 ranks; %2 cores share them.")
            .arg(maxRanks(wire(choice::device::kCpu)))
            .arg(m_cpuCores);
    }
    return QStringLiteral("%1 GPU%2 (%3): device cuda gives each rank its own GPU over NCCL, up to %4 ranks; "
                          "device cpu runs up to %5 CPU ranks over Gloo.")
        .arg(m_gpuNames.size())
        .arg(m_gpuNames.size() == 1 ? QString() : QStringLiteral("s"))
        .arg(m_gpuNames.join(QStringLiteral(", ")))
        .arg(maxRanks(wire(choice::device::kCuda)))
        .arg(maxRanks(wire(choice::device::kCpu)));
}

QString DeviceInventory::shortDescription() const
{
    if (!m_known)
        return QStringLiteral("devices unknown");
    if (m_gpuNames.isEmpty())
        return QStringLiteral("CPU only, %1 cores").arg(m_cpuCores);
    return QStringLiteral("%1 × %2").arg(m_gpuNames.size()).arg(m_gpuNames.first());
}

}  // namespace ddplab::ui
