// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the lab remembers about one run besides its events: the run directory's meta.json.

#include "client/runs/run_settings.hpp"
#include "client/runs/run_status.hpp"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace ddplab::ui {

// "8×16 · lr 0.001 sqrt · toy": a new run's name, enough to tell runs apart in the list and in
// legends. `config` is the engine's resolved configuration (or the window's settings).
QString defaultRunName(const QJsonObject& config);

struct RunRecord {
    QString id;         // the run directory's name
    QString directory;  // absolute path
    QString name;       // shown in the run list; the user may rename it
    QString label;      // the legend label (a lesson's run label, or the name)
    QString lessonId;
    QString studyId;      // the study folder it belongs to, if any
    int studyPoint = -1;  // its point in that study's plan
    QString host;         // the SSH host it ran on; empty: this computer
    RunStatus status = RunStatus::Running;
    int exitCode = -1;
    QString error;             // what went wrong; for a diverged run, how its loss blew up
    qint64 divergedAtStep = -1;  // a diverged run: the step its loss blew up
    QDateTime started;
    QDateTime finished;
    qint64 enginePid = 0;
    qint64 steps = 0;
    // Seconds from its first step to its end (the summary's wall_s); what it took besides was
    // its start-up. -1: not known (it did not finish, or was stored before this was kept).
    double trainSeconds = -1.0;
    // Of trainSeconds, its training steps alone (the summary's train_s): the rest were its
    // evaluations. -1: not known (stored before this was kept).
    double stepsSeconds = -1.0;
    RunSettings settings;  // from its config.json (not kept in meta.json)

    QString legendLabel() const { return label.isEmpty() ? name : label; }
    bool belongsToStudy() const { return !studyId.isEmpty(); }
    // Its status in words for lists and tables: "finished", "diverged at step 28".
    QString statusLine() const;

    QJsonObject toMetaJson() const;
    static RunRecord fromMetaJson(const QJsonObject& meta, const QString& directory);
};

}  // namespace ddplab::ui
