#pragma once
// What `ddplab-engine devices` reported, and the limits the parameter panel draws from it.

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class DeviceInventory {
public:
    // Without GPUs, ranks are CPU processes: more than this teaches nothing a 2-core box can show.
    static constexpr int kMaxCpuRanks = 16;

    DeviceInventory() = default;
    static DeviceInventory fromJson(const QJsonObject& devices);

    bool isKnown() const { return m_known; }
    QString engineVersion() const { return m_engineVersion; }
    QString torchVersion() const { return m_torchVersion; }
    int cpuCores() const { return m_cpuCores; }
    int cudaDeviceCount() const { return m_gpuNames.size(); }

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
    int m_cpuCores = 0;
    int m_maxLocalRanks = 128;
    QStringList m_gpuNames;
};

}  // namespace ddplab::ui
