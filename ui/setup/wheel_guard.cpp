// SPDX-License-Identifier: GPL-3.0-or-later
#include "wheel_guard.hpp"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QEvent>
#include <QPointer>
#include <QScrollBar>
#include <QWidget>

namespace ddplab::ui {
namespace {

// One filter for every guarded chooser of the application.
class StrayWheelFilter : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        auto* chooser = qobject_cast<QWidget*>(watched);
        if (event->type() != QEvent::Wheel || !chooser || chooser->hasFocus())
            return QObject::eventFilter(watched, event);
        // The first area around it with somewhere to scroll (an axis table inside a scrolled
        // page: the page, once the table has nothing to scroll).
        for (QWidget* parent = chooser->parentWidget(); parent; parent = parent->parentWidget()) {
            auto* area = qobject_cast<QAbstractScrollArea*>(parent);
            if (area && area->verticalScrollBar()->maximum() > area->verticalScrollBar()->minimum()) {
                QCoreApplication::sendEvent(area->verticalScrollBar(), event);
                break;
            }
        }
        return true;  // never the chooser's
    }
};

}  // namespace

void guardAgainstStrayWheel(QWidget* chooser)
{
    static QPointer<StrayWheelFilter> filter;
    if (!filter)
        filter = new StrayWheelFilter(QCoreApplication::instance());
    chooser->setFocusPolicy(Qt::StrongFocus);
    chooser->installEventFilter(filter);
}

}  // namespace ddplab::ui
