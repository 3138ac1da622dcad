// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Presentation mode, for teaching in front of a class: the whole screen (no title bar), every
// font of the window 1.6 times larger (chart titles, axes, legend, lesson text), thicker lines,
// one chart enlarged over the middle with the others as thumbnails below it, the lesson beside
// it wide enough to read, Setup, the Runs list and the Log out of the way. Leaving it puts back
// exactly what was there.

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QPointer>
#include <Qt>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QMainWindow;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartGrid;
class ChartPanel;

class PresentationMode {
public:
    static constexpr double kScale = 1.6;

    // `collapsed`: the panes presentation hides (Setup, the Runs list, the Log); `lesson`: the
    // pane it widens.
    PresentationMode(QMainWindow& window, ChartGrid& charts, QList<QDockWidget*> collapsed, QDockWidget& lesson);

    void enter();
    void leave();
    bool isOn() const { return m_on; }

private:
    QMainWindow& m_window;
    ChartGrid& m_charts;
    QList<QDockWidget*> m_collapsed;
    QDockWidget& m_lesson;
    bool m_on = false;
    Qt::WindowStates m_savedWindowState;
    QByteArray m_savedDocks;
    QFont m_savedFont;
    bool m_hadOwnFont = false;
    QPointer<ChartPanel> m_savedEnlarged;
};

}  // namespace ddplab::ui
