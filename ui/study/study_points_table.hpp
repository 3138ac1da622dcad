// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Study page's table of a study's runs, one row per run: its point and repeat, every swept
// key's value, its status (diverged with its step) and every figure a run of the study has, as
// study.csv has them. Sortable by any column, numbers as numbers; a figure a run does not have
// is an empty cell and sorts first.

#include "client/study/study_results.hpp"

#include <QTableWidget>

namespace ddplab::ui {

class StudyPointsTable : public QTableWidget {
    Q_OBJECT

public:
    explicit StudyPointsTable(QWidget* parent = nullptr);

    // The study's results so far; the sort the person chose is kept.
    void setResults(const StoredStudy& study, const QList<StudyRunResult>& results);
};

}  // namespace ddplab::ui
