#pragma once
// Presentation mode, for teaching in front of a class: every font of the window 1.6 times
// larger (chart titles, axes, legend, lesson text), thicker lines, one chart enlarged over the
// middle with the others as thumbnails below it, Setup and the Log out of the way. Leaving it
// puts back exactly what was there.

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QPointer>

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

    // `collapsed`: the panes presentation hides (Setup, the Log).
    PresentationMode(QMainWindow& window, ChartGrid& charts, QList<QDockWidget*> collapsed);

    void enter();
    void leave();
    bool isOn() const { return m_on; }

private:
    QMainWindow& m_window;
    ChartGrid& m_charts;
    QList<QDockWidget*> m_collapsed;
    bool m_on = false;
    QByteArray m_savedDocks;
    QFont m_savedFont;
    bool m_hadOwnFont = false;
    QPointer<ChartPanel> m_savedEnlarged;
};

}  // namespace ddplab::ui
