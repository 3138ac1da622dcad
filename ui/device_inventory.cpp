#include "device_inventory.hpp"

#include <QJsonArray>

#include <algorithm>

namespace ddplab::ui {

DeviceInventory DeviceInventory::fromJson(const QJsonObject& devices)
{
    DeviceInventory inventory;
    inventory.m_known = true;
    inventory.m_engineVersion = devices.value(QStringLiteral("engine_version")).toString();
    inventory.m_torchVersion = devices.value(QStringLiteral("torch_version")).toString();
    inventory.m_cpuCores = devices.value(QStringLiteral("cpu_cores")).toInt();
    inventory.m_maxLocalRanks = devices.value(QStringLiteral("max_local_ranks")).toInt(128);
    const QJsonArray gpus = devices.value(QStringLiteral("cuda_devices")).toArray();
    for (const QJsonValue& gpu : gpus) {
        const QJsonObject object = gpu.toObject();
        const QString name = object.value(QStringLiteral("name")).toString();
        inventory.m_gpuNames.append(name.isEmpty() ? QStringLiteral("GPU %1").arg(object.value(QStringLiteral("index")).toInt())
                                                   : name);
    }
    return inventory;
}

int DeviceInventory::maxRanks(const QString& device) const
{
    if (device == QStringLiteral("cuda"))
        return std::min<int>(m_gpuNames.size(), m_maxLocalRanks);
    return std::min(kMaxCpuRanks, m_maxLocalRanks);
}

QString DeviceInventory::rankDescription() const
{
    if (!m_known)
        return QStringLiteral("Asking the engine which devices this machine has…");
    if (m_gpuNames.isEmpty()) {
        return QStringLiteral("No GPU here: ranks run as CPU processes over Gloo (same mathematics, slower). "
                              "Up to %1 ranks.")
            .arg(maxRanks(QStringLiteral("cpu")));
    }
    return QStringLiteral("%1 GPU%2 (%3): device cuda gives each rank its own GPU over NCCL, up to %4 ranks; "
                          "device cpu runs up to %5 CPU ranks over Gloo.")
        .arg(m_gpuNames.size())
        .arg(m_gpuNames.size() == 1 ? QString() : QStringLiteral("s"))
        .arg(m_gpuNames.join(QStringLiteral(", ")))
        .arg(maxRanks(QStringLiteral("cuda")))
        .arg(maxRanks(QStringLiteral("cpu")));
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
