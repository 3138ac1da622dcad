#include "study_csv.hpp"

#include "client/wire.hpp"
#include "study/study_values.hpp"

#include <QRegularExpression>

namespace ddplab::ui {

QByteArray studyCsv(const StoredStudy& study, const QList<StudyRunResult>& results)
{
    const QStringList swept = axisKeys(study);
    // What every run was and where it ended; a column the study sweeps comes once, with the axes.
    // Columns named like the config keys and event fields they come from, so a reader can match them.
    const QStringList fixed{wire(key::kSeed), wire(key::kWorldSize), wire(key::kBatchSize),
                            QStringLiteral("effective_batch"), wire(key::kLr), wire(key::kLrRule),
                            QStringLiteral("effective_lr"), wire(key::kOptimizer)};
    QStringList header{QStringLiteral("point"), QStringLiteral("repeat")};
    header += swept;
    for (const QString& column : fixed) {
        if (!swept.contains(column))
            header.append(column);
    }
    header += {QStringLiteral("status"), QStringLiteral("loss_last_epoch"), QStringLiteral("accuracy_last_epoch"),
               wire(field::kValLoss), wire(field::kValAccuracy), wire(field::kUpdateVar), wire(field::kNoiseScale),
               wire(field::kWMean), wire(field::kSteps), wire(field::kSamples), QStringLiteral("steps_to_target"),
               QStringLiteral("samples_to_target"), wire(field::kWallS), QStringLiteral("run")};
    QByteArray csv = header.join(QLatin1Char(',')).toUtf8() + '\n';
    const auto quoted = [](QString text) {
        static const QRegularExpression kNeedsQuotes(QStringLiteral("[,\"\n]"));
        return text.contains(kNeedsQuotes) ? QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"')
                                           : text;
    };
    for (const StudyRunResult& result : results) {
        QStringList row{QString::number(result.point + 1), QString::number(result.repeat + 1)};
        for (const QString& key : swept)
            row.append(quoted(valueText(result.values.value(key))));
        const QStringList what{QString::number(result.seed), QString::number(result.worldSize), QString::number(result.batchSize),
                               QString::number(result.effectiveBatch), numberText(result.lr), quoted(result.lrRule),
                               numberText(result.effectiveLr), quoted(result.optimizer)};
        for (qsizetype i = 0; i < fixed.size(); ++i) {
            if (!swept.contains(fixed[i]))
                row.append(what[i]);
        }
        row += {statusText(result.status),
                numberText(result.loss), numberText(result.accuracy), numberText(result.valLoss), numberText(result.valAccuracy),
                numberText(result.updateVar), numberText(result.noiseScale), numberText(result.wMean), QString::number(result.steps),
                numberText(result.samples), result.stepsToTarget >= 0 ? QString::number(result.stepsToTarget) : QString(),
                numberText(result.samplesToTarget), numberText(result.wallSeconds), result.runId};
        csv += row.join(QLatin1Char(',')).toUtf8() + '\n';
    }
    return csv;
}

}  // namespace ddplab::ui
