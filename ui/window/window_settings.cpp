// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_settings.hpp"

#include <QJsonDocument>
#include <QSettings>

namespace ddplab::ui {
namespace {

const QString kGeometry = QStringLiteral("window/geometry");
const QString kDockState = QStringLiteral("window/state");
const QString kTheme = QStringLiteral("view/theme");
const QString kParameters = QStringLiteral("parameters/values");
const QString kSmoothing = QStringLiteral("charts/smoothing");
const QString kXAxis = QStringLiteral("charts/xAxis");
const QString kLogScales = QStringLiteral("charts/log");
const QString kOpenGl = QStringLiteral("charts/opengl");
const QString kKeepEarlierRuns = QStringLiteral("charts/keepEarlierRuns");
const QString kLesson = QStringLiteral("lesson/current");
const QString kTensorBoardStream = QStringLiteral("tensorboard/stream");
const QString kTensorBoardFolder = QStringLiteral("tensorboard/folder");

}  // namespace

WindowSettings WindowSettings::load()
{
    const QSettings stored;
    WindowSettings settings;
    settings.geometry = stored.value(kGeometry).toByteArray();
    settings.dockState = stored.value(kDockState).toByteArray();
    settings.theme = themeFromName(stored.value(kTheme).toString());
    if (stored.contains(kParameters))
        settings.parameters = QJsonDocument::fromJson(stored.value(kParameters).toByteArray()).object();
    settings.smoothing = std::clamp(stored.value(kSmoothing, settings.smoothing).toDouble(), 0.0, 0.99);
    settings.xAxis = xAxisFromName(stored.value(kXAxis).toString()).value_or(XAxis::Step);
    const QJsonObject logScales = QJsonDocument::fromJson(stored.value(kLogScales).toByteArray()).object();
    for (auto it = logScales.constBegin(); it != logScales.constEnd(); ++it)
        settings.logScales.insert(it.key(), it.value().toBool());
    settings.openGl = stored.value(kOpenGl, false).toBool();
    settings.keepEarlierRuns = stored.value(kKeepEarlierRuns, false).toBool();
    settings.lesson = stored.value(kLesson).toString();
    settings.tensorBoardStream = stored.value(kTensorBoardStream, false).toBool();
    settings.tensorBoardFolder = stored.value(kTensorBoardFolder).toString();
    return settings;
}

void WindowSettings::save() const
{
    QSettings stored;
    stored.setValue(kGeometry, geometry);
    stored.setValue(kDockState, dockState);
    stored.setValue(kTheme, themeName(theme));
    if (parameters)
        stored.setValue(kParameters, QJsonDocument(*parameters).toJson(QJsonDocument::Compact));
    stored.setValue(kSmoothing, smoothing);
    stored.setValue(kXAxis, xAxisName(xAxis));
    QJsonObject logScalesJson;
    for (auto it = logScales.constBegin(); it != logScales.constEnd(); ++it)
        logScalesJson.insert(it.key(), it.value());
    stored.setValue(kLogScales, QJsonDocument(logScalesJson).toJson(QJsonDocument::Compact));
    stored.setValue(kOpenGl, openGl);
    stored.setValue(kKeepEarlierRuns, keepEarlierRuns);
    stored.setValue(kLesson, lesson);
    stored.setValue(kTensorBoardStream, tensorBoardStream);
    stored.setValue(kTensorBoardFolder, tensorBoardFolder);
}

}  // namespace ddplab::ui
