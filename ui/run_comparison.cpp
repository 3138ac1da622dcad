#include "run_comparison.hpp"

#include "run_data.hpp"

#include <QJsonObject>

#include <functional>

namespace ddplab::ui {
namespace {

QString number(const QJsonValue& value)
{
    return value.isDouble() ? QString::number(value.toDouble(), 'g', 5) : QString();
}

// The summary's figure when the run finished, else the last streamed value.
QString finalValue(const RunData& run, const QString& field)
{
    if (run.summary().value(field).isDouble())
        return number(run.summary().value(field));
    const QList<QPointF>& series = run.series(field);
    return series.isEmpty() ? QString() : QString::number(series.last().y(), 'g', 5);
}

struct Quantity {
    const char* title;
    std::function<QString(const RunData&)> value;
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
    return {
        {"status", [](const RunData& run) { return statusText(run.record().status); }},
        {"ranks × batch",
         [](const RunData& run) {
             const QJsonObject config = run.effectiveConfig();
             if (!config.contains(QStringLiteral("world_size")) || !config.contains(QStringLiteral("batch_size")))
                 return QString();
             return QStringLiteral("%1 × %2")
                 .arg(config.value(QStringLiteral("world_size")).toInt())
                 .arg(config.value(QStringLiteral("batch_size")).toInt());
         }},
        {"effective batch", config("effective_batch_size")},
        {"LR rule", config("lr_rule")},
        {"effective LR", config("lr_effective")},
        {"optimizer", config("optimizer")},
        {"steps", [](const RunData& run) { return run.stepCount() > 0 ? QString::number(run.stepCount()) : QString(); }},
        {"loss", final("loss")},
        {"accuracy", final("accuracy")},
        {"val loss", final("val_loss")},
        {"val accuracy", final("val_accuracy")},
        {"w", final("w_mean")},
        {"update var", [](const RunData& run) { return number(run.summary().value(QStringLiteral("update_var"))); }},
        {"noise scale", final("noise_scale")},
        {"samples/s", [](const RunData& run) { return number(run.summary().value(QStringLiteral("samples_per_sec"))); }},
        {"wall s", [](const RunData& run) { return number(run.summary().value(QStringLiteral("wall_s"))); }},
    };
}

}  // namespace

Comparison compareRuns(const QList<QSharedPointer<RunData>>& runs)
{
    Comparison comparison;
    for (const auto& run : runs)
        comparison.runLabels.append(run->label());
    for (const Quantity& quantity : quantities()) {
        ComparisonRow row{QString::fromUtf8(quantity.title), {}};
        bool any = false;
        for (const auto& run : runs) {
            row.values.append(quantity.value(*run));
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
    return text;
}

}  // namespace ddplab::ui
