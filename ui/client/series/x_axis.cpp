// SPDX-License-Identifier: GPL-3.0-or-later
#include "x_axis.hpp"

#include <QObject>

namespace ddplab::ui {

QList<XAxis> allXAxes()
{
    return {XAxis::Step, XAxis::Epoch, XAxis::SamplesSeen, XAxis::WallTime};
}

QString xAxisTitle(XAxis axis)
{
    switch (axis) {
    case XAxis::Step: return QObject::tr("optimizer step");
    case XAxis::Epoch: return QObject::tr("epoch");
    case XAxis::SamplesSeen: return QObject::tr("samples seen");
    case XAxis::WallTime: return QObject::tr("wall time (s)");
    }
    return QString();
}

QString xAxisName(XAxis axis)
{
    switch (axis) {
    case XAxis::Step: return QStringLiteral("step");
    case XAxis::Epoch: return QStringLiteral("epoch");
    case XAxis::SamplesSeen: return QStringLiteral("samples_seen");
    case XAxis::WallTime: return QStringLiteral("wall_s");
    }
    return QString();
}

std::optional<XAxis> xAxisFromName(const QString& name)
{
    for (XAxis axis : allXAxes()) {
        if (xAxisName(axis) == name)
            return axis;
    }
    return std::nullopt;
}

bool xAxisIsWhole(XAxis axis)
{
    return axis == XAxis::Step || axis == XAxis::SamplesSeen;
}

}  // namespace ddplab::ui
