// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_chart_view.hpp"

#include <QPainter>

namespace ddplab::ui {

StudyChartView::StudyChartView(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void StudyChartView::show(Paint paint, const QString& toolTip)
{
    m_paint = std::move(paint);
    setToolTip(toolTip);
    update();
}

void StudyChartView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    if (m_paint)
        m_paint(painter, rect(), palette());
    else
        painter.fillRect(rect(), palette().color(QPalette::Base));
}

}  // namespace ddplab::ui
