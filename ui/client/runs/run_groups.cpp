// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_groups.hpp"

namespace ddplab::ui {
namespace {

// The separators run names put between a run's own part and its group's title: " — " for
// lessons and studies now, " · " before the title for studies run by earlier versions.
const QString kTitleAfter = QStringLiteral(" — ");
const QString kTitleBefore = QStringLiteral(" · ");

}  // namespace

QString runGroupKey(const RunRecord& run)
{
    if (run.belongsToStudy())
        return QStringLiteral("study:") + run.studyId;
    if (!run.lessonId.isEmpty())
        return QStringLiteral("lesson:") + run.lessonId;
    return QString();
}

QString runGroupTitle(const RunRecord& run, const RunGroupTitles& titles)
{
    if (run.belongsToStudy())
        return titles.studies.value(run.studyId, run.studyId);
    if (!run.lessonId.isEmpty())
        return titles.lessons.value(run.lessonId, run.lessonId);
    return QString();
}

QString nameInGroup(const QString& name, const QString& groupTitle)
{
    if (groupTitle.isEmpty())
        return name;
    if (name.endsWith(kTitleAfter + groupTitle) && name.size() > kTitleAfter.size() + groupTitle.size())
        return name.chopped(kTitleAfter.size() + groupTitle.size());
    if (name.startsWith(groupTitle + kTitleBefore) && name.size() > kTitleBefore.size() + groupTitle.size())
        return name.mid(groupTitle.size() + kTitleBefore.size());
    return name;  // renamed: the person's own words
}

}  // namespace ddplab::ui
