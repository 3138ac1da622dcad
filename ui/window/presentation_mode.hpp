// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Presentation mode, for teaching in front of a class: the whole screen (no title bar), every
// font of the window 1.6 times larger (chart titles, axes, legend, lesson text, the Study page;
// menus, dialogs and tooltips, which are windows of their own, too), thicker lines,
// one chart enlarged over the middle with the others as thumbnails below it, the lesson beside
// it wide enough to read, Setup, the Runs list and the Log out of the way. Leaving it puts back
// exactly what was there.

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QPointer>
#include <QRect>
#include <QSize>
#include <Qt>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QObject;
class QMainWindow;
class QMenu;
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
    // The screen's geometry, where no window manager gave the window the whole screen.
    void fillTheScreen();

    QMainWindow& m_window;
    ChartGrid& m_charts;
    QList<QDockWidget*> m_collapsed;
    QDockWidget& m_lesson;
    bool m_on = false;
    Qt::WindowStates m_savedWindowState;
    QByteArray m_savedDocks;
    QSize m_savedSize;
    QRect m_savedGeometry;
    bool m_filledByHand = false;  // fillTheScreen set the geometry: leaving puts it back
    QPointer<QObject> m_pendingRestore;  // puts the docks back once the window has its size back
    QFont m_savedFont;
    bool m_hadOwnFont = false;
    QList<QFont> m_savedWindowFonts;  // the application's fonts of menus and dialogs
    QFont m_savedToolTipFont;
    QList<QPointer<QMenu>> m_enlargedMenus;
    QPointer<ChartPanel> m_savedEnlarged;
};

}  // namespace ddplab::ui
