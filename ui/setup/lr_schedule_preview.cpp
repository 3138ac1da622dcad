// SPDX-License-Identifier: GPL-3.0-or-later
#include "lr_schedule_preview.hpp"

#include "core/derived.hpp"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace ddplab::ui {

LrSchedulePreview::LrSchedulePreview(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize LrSchedulePreview::sizeHint() const
{
    return QSize(280, fontMetrics().height() * 7);
}

QSize LrSchedulePreview::minimumSizeHint() const
{
    return QSize(160, fontMetrics().height() * 7);
}

void LrSchedulePreview::clear()
{
    m_samples.clear();
    m_totalSteps = 0;
    update();
}

void LrSchedulePreview::setConfig(const Config& config)
{
    m_samples.clear();
    m_totalSteps = qint64(totalSteps(config));
    m_warmupSteps = std::min<qint64>(warmupStepCount(config), m_totalSteps);
    if (m_totalSteps <= 0) {
        update();
        return;
    }
    QList<qint64> steps;
    const qint64 count = std::min<qint64>(m_totalSteps, kMaxSamples);
    for (qint64 i = 0; i < count; ++i)
        steps.append(count == 1 ? 0 : qint64(double(i) * double(m_totalSteps - 1) / double(count - 1) + 0.5));
    // The corners of the warmup ramp are drawn exactly, whatever the sampling.
    for (const qint64 corner : {m_warmupSteps - 1, m_warmupSteps}) {
        if (corner >= 0 && corner < m_totalSteps)
            steps.append(corner);
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    for (const qint64 step : steps)
        m_samples.append(QPointF(double(step), learningRateAt(config, step)));
    update();
}

void LrSchedulePreview::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics = fontMetrics();
    const QRectF frame = QRectF(rect()).adjusted(1, 1, -1, -1);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.setBrush(palette().color(QPalette::Base));
    painter.drawRoundedRect(frame, 4, 4);
    if (m_samples.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(frame, Qt::AlignCenter, tr("no schedule to show"));
        return;
    }
    double lrMax = 0;
    for (const QPointF& sample : m_samples)
        lrMax = std::max(lrMax, sample.y());
    if (lrMax <= 0)
        lrMax = 1;
    const QString topLabel = QString::number(lrMax, 'g', 3);
    const double left = frame.left() + metrics.horizontalAdvance(topLabel) + 10;
    const QRectF plot(left, frame.top() + metrics.height() * 0.6, frame.right() - left - 8,
                      frame.height() - metrics.height() * 2.1);
    const double lastStep = std::max<double>(1.0, double(m_totalSteps - 1));
    const auto toPixel = [&](double step, double lr) {
        return QPointF(plot.left() + plot.width() * step / lastStep, plot.bottom() - plot.height() * lr / lrMax);
    };

    if (m_warmupSteps > 0) {
        QColor shade = palette().color(QPalette::Highlight);
        shade.setAlpha(40);
        const double warmupEnd = toPixel(double(m_warmupSteps), 0).x();
        painter.fillRect(QRectF(plot.left(), plot.top(), warmupEnd - plot.left(), plot.height()), shade);
    }
    // The LR holds for a whole step: draw it as steps, not a slope.
    QPainterPath path(toPixel(m_samples.first().x(), m_samples.first().y()));
    for (qsizetype i = 1; i < m_samples.size(); ++i) {
        path.lineTo(toPixel(m_samples.at(i).x(), m_samples.at(i - 1).y()));
        path.lineTo(toPixel(m_samples.at(i).x(), m_samples.at(i).y()));
    }
    path.lineTo(toPixel(lastStep + (m_totalSteps == 1 ? 1 : 0), m_samples.last().y()));
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);

    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    painter.drawLine(plot.bottomLeft(), plot.topLeft());
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRectF(frame.left() + 4, plot.top() - metrics.height() / 2.0, left - frame.left() - 8, metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, topLabel);
    painter.drawText(QRectF(frame.left() + 4, plot.bottom() - metrics.height() / 2.0, left - frame.left() - 8, metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
    const QRectF bottom(plot.left(), plot.bottom() + 2, plot.width(), metrics.height());
    painter.drawText(bottom, Qt::AlignLeft | Qt::AlignTop, tr("step 1"));
    painter.drawText(bottom, Qt::AlignRight | Qt::AlignTop, tr("step %L1").arg(m_totalSteps));
    if (m_warmupSteps > 0)
        painter.drawText(bottom, Qt::AlignHCenter | Qt::AlignTop, tr("warmup %L1 steps").arg(m_warmupSteps));
}

}  // namespace ddplab::ui
