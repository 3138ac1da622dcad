// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The final figures of several runs side by side: what each was (ranks × batch, effective
// batch and LR, optimizer) and where it ended (the last epoch's mean loss and accuracy, the
// last evaluation, weight, update variance, noise scale, throughput). Where a run has no such
// figure, why, in a newcomer's words. Shown as a table in the window, printed headless.

#include <QList>
#include <QSharedPointer>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class RunData;

struct ComparisonRow {
    QString quantity;
    QStringList values;  // one per run, "" where the run has none
    QStringList notes;   // one per run: why it has none ("noise scale needs 2 ranks or more"), why its status is
                         // not "finished" ("its events end after step 6 ..."), or ""
};

struct Comparison {
    QStringList runLabels;
    QList<ComparisonRow> rows;  // only quantities at least one run has
};

Comparison compareRuns(const QList<QSharedPointer<RunData>>& runs);

// A fixed-width text table with one line per run (for stdout).
QString comparisonText(const Comparison& comparison);

}  // namespace ddplab::ui
