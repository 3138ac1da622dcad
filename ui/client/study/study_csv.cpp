// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_csv.hpp"

#include "client/io/csv_writer.hpp"
#include "client/study/study_values.hpp"
#include "client/wire.hpp"

namespace ddplab::ui {

QByteArray studyCsv(const StoredStudy& study, const QList<StudyRunResult>& results)
{
    const QStringList swept = axisKeys(study);
    // What every run was and where it ended; a column the study sweeps comes once, with the axes.
    // Columns named like the config keys and event fields they come from, so a reader can match them.
    const QStringList fixed{wire(key::kSeed), wire(key::kWorldSize), wire(key::kBatchSize),
                            wire(field::kEffectiveBatch), wire(key::kLr), wire(key::kLrRule),
                            QStringLiteral("effective_lr"), wire(key::kOptimizer)};
    QStringList header{QStringLiteral("point"), QStringLiteral("repeat")};
    header += swept;
    for (const QString& column : fixed) {
        if (!swept.contains(column))
            header.append(column);
    }
    header += {QStringLiteral("status"), QStringLiteral("loss_last_epoch"), QStringLiteral("accuracy_last_epoch"),
               wire(field::kValLoss), wire(field::kValAccuracy), wire(field::kUpdateVar), wire(field::kNoiseScale),
               wire(field::kWMean), wire(field::kSteps), wire(field::kSamples), kStepsToTargetFigure,
               kSamplesToTargetFigure, wire(field::kWallS), QStringLiteral("run")};
    CsvWriter csv(header);
    const auto number = &CsvWriter::number;
    for (const StudyRunResult& result : results) {
        QStringList row{QString::number(result.point + 1), QString::number(result.repeat + 1)};
        for (const QString& key : swept)
            row.append(valueText(result.values.value(key)));
        const QStringList what{QString::number(result.seed), QString::number(result.worldSize), QString::number(result.batchSize),
                               QString::number(result.effectiveBatch), number(result.lr), result.lrRule,
                               number(result.effectiveLr), result.optimizer};
        for (qsizetype i = 0; i < fixed.size(); ++i) {
            if (!swept.contains(fixed[i]))
                row.append(what[i]);
        }
        row += {statusText(result.status),
                number(result.loss), number(result.accuracy), number(result.valLoss), number(result.valAccuracy),
                number(result.updateVar), number(result.noiseScale), number(result.wMean), QString::number(result.steps),
                number(result.samples), result.stepsToTarget >= 0 ? QString::number(result.stepsToTarget) : QString(),
                number(result.samplesToTarget), number(result.wallSeconds), result.runId};
        csv.addRow(row);
    }
    return csv.contents();
}

}  // namespace ddplab::ui
