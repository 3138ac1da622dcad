// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `ddplab-engine devices` reported about the machine the engine runs on, and the limits
// the parameter panel draws from it (the same ones the engine checks: core/limits.hpp and the
// machine's cores and memory).

#include "core/config_validate.hpp"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class DeviceInventory {
public:
    DeviceInventory() = default;
    static DeviceInventory fromJson(const QJsonObject& devices);

    bool isKnown() const { return m_known; }
    QString engineVersion() const { return m_engineVersion; }
    QString torchVersion() const { return m_torchVersion; }
    int protocolVersion() const { return m_protocol; }
    int cpuCores() const { return m_cpuCores; }
    int cudaDeviceCount() const { return m_gpuNames.size(); }
    // The memory of the machine's smallest GPU (0: no GPU, or its memory not reported), and
    // what the machine had available for all ranks (0: not reported).
    qint64 smallestGpuMemoryBytes() const { return m_smallestGpuMemoryBytes; }
    QString smallestGpuName() const { return m_smallestGpuName; }
    qint64 memoryAvailableBytes() const { return m_memoryAvailableBytes; }
    // What the engine's own machine checks use: its cores and available memory.
    ddplab::MachineResources machine() const;

    // The most ranks a run on `device` ("cpu" or "cuda") may ask for on this machine.
    int maxRanks(const QString& device) const;
    // One line for the panel and the status bar: what ranks are here.
    QString rankDescription() const;
    // Short, for the status bar: "CPU only, 2 cores" or "2 x NVIDIA H100".
    QString shortDescription() const;

private:
    bool m_known = false;
    QString m_engineVersion;
    QString m_torchVersion;
    int m_protocol = 0;
    int m_cpuCores = 0;
    qint64 m_memoryAvailableBytes = 0;
    int m_maxLocalRanks = 0;
    QStringList m_gpuNames;
    qint64 m_smallestGpuMemoryBytes = 0;
    QString m_smallestGpuName;
};

}  // namespace ddplab::ui
