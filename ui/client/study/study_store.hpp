// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Study folders under the user's data location (AppDataLocation/studies/<id>/):
//   study.json  the study as it was run (its base settings included, so it stands alone)
//   plan.json   every point: its values and the whole config its run gets
//   runner.lock while a runner runs it (StudyRunner): which process, on which host
// The runs themselves are ordinary runs (RunStore), each marked with its study and point, so
// the Runs list, the charts and the exports treat them like any other. A study interrupted at
// any moment resumes from these files: points with a finished (or failed) run are done.

#include "client/runs/run_status.hpp"
#include "client/study/study_plan.hpp"
#include "client/study/study_spec.hpp"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace ddplab::ui {

class RunStore;
struct RunRecord;

struct StoredStudy {
    QString id;         // the folder's name
    QString directory;
    StudySpec spec;
    QList<StudyPoint> points;
    QDateTime created;
    QString title() const { return spec.title.isEmpty() ? spec.id : spec.title; }
};

class StudyStore {
public:
    explicit StudyStore(QString root = defaultRoot());
    static QString defaultRoot();
    const QString& root() const { return m_root; }

    std::optional<StoredStudy> create(const StudySpec& spec, const StudyPlan& plan, QString* error) const;
    // A folder (or a folder's name under the root) read back; `error` says what is wrong.
    std::optional<StoredStudy> open(const QString& idOrDirectory, QString* error) const;
    // Newest first; folders that cannot be read are skipped (`problems` says which and why).
    QList<StoredStudy> list(QStringList* problems = nullptr) const;

    // The lock file a runner holds while it runs the study (StudyRunner).
    static QString lockPath(const StoredStudy& study);

    // The study's runs among `runs`, by point (the latest run of each point).
    static QHash<int, RunRecord> latestRuns(const StoredStudy& study, const QList<RunRecord>& runs);
    // The points still to run: no run, or one that was cancelled or interrupted.
    static QList<StudyPoint> pointsToRun(const StoredStudy& study, const QList<RunRecord>& runs);
    // Whether a run with this status is a result of its point (finished, diverged or failed) or
    // has to run again (cancelled, interrupted).
    static bool isDone(RunStatus status);

private:
    QString m_root;
};

}  // namespace ddplab::ui
