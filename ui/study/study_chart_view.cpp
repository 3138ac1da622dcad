// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_chart_view.hpp"

#include <QPainter>

#include <algorithm>

namespace ddplab::ui {

StudyChartView::StudyChartView(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
}

QSize StudyChartView::minimumSizeHint() const
{
    // Room for the axes' numbers and titles at the font there is: in presentation mode a fixed
    // 260 px cut the x title ("ctive batch (") once the results' choosers no longer held the
    // column wider.
    constexpr int kLeastCharacters = 38;
    return {std::max(260, kLeastCharacters * fontMetrics().averageCharWidth()), 200};
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
