// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_canvas.hpp"

#include "charts/chart_gestures.hpp"

#include <QAbstractSeries>
#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

namespace ddplab::ui {
namespace {
constexpr double kWheelZoomFactor = 0.8;  // per notch: the visible span shrinks to 80 %
constexpr double kKeyPanFraction = 0.1;   // arrow keys move the view by a tenth of the plot
}  // namespace

QList<std::pair<QString, QString>> chartGestures()
{
    const auto tr = [](const char* text) { return QObject::tr(text); };
    return {{tr("Drag"), tr("Zoom a chart to a box")},
            {tr("Ctrl+wheel, +/−"), tr("Zoom in and out at the pointer")},
            {tr("Shift+drag, middle drag, arrows"), tr("Pan")},
            {tr("Double-click a chart, Home"), tr("Fit the chart to its data again")},
            {tr("Double-click a chart's title"), tr("Enlarge it to the whole page, and back")},
            {tr("Hover"), tr("Read every run's value at that point")},
            {tr("Right-click"), tr("Log axis, reset, enlarge, export")}};
}

ChartCanvas::ChartCanvas(QChart* chart, QWidget* parent)
    : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    // No tooltip here: it would cover the read-out (the chart's title says how to zoom).
}

void ChartCanvas::setReadout(double x, const QString& heading, const QList<ReadoutLine>& lines)
{
    m_hasReadout = true;
    m_readoutX = x;
    m_readoutHeading = heading;
    m_readoutLines = lines;
    viewport()->update();
}

void ChartCanvas::clearReadout()
{
    if (!m_hasReadout)
        return;
    m_hasReadout = false;
    viewport()->update();
}

void ChartCanvas::mousePressEvent(QMouseEvent* event)
{
    const bool panButton = event->button() == Qt::MiddleButton ||
                           (event->button() == Qt::LeftButton && event->modifiers().testFlag(Qt::ShiftModifier));
    if (panButton) {
        m_panning = true;
        m_lastPanPosition = event->position();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton) {
        // QChartView would zoom out on a right click; here it opens the chart's menu.
        emit contextMenuRequested(event->globalPosition().toPoint());
        event->accept();
        return;
    }
    m_rubberBanding = event->button() == Qt::LeftButton;
    QChartView::mousePressEvent(event);
}

void ChartCanvas::mouseMoveEvent(QMouseEvent* event)
{
    m_cursor = event->position();
    if (m_panning) {
        const QPointF delta = event->position() - m_lastPanPosition;
        m_lastPanPosition = event->position();
        chart()->scroll(-delta.x(), delta.y());
        emit viewChangedByUser();
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
    if (!chart()->series().isEmpty() && chart()->plotArea().contains(event->position()))
        emit hovered(chart()->mapToValue(event->position()));
    else
        emit hoverLeft();
}

void ChartCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_panning && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
        m_panning = false;
        unsetCursor();
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
    if (m_rubberBanding && event->button() == Qt::LeftButton) {
        m_rubberBanding = false;
        emit viewChangedByUser();
    }
}

void ChartCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        emit resetRequested();
        event->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

void ChartCanvas::wheelEvent(QWheelEvent* event)
{
    // A plain wheel scrolls the page of charts; Ctrl+wheel zooms this one.
    if (!event->modifiers().testFlag(Qt::ControlModifier) || event->angleDelta().y() == 0) {
        event->ignore();
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    zoomAround(event->position(), std::pow(kWheelZoomFactor, notches));
    event->accept();
}

void ChartCanvas::keyPressEvent(QKeyEvent* event)
{
    const QRectF plot = chart()->plotArea();
    switch (event->key()) {
    case Qt::Key_Left: chart()->scroll(-plot.width() * kKeyPanFraction, 0); break;
    case Qt::Key_Right: chart()->scroll(plot.width() * kKeyPanFraction, 0); break;
    case Qt::Key_Up: chart()->scroll(0, plot.height() * kKeyPanFraction); break;
    case Qt::Key_Down: chart()->scroll(0, -plot.height() * kKeyPanFraction); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAround(plot.center(), kWheelZoomFactor); return;
    case Qt::Key_Minus: zoomAround(plot.center(), 1.0 / kWheelZoomFactor); return;
    case Qt::Key_Home:
    case Qt::Key_0: emit resetRequested(); return;
    default: QChartView::keyPressEvent(event); return;
    }
    emit viewChangedByUser();
}

void ChartCanvas::leaveEvent(QEvent* event)
{
    emit hoverLeft();
    QChartView::leaveEvent(event);
}

void ChartCanvas::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    emit resized();
}

