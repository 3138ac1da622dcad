// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_frame.hpp"

#include "theme/palette.hpp"

#include <QPainter>
#include <QPalette>

#include <algorithm>

namespace ddplab::ui {

ChartFrame beginChart(QPainter& painter, const QRect& area, double scale, const QPalette* palette)
{
    QFont base = painter.font();
    base.setPointSizeF(std::max(base.pointSizeF(), 10.0) * scale);
    QFont title = base;
    title.setBold(true);
    QFont small = base;
    small.setPointSizeF(base.pointSizeF() * 0.85);
    const ChartFrame frame{palette ? palette->color(QPalette::Base) : QColor(kPaperRgb),
                           palette ? palette->color(QPalette::Text) : QColor(kInkRgb),
                           base,
                           title,
                           small,
                           QFontMetricsF(title),
                           QFontMetricsF(small),
                           8 * scale};
    painter.fillRect(area, frame.background);
    return frame;
}

double drawHeading(QPainter& painter, const QRect& area, const ChartFrame& frame, const QString& title, const QString& subtitle)
{
    const double pad = frame.pad;
    double top = area.top() + pad;
    painter.setPen(frame.text);
    painter.setFont(frame.title);
    painter.drawText(QRectF(area.left() + pad, top, area.width() - 2 * pad, frame.titleMetrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
                     frame.titleMetrics.elidedText(title, Qt::ElideRight, area.width() - 2 * pad));
    top += frame.titleMetrics.height();
    painter.setFont(frame.small);
    if (!subtitle.isEmpty()) {
        const QRectF box(area.left() + pad, top, area.width() - 2 * pad, frame.smallMetrics.height() * 2.2);
        const QRectF used = painter.boundingRect(box, Qt::TextWordWrap, subtitle);
        painter.drawText(box, Qt::TextWordWrap, subtitle);
        top += std::min(used.height(), box.height()) + pad / 2;
    }
    return top;
}

}  // namespace ddplab::ui
