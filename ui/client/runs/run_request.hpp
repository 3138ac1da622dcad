// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What is asked for when a run is started: its names, the settings the engine gets, and where it
// belongs (a lesson, a study's point). The lab session runs a list of these; Setup, presets,
// lessons and studies each make them. The settings are typed, as ddplab_core reads them: they
// become JSON once, where the run's config.json is written (RunStore::createRun); that text is
// what the engine reads, a remote engine is sent and RunData holds (LabSession::startNext).

#include "core/config.hpp"

#include <QString>

namespace ddplab::ui {

struct RunRequest {
    QString name;      // for the run list; empty: the store names it from its settings
    QString label;     // for legends
    QString lessonId;  // empty for a single run
    ddplab::Config config;
    QString studyId{};    // a study's runs: its folder, and the run's point in its plan
    int studyPoint = -1;
    // A lesson's checkpoints and branches (LessonRun): its checkpoints go into its own run folder
    // (config.checkpointAt names the steps); it resumes from the last checkpoint the sequence's
    // run at this index wrote (-1: none); it is meant to fail, which is no failure of the sequence.
    bool checkpointsInRunFolder = false;
    int resumeFromRun = -1;
    bool meantToFail = false;
};

}  // namespace ddplab::ui
