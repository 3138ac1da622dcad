// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the window remembers between sessions (QSettings: ~/.config/ddplab/ddplab.conf): its
// geometry and panes, the theme, the settings in Setup, how the charts look, the lesson, whether
// runs stream TensorBoard files.
// One place names every key; the window reads and writes a WindowSettings value.

#include "client/series/x_axis.hpp"
#include "window/theme.hpp"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace ddplab::ui {

struct WindowSettings {
    QByteArray geometry;             // empty on first launch
    QByteArray dockState;
    ThemeChoice theme = ThemeChoice::System;
    std::optional<QJsonObject> parameters;  // the Setup panel's values; none on first launch
    double smoothing = 0.6;
    XAxis xAxis = XAxis::Step;
    QHash<QString, bool> logScales;  // chart id -> log y axis
    bool openGl = false;
    bool keepEarlierRuns = false;
    bool tensorBoardStream = false;  // new runs write TensorBoard files as they stream (window/tensorboard_files)
    QString tensorBoardFolder;       // where; empty: TensorBoardStream::defaultFolder()
    QString lesson;

    static WindowSettings load();
    void save() const;
};

}  // namespace ddplab::ui
