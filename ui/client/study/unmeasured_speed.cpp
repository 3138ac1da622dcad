// SPDX-License-Identifier: GPL-3.0-or-later
#include "unmeasured_speed.hpp"

#include <QByteArray>
#include <QFile>
#include <QList>

#include <algorithm>

namespace ddplab::ui {
namespace {

constexpr int kConstantsCores = 2;

// What share of a core a process gets beside `load` runnable threads on `cores`: all of one
// while there are cores to spare, else the cores shared among them and it.
double coreShare(double load, int cores)
{
    return std::min(1.0, double(std::max(cores, 1)) / (std::max(load, 0.0) + 1.0));
}

}  // namespace

double unmeasuredFactor(double load, int cores)
{
    return coreShare(kConstantsLoad, kConstantsCores) / coreShare(load, cores);
}

double machineLoadNow()
{
    bool ok = false;
    const double pinned = qEnvironmentVariable("DDPLAB_MACHINE_LOAD").toDouble(&ok);
    if (ok && pinned >= 0)
        return pinned;
    QFile file(QStringLiteral("/proc/loadavg"));
    if (!file.open(QIODevice::ReadOnly))
        return kConstantsLoad;
    const QList<QByteArray> fields = file.read(256).split(' ');
    const double load = fields.value(0).toDouble(&ok);
    return ok && load >= 0 ? load : kConstantsLoad;
}

}  // namespace ddplab::ui
