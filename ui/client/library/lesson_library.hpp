// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Lessons (resources/lessons/<id>.json + <id>.md, compiled in under :/lessons/): a short
// explanation, what to look for, the charts to watch, and runs to launch in sequence and
// overlay. The set is discovered from the folder, so a new lesson file needs no code.

#include "client/series/x_axis.hpp"
#include "core/shard_request.hpp"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace ddplab::ui {

struct LessonRun {
    QString label;
    QJsonObject config;  // engine keys; unset keys take the engine's defaults
    // "checkpoint_at" ("every 10", "40"): the steps after which it writes a checkpoint, into its
    // own run folder (a lesson cannot know that folder beforehand).
    QString checkpointAt;
    // "resume_from_run": a branch or a resumption: it starts from the last checkpoint the
    // lesson's run at this index (0: the first; one before it, with checkpoint_at) wrote. -1: none.
    int resumeFromRun = -1;
    // "expect": "failed": meant to fail (a rank killed on purpose); its failure is the lesson's.
    bool meantToFail = false;
};

struct Lesson {
    QString id;
    QString title;
    QString source;   // which seed it comes from
    QString summary;
    QString lookFor;
    // "predict": the question a class answers before the runs are shown (View → Predict First).
    QString prediction;
    QString explanationMarkdown;
    // Metric names. The first is the lesson's lead chart: the one its point is seen on, enlarged
    // in presentation mode whenever the lesson starts.
    QStringList charts;
    // The x axis the lesson's point needs ("x_axis"): e.g. epochs for runs of unlike batches.
    // Always set (steps when the file says nothing), so a lesson never inherits the axis the
    // one before it left.
    std::optional<XAxis> xAxis = XAxis::Step;
    // "sharding": what the Sharding page is set to when the lesson is chosen, in the engine's own
    // `shard` request (the keys num_examples, world_size, batch_size, shuffle, drop_last, seed).
    std::optional<ShardRequest> sharding;
    QList<LessonRun> runs;
    // What holds instead where a run has more ranks than this computer has cores
    // ("when_ranks_exceed_cores"): a lesson about speed must not promise what the runs cannot show.
    QString fewerCoresNote;
    // "throughput_model": {"bandwidth_gb_per_s": 10, "link": "..."}: the throughput chart draws a
    // model of as many GPUs as each run has ranks (client/runs/throughput_model.hpp), at that
    // bandwidth between them. 0: none.
    double modelBandwidthBytesPerSecond = 0.0;
    QString modelLink;
};

// "seed 004 · Adam at a larger effective batch": how the Lessons menu and the Lesson pane's
// chooser name a lesson: its source up to the first comma or bracket ("seed 004, Malladi et al.
// 2022" is "seed 004"), then its title.
QString lessonMenuTitle(const Lesson& lesson);

// The lesson's note for a computer with `cores` cores, or "" where its runs' ranks fit them:
// "On this computer (2 cores for up to 4 ranks): ..." (ranks as CPU processes share the cores).
QString machineNote(const Lesson& lesson, int cores);

class LessonLibrary {
public:
    static constexpr const char* kResourceFolder = ":/lessons";

    // Every *.json lesson in `folder`, sorted by id; files that are not lessons are reported.
    static LessonLibrary load(const QString& folder = QString::fromLatin1(kResourceFolder));
    // One lesson file anywhere (`ddplab --preset path/to/lesson.json`).
    static std::optional<Lesson> loadFile(const QString& path, QString* error);

    const QList<Lesson>& lessons() const { return m_lessons; }
    const Lesson* find(const QString& id) const;
    QStringList ids() const;
    const QStringList& problems() const { return m_problems; }

private:
    QList<Lesson> m_lessons;
    QStringList m_problems;
};

}  // namespace ddplab::ui
