// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_process.hpp"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>

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

namespace {

// One `ddplab-engine runs` per test process runs the configs runConfig is given without flags:
// each is forked from a process that has loaded LibTorch already and runs through the same code
// as `run --config` (runFromFiles: the file read, checked and trained by runTraining), with its
// events on stdout and its words on stderr, then the session's run_end with the exit code. An
// engine's start costs about 1.1 s of CPU on the 2-core machine (its 288 libraries and
// LibTorch's registrations, docs/ci.md), a run forked from the session a fraction of it.
// A run that does not end within its time, or a session that dies, ends the session: the next
// run starts another.
class RunsSession {
public:
    std::optional<EngineResult> run(const QString& configPath, int timeoutMs)
    {
        const QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        if (m_process && (m_process->state() != QProcess::Running || m_environment != environment))
            end();
        if (!m_process && !start(environment))
            return std::nullopt;
        const QByteArray request = QJsonDocument(QJsonObject{{QStringLiteral("config"), configPath}}).toJson(QJsonDocument::Compact);
        m_process->write(request + '\n');
        EngineResult result;
        QByteArray runOutput;
        QDeadlineTimer deadline(timeoutMs);
        while (true) {
            const std::optional<QByteArray> line = nextLine(deadline);
            if (!line) {  // the session died or the run outlived its time: kill it like runEngine would
                runOutput += m_process->readAllStandardOutput();
                end();
                result.crashed = true;
                result.events = parseEvents(runOutput, &result.badLines);
                result.stderrText = m_stderr;
                return result;
            }
            const QJsonObject event = QJsonDocument::fromJson(*line).object();
            if (event.value(QStringLiteral("type")).toString() == QStringLiteral("run_end")) {
                result.exitCode = event.value(QStringLiteral("exit_code")).toInt(-1);
                break;
            }
            runOutput += *line + '\n';
        }
        // The run wrote stderr before it ended, and its end before run_end: what is in the pipe
        // now is all of it.
        m_process->waitForReadyRead(0);
        m_stderr += m_process->readAllStandardError();
        result.events = parseEvents(runOutput, &result.badLines);
        result.stderrText = m_stderr;
        m_stderr.clear();
        return result;
    }

private:
    bool start(const QProcessEnvironment& environment)
    {
        m_process = std::make_unique<QProcess>();
        m_environment = environment;
        m_process->setProcessEnvironment(environment);
        m_process->start(enginePath(), {QStringLiteral("runs")});
        QDeadlineTimer deadline(30000);
        const std::optional<QByteArray> hello = m_process->waitForStarted(30000) ? nextLine(deadline) : std::nullopt;
        if (!hello || !hello->contains("\"hello\"")) {
            end();
            return false;
        }
        m_stderr.clear();
        return true;
    }

    std::optional<QByteArray> nextLine(const QDeadlineTimer& deadline)
    {
        while (!m_process->canReadLine()) {
            if (deadline.hasExpired() || m_process->state() != QProcess::Running)
                return std::nullopt;
            m_process->waitForReadyRead(int(std::min<qint64>(deadline.remainingTime(), 1000)));
            m_stderr += m_process->readAllStandardError();
        }
        m_stderr += m_process->readAllStandardError();
        return m_process->readLine().chopped(1);
    }

    void end()
    {
        if (m_process) {
            m_process->kill();
            m_process->waitForFinished();
            m_stderr += m_process->readAllStandardError();
        }
        m_process.reset();
    }

    std::unique_ptr<QProcess> m_process;
    QProcessEnvironment m_environment;
    QByteArray m_stderr;
};

}  // namespace

EngineResult runConfig(const QJsonObject& config, const QStringList& extra)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QJsonDocument(config).toJson());
    file.close();
    if (extra.isEmpty()) {
        // Never destroyed: at the test's end its stdin closes and the session ends by itself.
        static RunsSession* session = new RunsSession;
        if (std::optional<EngineResult> result = session->run(path, 300000))
            return *result;
    }
    return runEngine(QStringList{QStringLiteral("run"), QStringLiteral("--config"), path} + extra);
}

namespace {

// Each config key's flag and type, as `ddplab-engine keys` says them (read once per test process).
const QJsonArray& engineKeys()
{
    static const QJsonArray keys = [] {
        QProcess process;
        process.start(enginePath(), {QStringLiteral("keys")});
        process.waitForFinished(60000);
        return QJsonDocument::fromJson(process.readAllStandardOutput()).array();
    }();
    return keys;
}

// The key a flag sets and the value it gives, moving `at` past what it read; no key when the flag
// is not one of the keys' or its value is not of the key's type.
std::optional<std::pair<QString, QJsonValue>> keyOfFlag(const QStringList& flags, qsizetype& at)
{
    const QString flag = flags.at(at++);
    for (const QJsonValue& entry : engineKeys()) {
        const QJsonObject key = entry.toObject();
        const QString name = key.value(QStringLiteral("key")).toString();
        const QString type = key.value(QStringLiteral("type")).toString();
        const QStringList spellings = key.value(QStringLiteral("flag")).toString().split(QStringLiteral(" / "));
        if (type == QStringLiteral("boolean") && spellings.contains(flag))
            return std::make_pair(name, QJsonValue(!flag.startsWith(QStringLiteral("--no-"))));
        if (spellings.first() != flag || at >= flags.size())
            continue;
        const QString value = flags.at(at++);
        bool isNumber = false;
        if (type == QStringLiteral("integer")) {
            const qlonglong number = value.toLongLong(&isNumber);
            return isNumber ? std::make_optional(std::make_pair(name, QJsonValue(number))) : std::nullopt;
        }
        if (type == QStringLiteral("number")) {
            const double number = value.toDouble(&isNumber);
            return isNumber ? std::make_optional(std::make_pair(name, QJsonValue(number))) : std::nullopt;
        }
        return std::make_pair(name, QJsonValue(value));
    }
    return std::nullopt;
}

}  // namespace

EngineResult runFlags(const QStringList& flags)
{
    QJsonObject config;
    for (qsizetype at = 0; at < flags.size();) {
        const std::optional<std::pair<QString, QJsonValue>> key = keyOfFlag(flags, at);
        if (!key)
            return runEngine(QStringList{QStringLiteral("run")} + flags);
        config.insert(key->first, key->second);
    }
    return runConfig(config);
}

EngineResult engineCommand(const QString& command, const QStringList& flags)
{
    return command == QStringLiteral("run") ? runFlags(flags) : runEngine(QStringList{command} + flags);
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
