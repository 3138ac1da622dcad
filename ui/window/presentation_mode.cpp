// SPDX-License-Identifier: GPL-3.0-or-later
#include "presentation_mode.hpp"

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QMenu>
#include <QMainWindow>
#include <QScreen>
#include <QTimer>
#include <QToolTip>

namespace ddplab::ui {

namespace {

// The lesson's share of a presenting screen: at 1.6 times the font, a line of its text holds
// about eight words on a 1280-pixel projector (two or three in the pane's usual width).
constexpr double kLessonShare = 0.36;

// Windows of their own take the application's font for their class, not the main window's:
// enlarged for as long as presentation lasts (an export's fonts come from the plain one).
const char* const kOwnWindows[] = {"QMenu", "QDialog"};

QFont scaled(QFont font, double scale)
{
    font.setPointSizeF(font.pointSizeF() * scale);
    return font;
}

// Leaving full screen resizes the window later, when the window system says so. Docks restored
// while the window is still full-screen size are scaled to it and scaled back, a pixel off here
// and there; restoring once more at the size they were saved at puts back exactly what was there.
class RestoreDocksAtSize : public QObject {
public:
    RestoreDocksAtSize(QMainWindow& window, QSize size, QByteArray docks)
        : QObject(&window)
        , m_window(window)
        , m_size(size)
        , m_docks(std::move(docks))
    {
        window.installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == &m_window && event->type() == QEvent::Resize && m_window.size() == m_size) {
            m_window.restoreState(m_docks);
            deleteLater();
        }
        return false;
    }

private:
    QMainWindow& m_window;
    QSize m_size;
    QByteArray m_docks;
};

}  // namespace

PresentationMode::PresentationMode(QMainWindow& window, ChartGrid& charts, QList<QDockWidget*> collapsed, QDockWidget& lesson)
    : m_window(window)
    , m_charts(charts)
    , m_collapsed(std::move(collapsed))
    , m_lesson(lesson)
{
}

void PresentationMode::enter()
{
    if (m_on)
        return;
    m_on = true;
    delete m_pendingRestore;  // left and entered again before the window had its size back
    m_savedDocks = m_window.saveState();
    m_savedSize = m_window.size();
    m_hadOwnFont = m_window.testAttribute(Qt::WA_SetFont);
    m_savedFont = m_window.font();
    m_savedEnlarged = m_charts.enlarged();
    m_savedWindowState = m_window.windowState();
    m_savedGeometry = m_window.geometry();
    fillTheScreen();  // first: a geometry set later would end the full-screen state
    m_window.setWindowState(m_savedWindowState | Qt::WindowFullScreen);

    QFont large = m_window.font();
    large.setPointSizeF(large.pointSizeF() * kScale);
    m_window.setFont(large);  // every pane inherits it
    // The menus made already (the menu bar's) took the class's font when they were made: each is
    // set to 1.6 times the font it had, whether or not the class's new font reached it meanwhile.
    m_enlargedMenus.clear();
    QList<QFont> menuFonts;
    for (QMenu* menu : m_window.findChildren<QMenu*>()) {
        if (menu->testAttribute(Qt::WA_SetFont))
            continue;  // a font of its own, kept
        m_enlargedMenus.append(menu);
        menuFonts.append(menu->font());
    }
    m_savedWindowFonts.clear();
    for (const char* className : kOwnWindows) {
        m_savedWindowFonts.append(QApplication::font(className));
        QApplication::setFont(scaled(m_savedWindowFonts.last(), kScale), className);
    }
    m_savedToolTipFont = QToolTip::font();
    QToolTip::setFont(scaled(m_savedToolTipFont, kScale));
    for (qsizetype i = 0; i < m_enlargedMenus.size(); ++i)
        m_enlargedMenus.at(i)->setFont(scaled(menuFonts.at(i), kScale));
    for (QDockWidget* dock : m_collapsed)
        dock->hide();
    if (m_lesson.isVisible() && !m_lesson.isFloating()) {
        m_lesson.raise();
        const QScreen* screen = m_window.screen();
        const int width = screen ? screen->geometry().width() : m_window.width();
        m_window.resizeDocks({&m_lesson}, {int(width * kLessonShare)}, Qt::Horizontal);
    }
    m_charts.setPresentation(true, kScale);
    // The chart the teacher chose (enlarged already), else the first.
    ChartPanel* chosen = m_charts.enlarged();
    if (!chosen && !m_charts.panels().isEmpty())
        chosen = m_charts.panels().first();
    m_charts.setEnlarged(chosen);
}

void PresentationMode::fillTheScreen()
{
    // Full screen is the window manager's to give: with none (a bare X server such as Xvfb, where
    // a class's screenshots are made) the window kept its size, the enlarged chart with it, and
    // a frame of black around it at 1920x1080. Given the screen's geometry first, it fills the
    // screen either way; a window manager then makes it full screen over the same rectangle.
    const QScreen* screen = m_window.screen();
    if (!screen || m_window.geometry() == screen->geometry())
        return;
    m_filledByHand = true;
    m_window.setGeometry(screen->geometry());
}

void PresentationMode::leave()
{
    if (!m_on)
        return;
    m_on = false;
    m_window.setFont(m_hadOwnFont ? m_savedFont : QFont());
    m_window.setAttribute(Qt::WA_SetFont, m_hadOwnFont);
    for (qsizetype i = 0; i < m_savedWindowFonts.size(); ++i)
        QApplication::setFont(m_savedWindowFonts.at(i), kOwnWindows[i]);
    QToolTip::setFont(m_savedToolTipFont);
    for (const QPointer<QMenu>& menu : std::as_const(m_enlargedMenus)) {
        if (!menu)
            continue;
        menu->setFont(QFont());
        menu->setAttribute(Qt::WA_SetFont, false);
    }
    m_enlargedMenus.clear();
    m_charts.setPresentation(false, 1.0);
    m_charts.setEnlarged(m_savedEnlarged);
    m_window.setWindowState(m_savedWindowState);
    if (m_filledByHand)
        m_window.setGeometry(m_savedGeometry);
    m_filledByHand = false;
    m_window.restoreState(m_savedDocks);
    // And once more when the event loop has handled what the plain font posted: until then a page
    // behind another (the Study page behind the charts) still asks for its width at the enlarged
    // font (736 pixels for its 649), the docks are squeezed to make room for it, and where the
    // window has room to spare the lesson came back 197 pixels wide, not 284 (tst_window_layout).
    QTimer::singleShot(0, &m_window, [this, docks = m_savedDocks, size = m_savedSize] {
        if (!m_on && m_window.size() == size)
            m_window.restoreState(docks);
    });
    if (m_window.size() != m_savedSize)
        m_pendingRestore = new RestoreDocksAtSize(m_window, m_savedSize, m_savedDocks);
}

}  // namespace ddplab::ui
