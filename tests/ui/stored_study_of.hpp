// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A study as the results, charts and findings see it, from the JSON text of a study file:
// read, planned, and given the id "test" (as if stored). A file that is refused says why on
// the test's log and gives an empty study. And a run of one of its points that finished its
// 100 steps, for the suites to fill in with what they measure.

#include "client/study/study_file.hpp"
#include "client/study/study_plan.hpp"
#include "client/study/study_results.hpp"
#include "client/study/study_store.hpp"

#include <QJsonDocument>

namespace ddplab::test {

inline ddplab::ui::StoredStudy studyOf(const QByteArray& json)
{
    using namespace ddplab::ui;
    const StudyReadResult read = parseStudy(QJsonDocument::fromJson(json).object(), QStringLiteral("test"), QString());
    StoredStudy study;
    if (!read.spec)
        qWarning("%s", qPrintable(read.error));
    study.spec = read.spec.value_or(StudySpec());
    study.points = planStudy(study.spec).points;
    study.id = QStringLiteral("test");
    return study;
}

inline ddplab::ui::StudyRunResult finishedRunOf(const ddplab::ui::StudyPoint& point)
{
    using namespace ddplab::ui;
    StudyRunResult result;
    result.point = point.index;
    result.repeat = point.repeat;
    result.values = point.values;
    result.status = RunStatus::Finished;
    result.worldSize = point.config.value(QStringLiteral("world_size")).toInteger(1);
    result.batchSize = point.config.value(QStringLiteral("batch_size")).toInteger();
    result.effectiveBatch = result.worldSize * result.batchSize;
    result.steps = 100;
    return result;
}

}  // namespace ddplab::test
