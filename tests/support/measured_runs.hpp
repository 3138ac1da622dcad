// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs stored as if they had run on a machine of known speed, for the estimator's suites
// (tst_study_estimate, tst_machine_speed): what MachineSpeed::measure then says is checked
// against the factors they were stored at.

#include "client/library/preset_file.hpp"
#include "client/runs/run_status.hpp"
#include "client/runs/run_store.hpp"
#include "client/study/study_estimate.hpp"

#include <QDateTime>
#include <QFile>
#include <QJsonObject>
#include <QTest>

namespace ddplab::ui {

// Finished runs stored one after another, each as having taken `train`, `evaluations` and
// `startUp` times the constants' seconds of its training steps, its evaluations and its start-up.
class MeasuredRuns {
public:
    explicit MeasuredRuns(const QString& folder) : m_store(folder) {}
    const RunStore& store() const { return m_store; }

    // Runs stored from now on say their training steps' seconds apart (the summary's train_s),
    // as the lab stores them since 2026-12-02; before, only their steps' and evaluations' together.
    void sayTheirTrainingSteps() { m_sayTrainingSteps = true; }

    void add(const QJsonObject& settings, double train, double evaluations, double startUp)
    {
        addTaking(settings, train, evaluations, runParts(*coreConfigOf(settings)).startSeconds * startUp);
    }

    // The same, its start-up taking `startUpSeconds`.
    void addTaking(const QJsonObject& settings, double train, double evaluations, double startUpSeconds)
    {
        const RunParts cost = runParts(*coreConfigOf(settings));
        const double steps = (cost.stepSeconds - cost.evaluationSeconds) * train;
        addFinished(settings, steps + cost.evaluationSeconds * evaluations, startUpSeconds, 0, m_sayTrainingSteps ? steps : -1.0);
    }

    // A finished run of `settings` that trained for `trainSeconds` after a start-up of
    // `startUpSeconds`: `stepsTrained` when it stopped before its last step (0: it ran them all),
    // `stepsSeconds` its training steps' share when its summary said it (-1: not said).
    void addFinished(const QJsonObject& settings, double trainSeconds, double startUpSeconds, qint64 stepsTrained = 0,
                     double stepsSeconds = -1.0)
    {
        RunRecord draft;
        draft.name = QStringLiteral("run %1").arg(m_made);
        QString error;
        std::optional<RunRecord> run = m_store.createRun(draft, *coreConfigOf(settings), &error);
        QVERIFY2(run, qPrintable(error));
        run->status = RunStatus::Finished;
        run->steps = stepsTrained;
        run->started = m_start.addSecs(100 * m_made++);
        run->trainSeconds = trainSeconds;
        run->stepsSeconds = stepsSeconds;
        run->finished = run->started.addMSecs(qint64((trainSeconds + startUpSeconds) * 1000));
        QVERIFY2(m_store.saveMeta(*run, &error), qPrintable(error));
        QFile events(RunStore::eventsPath(*run));  // a finished run's stream: hello first, summary last
        QVERIFY(events.open(QIODevice::WriteOnly));
        events.write("{\"type\":\"hello\"}\n{\"type\":\"summary\"}\n");
    }

private:
    RunStore m_store;
    const QDateTime m_start = QDateTime::currentDateTimeUtc();
    int m_made = 0;
    bool m_sayTrainingSteps = false;
};

}  // namespace ddplab::ui
