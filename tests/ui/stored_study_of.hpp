#pragma once
// A study as the results, charts and findings see it, from the JSON text of a study file:
// read, planned, and given the id "test" (as if stored). A file that is refused says why on
// the test's log and gives an empty study.

#include "study/study_plan.hpp"
#include "study/study_store.hpp"

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

}  // namespace ddplab::test
