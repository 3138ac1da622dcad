// SPDX-License-Identifier: GPL-3.0-or-later
#include "screen_fit.hpp"

#include <QDockWidget>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>

#include <algorithm>

namespace ddplab::ui {
namespace {

constexpr double kShareOfScreen = 0.94;
constexpr int kLargestFirstWidth = 1680;
constexpr int kLargestFirstHeight = 1050;
// Below this width the lesson and the runs are tabs of one pane, not two panes stacked.
constexpr int kTabbedBelowWidth = 1700;
// Below this height the Log is a single line or two.
constexpr int kShortScreenHeight = 860;
constexpr int kSmallScreenWidth = 1440;

QScreen* screenOf(const QMainWindow& window)
{
    QScreen* screen = window.screen();
    return screen ? screen : QGuiApplication::primaryScreen();
}

}  // namespace

void arrangeForScreen(QMainWindow& window, const DockSet& docks)
{
    QScreen* screen = screenOf(window);
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
    // A laptop or projector screen is all used; a large one keeps room around the window.
    const bool small = available.width() <= kSmallScreenWidth || available.height() < kShortScreenHeight;
    const double share = small ? 1.0 : kShareOfScreen;
    const int width = std::min(int(available.width() * share), kLargestFirstWidth);
    const int height = std::min(int(available.height() * share), kLargestFirstHeight);
    window.resize(width, height);
    window.move(available.center() - QPoint(width / 2, height / 2));
    // Maximized, the window manager fits the frame and title bar in too; without one (Xvfb)
    // the size above already is the screen's.
    if (small)
        window.setWindowState(window.windowState() | Qt::WindowMaximized);

    const bool narrow = available.width() < kTabbedBelowWidth;
    if (narrow) {
        window.tabifyDockWidget(docks.lesson, docks.runs);
        docks.lesson->raise();
    } else {
        window.splitDockWidget(docks.lesson, docks.runs, Qt::Vertical);
        window.resizeDocks({docks.lesson, docks.runs}, {height * 6 / 10, height * 3 / 10}, Qt::Vertical);
    }
    // Setup and the right-hand panes get about a quarter of the width each, the charts the rest.
    const int side = std::clamp(width / 4, 280, 420);
    window.resizeDocks({docks.setup, docks.lesson}, {side, narrow ? side * 9 / 10 : side}, Qt::Horizontal);
    const bool shortScreen = available.height() < kShortScreenHeight;
    window.resizeDocks({docks.log}, {shortScreen ? 60 : 110}, Qt::Vertical);
}

void keepOnScreen(QMainWindow& window)
{
    QScreen* screen = screenOf(window);
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    const QSize size = window.size().boundedTo(available.size());
    if (size != window.size())
        window.resize(size);
    if (!available.contains(window.frameGeometry()))
        window.move(available.topLeft());
}

}  // namespace ddplab::ui
