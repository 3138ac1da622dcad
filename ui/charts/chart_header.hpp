// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The small pieces of a chart's header row: its tool buttons, and the help its zoom button
// shows. Only ChartPanel includes it.

#include <QIcon>
#include <QObject>
#include <QToolButton>

namespace ddplab::ui {

inline QString zoomHelp()
{
    return QObject::tr("Drag: zoom to a box · Ctrl+wheel: zoom · middle drag or Shift+drag: pan · "
                       "double-click the chart: fit · double-click the title: enlarge");
}

inline QToolButton* headerButton(QWidget* parent, const QString& iconOrText, const QString& tip)
{
    auto* button = new QToolButton(parent);
    if (iconOrText.startsWith(QLatin1Char(':')))
        button->setIcon(QIcon(iconOrText));
    else
        button->setText(iconOrText);
    button->setAutoRaise(true);
    button->setToolTip(tip);
    return button;
}

}  // namespace ddplab::ui
