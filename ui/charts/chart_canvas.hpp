// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The chart view of a ChartPanel: rubber-band zoom, Ctrl+wheel zoom at the cursor, pan with the
// middle button (or Shift+drag, or the arrow keys), double-click to reset, and a hover read-out
// drawn over the plot.

#include <QChartView>
#include <QColor>
#include <QList>

namespace ddplab::ui {

// One line of the hover read-out: whose value (shortened to fit if need be) and the value.
struct ReadoutLine {
    QString name;
    QString value;
    QColor color;
    double x = 0.0;  // where the value shown lies (the nearest point to the pointer)
};

class ChartCanvas : public QChartView {
    Q_OBJECT

public:
    explicit ChartCanvas(QChart* chart, QWidget* parent = nullptr);

    // The read-out: a vertical line at value x, and one line per series.
    void setReadout(double x, const QString& heading, const QList<ReadoutLine>& lines);
    void clearReadout();

    // How long the last paint took (Qt Charts draws every series again on each update).
    double lastPaintMs() const { return m_lastPaintMs; }
    double totalPaintMs() const { return m_totalPaintMs; }

signals:
    void hovered(const QPointF& value);
    void hoverLeft();
    void viewChangedByUser();
    void resetRequested();
    void contextMenuRequested(const QPoint& globalPosition);
    void resized();
    void painted();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void zoomAround(const QPointF& anchor, double factor);

    bool m_panning = false;
    bool m_rubberBanding = false;
    QPointF m_lastPanPosition;
    bool m_hasReadout = false;
    double m_readoutX = 0.0;
    QString m_readoutHeading;
    QList<ReadoutLine> m_readoutLines;
    QPointF m_cursor;
    double m_lastPaintMs = 0.0;
    double m_totalPaintMs = 0.0;
};

}  // namespace ddplab::ui
