// SPDX-License-Identifier: GPL-3.0-or-later
#include "shard_grid_widget.hpp"

#include "theme/palette.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace ddplab::ui {
namespace {
const QString kPaddingKey = QStringLiteral("padding: a repeat of an earlier sample");
const QString kDroppedKey = QStringLiteral("dropped (drop_last)");
}  // namespace

ShardGridWidget::ShardGridWidget(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Minimum);
}

void ShardGridWidget::setAssignment(const ShardAssignment& assignment)
{
    m_assignment = assignment;
    m_hasAssignment = true;
    m_hoveredSample = -1;
    computeGeometry();
    updateGeometry();
    adjustSize();
    update();
}

void ShardGridWidget::computeGeometry()
{
    // Big squares with the index written in them when the epoch is small; smaller, unlabelled
    // ones (hover tells the index) when it is not.
    const int squaresPerRow = m_assignment.iterations * std::max(1, m_assignment.maxBatchLength());
    m_square = squaresPerRow <= 48 ? std::max(34.0, fontMetrics().horizontalAdvance(QStringLiteral("0000")) + 10.0)
             : squaresPerRow <= 240 ? 12.0
                                     : 6.0;
    m_gap = m_square >= 20 ? 3 : 1;
    m_cellPadding = m_square >= 20 ? 6 : 3;
    m_rankLabelWidth = fontMetrics().horizontalAdvance(tr("rank 000")) + 16;
    m_headerHeight = fontMetrics().height() + 10;
}

QSize ShardGridWidget::sizeHint() const
{
    if (!m_hasAssignment)
        return QSize(400, 200);
    const double cellWidth = m_assignment.maxBatchLength() * (m_square + m_gap) - m_gap + 2 * m_cellPadding;
    const double width = m_rankLabelWidth + m_assignment.iterations * (cellWidth + 10) + 10;
    const double rowsHeight = m_headerHeight + m_assignment.ranks.size() * (m_square + 2 * m_cellPadding + 8);
    const double droppedHeight = m_assignment.dropped.isEmpty() ? 0 : m_square + fontMetrics().height() + 20;
    const double droppedWidth = m_assignment.dropped.isEmpty() ? 0 : droppedRect(int(m_assignment.dropped.size()) - 1).right() + 10;
    const double keyWidth = m_rankLabelWidth + m_cellPadding + 14 + 12 + fontMetrics().horizontalAdvance(kPaddingKey) + 20 + 14 + 6 +
                            fontMetrics().horizontalAdvance(kDroppedKey) + 20;
    return QSize(int(std::max({width, droppedWidth, keyWidth})), int(rowsHeight + droppedHeight + fontMetrics().height() * 2 + 10));
}

QRectF ShardGridWidget::squareRect(int rank, int iteration, int position) const
{
    const double cellWidth = m_assignment.maxBatchLength() * (m_square + m_gap) - m_gap + 2 * m_cellPadding;
    const double x = m_rankLabelWidth + iteration * (cellWidth + 10) + m_cellPadding + position * (m_square + m_gap);
    const double y = m_headerHeight + rank * (m_square + 2 * m_cellPadding + 8) + m_cellPadding;
    return QRectF(x, y, m_square, m_square);
}

QRectF ShardGridWidget::droppedRect(int index) const
{
    const double top = m_headerHeight + m_assignment.ranks.size() * (m_square + 2 * m_cellPadding + 8) +
                       fontMetrics().height() + 12;
    return QRectF(m_rankLabelWidth + m_cellPadding + index * (m_square + m_gap), top, m_square, m_square);
}

QColor ShardGridWidget::sampleColor(int sample) const
{
    // Hues spread over the examples; pastel so the index written on top stays readable.
    const int examples = int(std::max<int64_t>(1, m_assignment.request.numExamples));
    return ddplab::ui::sampleColor(sample, examples);
}

void ShardGridWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!m_hasAssignment) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Asking the engine how the sampler splits the data…"));
        return;
    }
    const QColor text = palette().color(QPalette::Text);
    const bool labelled = m_square >= 20;
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * (labelled ? 0.85 : 0.8));

    const double cellWidth = m_assignment.maxBatchLength() * (m_square + m_gap) - m_gap + 2 * m_cellPadding;
    painter.setPen(text);
    for (int iteration = 0; iteration < m_assignment.iterations; ++iteration) {
        const QRectF header(m_rankLabelWidth + iteration * (cellWidth + 10), 0, cellWidth, m_headerHeight);
        painter.drawText(header, Qt::AlignHCenter | Qt::AlignVCenter, tr("iteration %1").arg(iteration + 1));
    }
    for (int rank = 0; rank < m_assignment.ranks.size(); ++rank) {
        const QRectF first = squareRect(rank, 0, 0);
        painter.setPen(text);
        painter.drawText(QRectF(0, first.top() - m_cellPadding, m_rankLabelWidth - 8, m_square + 2 * m_cellPadding),
                         Qt::AlignRight | Qt::AlignVCenter, tr("rank %1").arg(rank));
        const QList<QList<int>>& batches = m_assignment.ranks.at(rank);
        for (int iteration = 0; iteration < batches.size(); ++iteration) {
            const QRectF cell = squareRect(rank, iteration, 0).adjusted(-m_cellPadding, -m_cellPadding, 0, m_cellPadding);
            painter.setPen(QPen(palette().color(QPalette::Mid), 1));
            painter.setBrush(palette().color(QPalette::AlternateBase));
            painter.drawRoundedRect(QRectF(cell.topLeft(), QSizeF(cellWidth, cell.height())), 4, 4);
            const QList<int>& batch = batches.at(iteration);
            for (int position = 0; position < batch.size(); ++position) {
                const int sample = batch.at(position);
                const QRectF square = squareRect(rank, iteration, position);
                const bool padded = m_assignment.isPadding(rank, iteration, position);
                const bool hovered = sample == m_hoveredSample;
                painter.setBrush(sampleColor(sample));
                painter.setPen(padded ? QPen(QColor(kPaddingRgb), labelled ? 3 : 2)
                               : hovered ? QPen(text, 2)
                                         : QPen(QColor::fromRgba(kCellBorderRgba), 1));
                painter.drawRoundedRect(square, 3, 3);
                if (padded) {
                    painter.setBrush(QBrush(QColor(kPaddingRgb), Qt::BDiagPattern));
                    painter.setPen(Qt::NoPen);
                    painter.drawRoundedRect(square, 3, 3);
                }
                if (hovered && padded) {
                    painter.setBrush(Qt::NoBrush);
                    painter.setPen(QPen(text, 1, Qt::DashLine));
                    painter.drawRoundedRect(square.adjusted(-2, -2, 2, 2), 3, 3);
                }
                if (labelled) {
                    painter.setFont(small);
                    painter.setPen(textOn(sampleColor(sample)));
                    painter.drawText(square, Qt::AlignCenter, QString::number(sample));
                    painter.setFont(font());
                }
            }
        }
    }
    double legendTop = m_headerHeight + m_assignment.ranks.size() * (m_square + 2 * m_cellPadding + 8) + 4;
    if (!m_assignment.dropped.isEmpty()) {
        painter.setPen(text);
        painter.drawText(QPointF(m_rankLabelWidth + m_cellPadding, legendTop + fontMetrics().ascent()),
                         tr("Dropped by drop_last (never seen this epoch):"));
        for (int i = 0; i < m_assignment.dropped.size(); ++i) {
            const QRectF square = droppedRect(i);
            painter.setBrush(sampleColor(m_assignment.dropped.at(i)));
            painter.setPen(QPen(QColor(kDroppedRgb), 2, Qt::DashLine));
            painter.drawRoundedRect(square, 3, 3);
            if (labelled) {
                painter.setFont(small);
                painter.setPen(textOn(sampleColor(m_assignment.dropped.at(i))));
                painter.drawText(square, Qt::AlignCenter, QString::number(m_assignment.dropped.at(i)));
                painter.setFont(font());
            }
        }
        legendTop = droppedRect(0).bottom() + 8;
    }
    // Key.
    const double keyY = legendTop + 6;
    const QRectF padKey(m_rankLabelWidth + m_cellPadding, keyY, 14, 14);
    painter.setBrush(QBrush(QColor(kPaddingRgb), Qt::BDiagPattern));
    painter.setPen(QPen(QColor(kPaddingRgb), 2));
    painter.drawRoundedRect(padKey, 2, 2);
    painter.setPen(text);
    painter.drawText(QPointF(padKey.right() + 6, padKey.bottom() - 2), kPaddingKey);
    const double secondKeyX = padKey.right() + 12 + fontMetrics().horizontalAdvance(kPaddingKey) + 20;
    const QRectF dropKey(secondKeyX, keyY, 14, 14);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(kDroppedRgb), 2, Qt::DashLine));
    painter.drawRoundedRect(dropKey, 2, 2);
    painter.setPen(text);
    painter.drawText(QPointF(dropKey.right() + 6, dropKey.bottom() - 2), kDroppedKey);
}

ShardGridWidget::Hit ShardGridWidget::hitAt(const QPointF& point) const
{
    Hit hit;
    if (!m_hasAssignment)
        return hit;
    for (int rank = 0; rank < m_assignment.ranks.size(); ++rank) {
        const QList<QList<int>>& batches = m_assignment.ranks.at(rank);
        for (int iteration = 0; iteration < batches.size(); ++iteration) {
            for (int position = 0; position < batches.at(iteration).size(); ++position) {
                if (squareRect(rank, iteration, position).contains(point))
                    return {rank, iteration, position, batches.at(iteration).at(position)};
            }
        }
    }
    for (int i = 0; i < m_assignment.dropped.size(); ++i) {
        if (droppedRect(i).contains(point))
            return {-1, -1, -1, m_assignment.dropped.at(i)};
    }
    return hit;
}

void ShardGridWidget::mouseMoveEvent(QMouseEvent* event)
{
    const int sample = hitAt(event->position()).sample;
    if (sample != m_hoveredSample) {
        m_hoveredSample = sample;
        update();
    }
}

void ShardGridWidget::leaveEvent(QEvent*)
{
    m_hoveredSample = -1;
    update();
}

bool ShardGridWidget::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const Hit hit = hitAt(help->pos());
    if (hit.sample < 0) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    QString text;
    if (hit.rank < 0) {
        text = tr("Example %1 is dropped: drop_last discards the tail so every rank gets as many.").arg(hit.sample);
    } else {
        text = tr("Rank %1, iteration %2, position %3: example %4")
                   .arg(hit.rank)
                   .arg(hit.iteration + 1)
                   .arg(hit.position + 1)
                   .arg(hit.sample);
        if (m_assignment.isPadding(hit.rank, hit.iteration, hit.position))
            text += tr("\nPadding: a repeat, added so every rank gets the same number of samples.");
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

}  // namespace ddplab::ui
