// SPDX-License-Identifier: GPL-3.0-or-later
#include "study/content_wide_scroll.hpp"

#include <QEvent>
#include <QScrollBar>

namespace ddplab::ui {

ContentWideScroll::ContentWideScroll(QWidget* content, QWidget* parent) : QScrollArea(parent)
{
    setWidget(content);  // watched from here on: QScrollArea filters its widget's events
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QSize ContentWideScroll::minimumSizeHint() const
{
    QSize least = QScrollArea::minimumSizeHint();
    // Room for the vertical bar too: it comes and goes with the height, the width must not.
    if (widget())
        least.setWidth(widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth());
    return least;
}

bool ContentWideScroll::eventFilter(QObject* watched, QEvent* event)
{
    // The content laid itself out again (a button's text, a row shown): whoever places this
    // column asks for its least width again.
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

}  // namespace ddplab::ui
