// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_comparison.hpp"

#include "client/runs/run_data.hpp"
#include "client/runs/why_no_data.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/wire.hpp"

#include <QJsonObject>

#include <cmath>
#include <functional>

namespace ddplab::ui {
namespace {

QString number(const QJsonValue& value)
{
    return value.isDouble() ? QString::number(value.toDouble(), 'g', 5) : QString();
}

QString number(double value)
{
    return QString::number(value, 'g', 5);
}

// The summary's figure when the run finished, else the last streamed value.
QString finalValue(const RunData& run, const QString& field)
{
    if (run.summary().value(field).isDouble())
        return number(run.summary().value(field));
    const double last = run.lastValue(field);
    return std::isfinite(last) ? number(last) : QString();
}

// The mean over the last epoch (a single mini-batch's figure is noise); a run stopped before
// its first epoch ended says its last step's, and says so.
QString lastEpochMean(const RunData& run, const QString& field)
{
    bool fromLastStep = false;
    const double mean = run.lastEpochMean(field, &fromLastStep);
    if (!std::isfinite(mean))
        return QString();
    return fromLastStep ? QObject::tr("%1 (last step)").arg(number(mean)) : number(mean);
}

struct Quantity {
    const char* title;
    std::function<QString(const RunData&)> value;
    const char* metric = nullptr;  // what to ask whyNoMetric about when a run has no value
    std::function<QString(const RunData&)> note = nullptr;  // said beside a value (why a run is not finished)
};

QList<Quantity> quantities()
{
    const auto config = [](const char* key) {
        return [key](const RunData& run) {
            const QJsonValue value = run.effectiveConfig().value(QLatin1String(key));
            return value.isString() ? value.toString() : number(value);
        };
    };
    const auto final = [](const char* field) {
        return [field](const RunData& run) { return finalValue(run, QLatin1String(field)); };
    };
    const auto epochMean = [](const char* field) {
        return [field](const RunData& run) { return lastEpochMean(run, QLatin1String(field)); };
    };
    return {
        {"status", [](const RunData& run) { return run.record().statusLine(); }, nullptr,
         [](const RunData& run) {
             const RunRecord& record = run.record();
             return record.status == RunStatus::Finished || record.error == statusText(record.status) ? QString() : record.error;
         }},
        {"ranks × batch",
         [](const RunData& run) {
             const QJsonObject config = run.effectiveConfig();
             if (!config.contains(wire(key::kWorldSize)) || !config.contains(wire(key::kBatchSize)))
                 return QString();
             return QStringLiteral("%1 × %2")
                 .arg(config.value(wire(key::kWorldSize)).toInt())
                 .arg(config.value(wire(key::kBatchSize)).toInt());
         }},
        {"effective batch",
         [config](const RunData& run) {
             // A batch that grew (batch_schedule): where it started and where it ended.
             const QString start = config(field::kEffectiveBatchSize)(run);
             if (run.batchChanges().isEmpty())
                 return start;
             return QStringLiteral("%1 → %2").arg(start, number(run.batchChanges().last().effectiveBatch));
         }},
        {"LR rule", config(key::kLrRule)},
        {"effective LR", config(field::kLrEffective)},
        {"optimizer", config(key::kOptimizer)},
        {"steps taken", [](const RunData& run) { return run.stepCount() > 0 ? QString::number(run.stepCount()) : QString(); }},
        {"loss, last epoch's mean", epochMean(field::kLoss), field::kLoss},
        {"accuracy, last epoch's mean", epochMean(field::kAccuracy), field::kAccuracy},
        {"val loss, last evaluation", final(field::kValLoss), field::kValLoss},
        {"val accuracy, last evaluation", final(field::kValAccuracy), field::kValAccuracy},
        {"w", final(field::kWMean), field::kWMean},
        {"update var", [](const RunData& run) { return number(run.summary().value(wire(field::kUpdateVar))); }, field::kUpdateVar},
        {"noise scale", final(field::kNoiseScale), field::kNoiseScale},
        {"samples/s", [](const RunData& run) { return number(run.summary().value(wire(field::kSamplesPerSec))); }},
        {"wall s", [](const RunData& run) { return number(run.summary().value(wire(field::kWallS))); }},
    };
}

}  // namespace

Comparison compareRuns(const QList<QSharedPointer<RunData>>& runs)
{
    Comparison comparison;
    for (const auto& run : runs)
        comparison.runLabels.append(run->label());
    for (const Quantity& quantity : quantities()) {
        ComparisonRow row{QString::fromUtf8(quantity.title), {}, {}};
        bool any = false;
        for (const auto& run : runs) {
            row.values.append(quantity.value(*run));
            if (row.values.last().isEmpty() && quantity.metric)
                row.notes.append(whyNoMetric(QLatin1String(quantity.metric), *run));
            else
                row.notes.append(quantity.note ? quantity.note(*run) : QString());
            any = any || !row.values.last().isEmpty();
        }
        if (any)
            comparison.rows.append(row);
    }
    return comparison;
}

QString comparisonText(const Comparison& comparison)
{
    // Columns: the run label, then one per quantity; each as wide as its widest cell.
    QList<QStringList> table;
    QStringList header{QStringLiteral("run")};
    for (const ComparisonRow& row : comparison.rows)
        header.append(row.quantity);
    table.append(header);
    for (qsizetype run = 0; run < comparison.runLabels.size(); ++run) {
        QStringList line{comparison.runLabels.at(run)};
        for (const ComparisonRow& row : comparison.rows)
            line.append(row.values.value(run).isEmpty() ? QStringLiteral("-") : row.values.value(run));
        table.append(line);
    }
    // Reasons beside values (a run that is not finished) follow the table, one line each.
    QStringList reasons;
    for (const ComparisonRow& row : comparison.rows) {
        for (qsizetype run = 0; run < comparison.runLabels.size(); ++run) {
            if (!row.values.value(run).isEmpty() && !row.notes.value(run).isEmpty())
                reasons.append(QStringLiteral("%1: %2 (%3)").arg(comparison.runLabels.at(run), row.values.value(run), row.notes.value(run)));
        }
    }
    QList<qsizetype> widths(header.size(), 0);
    for (const QStringList& line : table) {
        for (qsizetype column = 0; column < line.size(); ++column)
            widths[column] = std::max(widths[column], line.at(column).size());
    }
    QString text;
    for (qsizetype index = 0; index < table.size(); ++index) {
        const QStringList& line = table.at(index);
        QStringList cells;
        for (qsizetype column = 0; column < line.size(); ++column)
            cells.append(column == 0 ? line.at(column).leftJustified(widths[column]) : line.at(column).rightJustified(widths[column]));
        text += cells.join(QStringLiteral("  ")).trimmed() + QLatin1Char('\n');
        if (index == 0) {
            qsizetype total = 0;
            for (const qsizetype width : widths)
                total += width + 2;
            text += QString(total - 2, QLatin1Char('-')) + QLatin1Char('\n');
        }
    }
    for (const QString& reason : reasons)
        text += reason + QLatin1Char('\n');
    return text;
}

}  // namespace ddplab::ui
