#pragma once
// What is asked for when a run is started: its names, the settings the engine gets, and where it
// belongs (a lesson, a study's point). The lab session runs a list of these; presets, lessons and
// studies each make them.

#include <QJsonObject>
#include <QString>

namespace ddplab::ui {

struct RunRequest {
    QString name;      // for the run list
    QString label;     // for legends
    QString lessonId;  // empty for a single run
    QJsonObject config;
    QString studyId{};    // a study's runs: its folder, and the run's point in its plan
    int studyPoint = -1;
};

}  // namespace ddplab::ui
