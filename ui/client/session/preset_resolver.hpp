// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `--preset NAME` means: a lesson id, a built-in preset's name, a lesson file, or a preset
// file (an engine config). Either way it becomes the runs to launch, checked with ddplab_core
// before any is started.

#include "client/runs/run_request.hpp"
#include "client/runs/throughput_model.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/series/x_axis.hpp"

#include <QList>
#include <QString>

#include <optional>

namespace ddplab::ui {

class LessonLibrary;
class PresetLibrary;

struct ResolvedPreset {
    QString title;
    QString lessonId;  // empty for a preset file
    QList<RunRequest> runs;
    QStringList chartMetrics;  // a lesson's charts; empty: every chart with data
    std::optional<XAxis> xAxis;  // the axis a lesson's point needs; none: the user's choice
    std::optional<ThroughputModel> throughputModel;  // a lesson about speed: its model of GPUs
    QString error;             // why NAME cannot be run; empty when it can
};

ResolvedPreset resolvePreset(const QString& name, const LessonLibrary& lessons, const PresetLibrary& presets);

}  // namespace ddplab::ui
