// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs that belong together in the Runs list: a study's runs under the study, a lesson's under
// the lesson, each group one collapsible row. Inside a group a run is named by what tells it
// from the others (its point of the study, its run of the lesson), the group's title left out.

#include "client/runs/run_record.hpp"

#include <QHash>
#include <QString>

namespace ddplab::ui {

// Titles of the studies and lessons runs belong to, by id; a group without one shows its id.
struct RunGroupTitles {
    QHash<QString, QString> studies;
    QHash<QString, QString> lessons;
};

// "" for a run of its own.
QString runGroupKey(const RunRecord& run);
QString runGroupTitle(const RunRecord& run, const RunGroupTitles& titles);
// "batch 64 · lr 0.004" of "batch 64 · lr 0.004 — A study" or "A study · batch 64 · lr 0.004".
QString nameInGroup(const QString& name, const QString& groupTitle);

}  // namespace ddplab::ui
