// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_readout.hpp"

#include <QObject>

namespace ddplab::ui {

QString xValueText(double x, XAxis axis)
{
    switch (axis) {
    case XAxis::Step: return QObject::tr("step %L1").arg(qRound64(x));
    case XAxis::Epoch: return QObject::tr("epoch %1").arg(x, 0, 'f', 2);
    case XAxis::SamplesSeen: return QObject::tr("%L1 samples").arg(qRound64(x));
    case XAxis::WallTime: return QObject::tr("%1 s").arg(x, 0, 'f', 1);
    }
    return QString::number(x);
}

QList<ReadoutLine> placedReadout(QList<ReadoutLine> lines, double x, XAxis axis)
{
    // A value from a point off the pointer's place says where it is.
    const QString hovered = xValueText(x, axis);
    for (ReadoutLine& line : lines) {
        if (xValueText(line.x, axis) != hovered)
            line.value += QObject::tr(" at %1").arg(xValueText(line.x, axis));
    }
    return lines;
}

}  // namespace ddplab::ui