void ChartCanvas::paintEvent(QPaintEvent* event)
{
    QElapsedTimer timer;
    timer.start();
    QChartView::paintEvent(event);
    m_lastPaintMs = timer.nsecsElapsed() / 1e6;
    m_totalPaintMs += m_lastPaintMs;
    emit painted();
}

void ChartCanvas::zoomAround(const QPointF& anchor, double factor)
{
    const QRectF plot = chart()->plotArea();
    const QRectF zoomed(anchor.x() - (anchor.x() - plot.left()) * factor, anchor.y() - (anchor.y() - plot.top()) * factor,
                        plot.width() * factor, plot.height() * factor);
    chart()->zoomIn(zoomed);
    emit viewChangedByUser();
}

void ChartCanvas::drawForeground(QPainter* painter, const QRectF& rect)
{
    QChartView::drawForeground(painter, rect);
    if (!m_hasReadout || chart()->series().isEmpty())
        return;
    const QRectF plot = chart()->plotArea();
    const double lineX = chart()->mapToPosition(QPointF(m_readoutX, 0), chart()->series().first()).x();
    if (lineX < plot.left() || lineX > plot.right())
        return;

    painter->save();
    QColor lineColor = palette().color(QPalette::WindowText);
    lineColor.setAlpha(110);
    painter->setPen(QPen(lineColor, 1, Qt::DashLine));
    painter->drawLine(QPointF(lineX, plot.top()), QPointF(lineX, plot.bottom()));

    // The box: a heading and one coloured line per series, inside the view. Names are shortened
    // to fit, all to the same width (one name never reads two ways); values never are.
    const QFontMetricsF metrics(font());
    const double lineHeight = metrics.height();
    const double swatch = lineHeight * 0.6;
    const double maxWidth = std::max(180.0, rect.width() * 0.7);
    double widestValue = 0;
    for (const ReadoutLine& line : m_readoutLines)
        widestValue = std::max(widestValue, metrics.horizontalAdvance(QStringLiteral(": ") + line.value));
    const double room = std::max(40.0, maxWidth - swatch - 6 - widestValue);
    QStringList texts;
    double width = metrics.horizontalAdvance(m_readoutHeading);
    for (const ReadoutLine& line : m_readoutLines) {
        texts.append(metrics.elidedText(line.name, Qt::ElideRight, room) + QStringLiteral(": ") + line.value);
        width = std::max(width, swatch + 6 + metrics.horizontalAdvance(texts.last()));
    }
    const QSizeF boxSize(width + 16, lineHeight * (texts.size() + 1) + 10);
    QPointF topLeft(m_cursor.x() + 14, m_cursor.y() + 14);
    if (topLeft.x() + boxSize.width() > rect.right() - 2)
        topLeft.setX(m_cursor.x() - 14 - boxSize.width());
    topLeft.setX(std::clamp(topLeft.x(), rect.left() + 2, std::max(rect.left() + 2, rect.right() - 2 - boxSize.width())));
    if (topLeft.y() + boxSize.height() > rect.bottom() - 2)
        topLeft.setY(std::max(rect.top() + 2, rect.bottom() - 2 - boxSize.height()));
    const QRectF box(topLeft, boxSize);

    QColor background = palette().color(QPalette::ToolTipBase);
    background.setAlpha(235);
    painter->setPen(QPen(palette().color(QPalette::Mid), 1));
    painter->setBrush(background);
    painter->drawRoundedRect(box, 4, 4);

    painter->setPen(palette().color(QPalette::ToolTipText));
    QFont bold = font();
    bold.setBold(true);
    painter->setFont(bold);
    double y = box.top() + 5 + metrics.ascent();
    painter->drawText(QPointF(box.left() + 8, y), m_readoutHeading);
    painter->setFont(font());
    for (qsizetype i = 0; i < texts.size(); ++i) {
        y += lineHeight;
        const QRectF swatchRect(box.left() + 8, y - metrics.ascent() + (metrics.ascent() - swatch) / 2, swatch, swatch);
        painter->fillRect(swatchRect, m_readoutLines.at(i).color);
        painter->drawText(QPointF(swatchRect.right() + 6, y), texts.at(i));
    }
    painter->restore();
}

}  // namespace ddplab::ui
