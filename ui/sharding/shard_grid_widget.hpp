// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Draws a ShardAssignment: one row per rank, one column per iteration, each batch as a row of
// sample squares coloured by index (so one sample can be followed across ranks and epochs),
// padding repeats outlined, dropped examples listed apart. Hovering a square highlights every
// place that sample appears.

#include "client/engine/shard_assignment.hpp"

#include <QWidget>

namespace ddplab::ui {

class ShardGridWidget : public QWidget {
    Q_OBJECT

public:
    explicit ShardGridWidget(QWidget* parent = nullptr);

    void setAssignment(const ShardAssignment& assignment);
    const ShardAssignment& assignment() const { return m_assignment; }

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Hit {
        int rank = -1;
        int iteration = -1;
        int position = -1;
        int sample = -1;  // a dropped example when rank < 0
    };

    void computeGeometry();
    QRectF squareRect(int rank, int iteration, int position) const;
    QRectF droppedRect(int index) const;
    Hit hitAt(const QPointF& point) const;
    QColor sampleColor(int sample) const;

    ShardAssignment m_assignment;
    bool m_hasAssignment = false;
    double m_square = 28;
    double m_gap = 3;
    double m_cellPadding = 6;
    double m_rankLabelWidth = 70;
    double m_headerHeight = 24;
    int m_hoveredSample = -1;
};

}  // namespace ddplab::ui
