// SPDX-License-Identifier: GPL-3.0-or-later
#include "batch_schedule_preview.hpp"

#include "core/batch_schedule.hpp"
#include "core/derived.hpp"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace ddplab::ui {

BatchSchedulePreview::BatchSchedulePreview(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize BatchSchedulePreview::sizeHint() const
{
    return QSize(280, fontMetrics().height() * 9);
}

QSize BatchSchedulePreview::minimumSizeHint() const
{
    return QSize(160, fontMetrics().height() * 9);
}

void BatchSchedulePreview::setConfig(const Config& config)
{
    m_batch.clear();
    m_lr.clear();
    m_batchSteps.clear();
    m_plannedSteps = 0;
    const double startBatch = double(effectiveBatchSize(config));
    const QLocale locale;
    switch (config.batchSchedule) {
    case BatchScheduleKind::Noise:
        m_caption = tr("The batch doubles once the measured noise scale has stayed above twice it for %1 steps, up to %2: "
                       "known only as the run goes.")
                        .arg(config.batchNoisePatience)
                        .arg(locale.toString(qlonglong(startBatch) * largestBatchMultiplier(config)));
        break;
    case BatchScheduleKind::AdaScale:
        m_caption = tr("The batch stays %1; the LR is lr × the measured gain ratio (1 to %2 with %2 ranks) and the "
                       "schedule runs on its clock τ.")
                        .arg(locale.toString(qlonglong(startBatch)))
                        .arg(config.worldSize);
        break;
    case BatchScheduleKind::Constant:
    case BatchScheduleKind::Steps:
    case BatchScheduleKind::Smith:
    case BatchScheduleKind::Seesaw: {
        const std::vector<PlannedStep> plan = plannedBatchSteps(config, kMaxSteps);
        m_plannedSteps = qlonglong(plan.size());
        for (size_t i = 0; i < plan.size(); ++i) {
            const bool changes = i == 0 || plan[i].multiplier != plan[i - 1].multiplier || plan[i].lr != plan[i - 1].lr;
            if (!changes && i + 1 != plan.size())
                continue;
            const double samples = double(plan[i].baseSteps) * startBatch;
            m_batch.append(QPointF(samples, startBatch * double(plan[i].multiplier)));
            m_batchSteps.append(qlonglong(i));
            m_lr.append(QPointF(samples, plan[i].lr));
        }
        const qint64 baseSteps = totalSteps(config);
        m_totalSamples = double(baseSteps) * startBatch;
        m_caption = tr("About %1 optimizer steps where a constant batch takes %2; the batch grows from %3 to %4.")
                        .arg(locale.toString(m_plannedSteps), locale.toString(baseSteps),
                             locale.toString(qlonglong(startBatch)),
                             locale.toString(qlonglong(m_batch.isEmpty() ? startBatch : m_batch.last().y())));
        break;
    }
    }
    setToolTip(m_caption);
    update();
}

void BatchSchedulePreview::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics = fontMetrics();
    const QRectF frame = QRectF(rect()).adjusted(1, 1, -1, -1);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.setBrush(palette().color(QPalette::Base));
    painter.drawRoundedRect(frame, 4, 4);
    // The caption takes the lines it wraps to at this width; the plot the rest.
    const int captionHeight = metrics.boundingRect(QRect(0, 0, int(frame.width()) - 12, 1 << 16), Qt::TextWordWrap, m_caption).height();
    const QRectF captionBox = frame.adjusted(6, frame.height() - captionHeight - 4, -6, -2);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(captionBox, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, m_caption);
    if (m_batch.isEmpty() || m_totalSamples <= 0)
        return;

    double batchMax = 0, lrMax = 0;
    for (const QPointF& p : m_batch)
        batchMax = std::max(batchMax, p.y());
    for (const QPointF& p : m_lr)
        lrMax = std::max(lrMax, p.y());
    lrMax = lrMax > 0 ? lrMax : 1;
    const QString batchLabel = tr("batch %L1").arg(qlonglong(batchMax));
    const QString lrLabel = tr("LR %1").arg(QString::number(lrMax, 'g', 3));
    // Below the plot a row of labels (samples, steps), then the caption.
    const QRectF plot(frame.left() + 8, frame.top() + metrics.height() * 1.2, frame.width() - 16,
                      captionBox.top() - frame.top() - metrics.height() * 2.4);
    const auto x = [&](double samples) { return plot.left() + plot.width() * samples / m_totalSamples; };
    const auto stepsPath = [&](const QList<QPointF>& points, double top) {
        const auto y = [&](double value) { return plot.bottom() - plot.height() * value / top; };
        QPainterPath path(QPointF(x(points.first().x()), y(points.first().y())));
        for (qsizetype i = 1; i < points.size(); ++i) {
            path.lineTo(QPointF(x(points.at(i).x()), y(points.at(i - 1).y())));
            path.lineTo(QPointF(x(points.at(i).x()), y(points.at(i).y())));
        }
        path.lineTo(QPointF(plot.right(), y(points.last().y())));
        return path;
    };
    painter.setBrush(Qt::NoBrush);
    const QColor batchColor = palette().color(QPalette::Link);
    const QColor lrColor = palette().color(QPalette::Highlight);
    painter.setPen(QPen(batchColor, 2));
    painter.drawPath(stepsPath(m_batch, batchMax));
    painter.setPen(QPen(lrColor, 2, Qt::DashLine));
    painter.drawPath(stepsPath(m_lr, lrMax));
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());

    const QRectF top(plot.left(), frame.top() + 2, plot.width(), metrics.height());
    painter.setPen(batchColor);
    painter.drawText(top, Qt::AlignLeft | Qt::AlignVCenter, batchLabel);
    painter.setPen(lrColor);
    painter.drawText(top, Qt::AlignRight | Qt::AlignVCenter, tr("- - %1").arg(lrLabel));
    painter.setPen(palette().color(QPalette::Text));
    const QRectF bottom(plot.left(), plot.bottom() + 1, plot.width(), metrics.height());
    painter.drawText(bottom, Qt::AlignLeft | Qt::AlignTop, tr("0 samples"));
    const QString end = tr("%L1 samples · %L2 steps").arg(qlonglong(m_totalSamples)).arg(m_plannedSteps);
    painter.drawText(bottom, Qt::AlignRight | Qt::AlignTop, end);
    // Each growth against the steps as well: a tick where it happens, with the optimizer step it
    // follows wherever the label has room.
    double freeFrom = plot.left() + metrics.horizontalAdvance(tr("0 samples")) + 6;
    const double freeTo = plot.right() - metrics.horizontalAdvance(end) - 6;
    painter.setPen(QPen(batchColor, 1));
    for (qsizetype i = 1; i + 1 < m_batch.size(); ++i) {
        if (m_batch.at(i).y() == m_batch.at(i - 1).y())
            continue;
        const double at = x(m_batch.at(i).x());
        painter.drawLine(QPointF(at, plot.bottom() - 3), QPointF(at, plot.bottom() + 3));
        const QString label = tr("step %L1").arg(m_batchSteps.at(i));
        const double width = metrics.horizontalAdvance(label);
        if (at - width / 2 < freeFrom || at + width / 2 > freeTo)
            continue;
        painter.drawText(QRectF(at - width / 2, plot.bottom() + 1, width, metrics.height()), Qt::AlignCenter, label);
        freeFrom = at + width / 2 + 6;
    }
}

}  // namespace ddplab::ui
