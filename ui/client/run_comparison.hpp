#pragma once
// The final figures of several runs side by side: what each was (ranks × batch, effective
// batch and LR, optimizer) and where it ended (loss, accuracy, weight, update variance, noise
// scale, throughput). Shown as a table in the window and printed by the command line.

#include <QList>
#include <QSharedPointer>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class RunData;

struct ComparisonRow {
    QString quantity;
    QStringList values;  // one per run, "" where the run has none
};

struct Comparison {
    QStringList runLabels;
    QList<ComparisonRow> rows;  // only quantities at least one run has
};

Comparison compareRuns(const QList<QSharedPointer<RunData>>& runs);

// A fixed-width text table with one line per run (for stdout).
QString comparisonText(const Comparison& comparison);

}  // namespace ddplab::ui
