// SPDX-License-Identifier: GPL-3.0-or-later
#include "forked_python.hpp"

#include "prerequisites.hpp"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace ddplab::test {

ForkedPython::~ForkedPython()
{
    if (m_python.state() == QProcess::NotRunning)
        return;
    m_python.closeWriteChannel();  // its stdin ends: it leaves
    if (!m_python.waitForFinished(10000)) {
        m_python.kill();
        m_python.waitForFinished();
    }
}

QByteArray ForkedPython::readLine(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!m_python.canReadLine()) {
        if (m_python.state() == QProcess::NotRunning || deadline.hasExpired())
            return {};
        m_python.waitForReadyRead(int(std::min<qint64>(deadline.remainingTime(), 1000)));
    }
    return m_python.readLine();
}

QString ForkedPython::start(const QString& tool)
{
    m_python.setProcessChannelMode(QProcess::ForwardedErrorChannel);  // its own errors reach the suite's log
    m_python.start(debianPython(), {tool});
    const QJsonObject ready = QJsonDocument::fromJson(readLine(120000)).object();
    if (ready.value(QStringLiteral("ready")).toBool())
        return QString();
    const QString missing = missingPythonTorch();
    return missing.isEmpty() ? QStringLiteral("%1 %2 did not say it was ready").arg(debianPython(), tool) : missing;
}

QList<PythonExit> ForkedPython::run(const QList<PythonProgram>& programs, int timeoutSeconds, bool* timedOut)
{
    QJsonArray processes;
    for (const PythonProgram& program : programs) {
        QJsonObject environment;
        for (const auto& [name, value] : program.environment)
            environment.insert(name, value);
        processes.append(QJsonObject{{QStringLiteral("argv"), QJsonArray::fromStringList(program.argv)},
                                     {QStringLiteral("env"), environment}});
    }
    const QJsonObject request{{QStringLiteral("processes"), processes}, {QStringLiteral("timeout_s"), timeoutSeconds}};
    m_python.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    // Its own timeout kills the programs; this one only catches the forking python3 itself stuck.
    const QJsonObject answer = QJsonDocument::fromJson(readLine((timeoutSeconds + 30) * 1000)).object();
    const QJsonArray exits = answer.value(QStringLiteral("processes")).toArray();
    if (timedOut)
        *timedOut = answer.value(QStringLiteral("timed_out")).toBool();
    QList<PythonExit> results;
    for (qsizetype i = 0; i < programs.size(); ++i) {
        if (exits.size() != programs.size()) {
            const QString why = m_python.state() == QProcess::NotRunning ? QStringLiteral("it ended") : QStringLiteral("it is stuck");
            results.append({-1, {}, QStringLiteral("the forking python3 gave no answer (%1)").arg(why)});
            continue;
        }
        const QJsonObject exit = exits[i].toObject();
        results.append({exit.value(QStringLiteral("code")).toInt(-1), exit.value(QStringLiteral("stdout")).toString(),
                        exit.value(QStringLiteral("stderr")).toString()});
    }
    return results;
}

PythonExit ForkedPython::run(const QStringList& argv, int timeoutSeconds)
{
    return run(QList<PythonProgram>{{argv, {}}}, timeoutSeconds).first();
}

QList<std::pair<QString, QString>> torchrunEnvironment(int rank, int worldSize, int port)
{
    const QString r = QString::number(rank), n = QString::number(worldSize);
    QList<std::pair<QString, QString>> environment{
        {QStringLiteral("LOCAL_RANK"), r}, {QStringLiteral("RANK"), r}, {QStringLiteral("GROUP_RANK"), QStringLiteral("0")},
        {QStringLiteral("ROLE_RANK"), r}, {QStringLiteral("ROLE_NAME"), QStringLiteral("default")},
        {QStringLiteral("LOCAL_WORLD_SIZE"), n}, {QStringLiteral("WORLD_SIZE"), n}, {QStringLiteral("GROUP_WORLD_SIZE"), QStringLiteral("1")},
        {QStringLiteral("ROLE_WORLD_SIZE"), n}, {QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1")},
        {QStringLiteral("MASTER_PORT"), QString::number(port)}, {QStringLiteral("TORCHELASTIC_RESTART_COUNT"), QStringLiteral("0")},
        {QStringLiteral("TORCHELASTIC_MAX_RESTARTS"), QStringLiteral("0")}, {QStringLiteral("TORCHELASTIC_RUN_ID"), QStringLiteral("none")},
        {QStringLiteral("TORCHELASTIC_USE_AGENT_STORE"), QStringLiteral("False")},
        {QStringLiteral("NCCL_ASYNC_ERROR_HANDLING"), QStringLiteral("1")}};
    if (worldSize > 1 && qEnvironmentVariableIsEmpty("OMP_NUM_THREADS"))
        environment.append({QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1")});  // torchrun's, for more than one rank
    return environment;
}

}  // namespace ddplab::test
