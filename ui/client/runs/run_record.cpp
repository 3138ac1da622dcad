// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_record.hpp"

#include "client/wire.hpp"

#include <QDir>

namespace ddplab::ui {

QJsonObject RunRecord::toMetaJson() const
{
    QJsonObject meta;
    meta.insert(QStringLiteral("name"), name);
    meta.insert(QStringLiteral("label"), label);
    meta.insert(QStringLiteral("lesson"), lessonId);
    if (!studyId.isEmpty()) {
        meta.insert(QStringLiteral("study"), studyId);
        meta.insert(QStringLiteral("study_point"), studyPoint);
    }
    if (!host.isEmpty())
        meta.insert(QStringLiteral("host"), host);  // where it ran: the SSH host
    meta.insert(QStringLiteral("status"), statusText(status));
    meta.insert(QStringLiteral("exit_code"), exitCode);
    meta.insert(QStringLiteral("error"), error);
    if (divergedAtStep >= 0)
        meta.insert(QStringLiteral("diverged_at_step"), divergedAtStep);
    meta.insert(QStringLiteral("started"), started.toString(Qt::ISODateWithMs));
    meta.insert(QStringLiteral("finished"), finished.isValid() ? finished.toString(Qt::ISODateWithMs) : QString());
    meta.insert(QStringLiteral("engine_pid"), enginePid);
    meta.insert(QStringLiteral("steps"), steps);
    if (trainSeconds >= 0)
        meta.insert(wire(field::kWallS), trainSeconds);
    if (stepsSeconds >= 0)
        meta.insert(wire(field::kTrainS), stepsSeconds);
    return meta;
}

RunRecord RunRecord::fromMetaJson(const QJsonObject& meta, const QString& directory)
{
    RunRecord record;
    record.directory = directory;
    record.id = QDir(directory).dirName();
    record.name = meta.value(QStringLiteral("name")).toString(record.id);
    record.label = meta.value(QStringLiteral("label")).toString();
    record.lessonId = meta.value(QStringLiteral("lesson")).toString();
    record.studyId = meta.value(QStringLiteral("study")).toString();
    record.studyPoint = meta.value(QStringLiteral("study_point")).toInt(-1);
    record.host = meta.value(QStringLiteral("host")).toString();
    record.status = statusNamed(meta.value(QStringLiteral("status")).toString());
    record.exitCode = meta.value(QStringLiteral("exit_code")).toInt(-1);
    record.error = meta.value(QStringLiteral("error")).toString();
    record.divergedAtStep = meta.value(QStringLiteral("diverged_at_step")).toInteger(-1);
    record.started = QDateTime::fromString(meta.value(QStringLiteral("started")).toString(), Qt::ISODateWithMs);
    record.finished = QDateTime::fromString(meta.value(QStringLiteral("finished")).toString(), Qt::ISODateWithMs);
    record.enginePid = meta.value(QStringLiteral("engine_pid")).toInteger();
    record.steps = meta.value(QStringLiteral("steps")).toInteger();
    record.trainSeconds = meta.value(wire(field::kWallS)).toDouble(-1.0);
    record.stepsSeconds = meta.value(wire(field::kTrainS)).toDouble(-1.0);
    return record;
}

QString RunRecord::statusLine() const
{
    return ui::statusLine(status, divergedAtStep);
}

QString defaultRunName(const QJsonObject& config)
{
    // What tells one run from the next first (ranks, batch, LR): a narrow list cuts the end.
    QString name = QStringLiteral("%1×%2 · lr %3")
                       .arg(config.value(wire(key::kWorldSize)).toInt())
                       .arg(config.value(wire(key::kBatchSize)).toInt())
                       .arg(config.value(wire(key::kLr)).toDouble(), 0, 'g', 4);
    const QString rule = config.value(wire(key::kLrRule)).toString();
    if (!rule.isEmpty() && rule != wire(choice::lr_rule::kNone))
        name += QLatin1Char(' ') + rule;
    const QString optimizer = config.value(wire(key::kOptimizer)).toString();
    if (!optimizer.isEmpty() && optimizer != wire(choice::optimizer::kSgd))
        name += QLatin1Char(' ') + optimizer;
    return name + QStringLiteral(" · ") + config.value(wire(key::kWorkload)).toString();
}

}  // namespace ddplab::ui
