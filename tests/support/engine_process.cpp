// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_process.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace ddplab::test {

QString enginePath()
{
    const QByteArray fromEnvironment = qgetenv("DDPLAB_ENGINE");
    return fromEnvironment.isEmpty() ? QStringLiteral(DDPLAB_ENGINE_PATH) : QString::fromLocal8Bit(fromEnvironment);
}

QList<QJsonObject> parseEvents(const QByteArray& text, QList<QByteArray>* badLines)
{
    QList<QJsonObject> events;
    for (const QByteArray& line : text.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject()) {
            if (badLines)
                badLines->append(line);
            continue;
        }
        events.append(document.object());
    }
    return events;
}

QList<QJsonObject> readEventsFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? parseEvents(file.readAll()) : QList<QJsonObject>();
}

QList<QJsonObject> EngineResult::ofType(const QString& type) const
{
    QList<QJsonObject> matching;
    for (const QJsonObject& event : events) {
        if (event.value(QStringLiteral("type")).toString() == type)
            matching.append(event);
    }
    return matching;
}

QJsonObject EngineResult::first(const QString& type) const
{
    const auto matching = ofType(type);
    return matching.isEmpty() ? QJsonObject() : matching.first();
}

QJsonObject EngineResult::last(const QString& type) const
{
    const auto matching = ofType(type);
    return matching.isEmpty() ? QJsonObject() : matching.last();
}

QString EngineResult::summaryText() const
{
    QString text = QStringLiteral("exit code %1%2; stderr: %3").arg(exitCode).arg(crashed ? QStringLiteral(" (crashed)") : QString())
                       .arg(QString::fromLocal8Bit(stderrText.right(2000)));
    if (!events.isEmpty())
        text += QStringLiteral("; last event: ") + QString::fromUtf8(QJsonDocument(events.last()).toJson(QJsonDocument::Compact));
    return text;
}

EngineResult collect(QProcess& process)
{
    EngineResult result;
    result.crashed = process.exitStatus() == QProcess::CrashExit;
    result.exitCode = process.exitCode();
    result.events = parseEvents(process.readAllStandardOutput(), &result.badLines);
    result.stderrText = process.readAllStandardError();
    return result;
}

EngineResult runEngine(const QStringList& arguments, int timeoutMs, const QProcessEnvironment& environment)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(enginePath(), arguments);
    EngineResult result;
    if (!process.waitForStarted(30000)) {
        result.stderrText = "could not start " + enginePath().toLocal8Bit();
        return result;
    }
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    return collect(process);
}

EngineResult runConfig(const QJsonObject& config, const QStringList& extra)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QJsonDocument(config).toJson());
    file.close();
    return runEngine(QStringList{QStringLiteral("run"), QStringLiteral("--config"), path} + extra);
}

QJsonObject withOverrides(QJsonObject config, const QJsonObject& overrides)
{
    for (auto it = overrides.begin(); it != overrides.end(); ++it)
        config.insert(it.key(), it.value());
    return config;
}

QList<double> stepValues(const EngineResult& result, const QString& field)
{
    QList<double> values;
    for (const QJsonObject& step : result.ofType(QStringLiteral("step")))
        values.append(step.value(field).toDouble());
    return values;
}

QList<double> stepValues(const EngineResult& result, const char* field)
{
    return stepValues(result, QString::fromLatin1(field));
}

double maxRelativeDifference(const QList<double>& a, const QList<double>& b)
{
    if (a.size() != b.size() || a.isEmpty())
        return std::nan("");
    double worst = 0;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const double difference = std::fabs(a[i] - b[i]) / std::max(1e-12, std::fabs(b[i]));
        if (std::isnan(difference))  // a NaN anywhere: no comparison of the two holds
            return difference;
        worst = std::max(worst, difference);
    }
    return worst;
}

}  // namespace ddplab::test
