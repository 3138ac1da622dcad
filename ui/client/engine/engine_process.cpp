// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_process.hpp"

#include "client/engine/child_lifetime.hpp"
#include "client/engine/engine_environment.hpp"

#include <QFileInfo>

#include <csignal>

namespace ddplab::ui {
namespace {

QString startFailureMessage(const QString& program, const QString& detail)
{
    const QFileInfo file(program);
    QString reason;
    if (program.isEmpty())
        reason = QStringLiteral("no engine path was given");
    else if (!file.exists())
        reason = QStringLiteral("there is no file at %1").arg(program);
    else if (file.isDir())
        reason = QStringLiteral("%1 is a folder, not the engine").arg(program);
    else if (!file.isExecutable())
        reason = QStringLiteral("%1 is not executable").arg(program);
    else
        reason = QStringLiteral("%1 could not be run (%2)").arg(program, detail);
    return QStringLiteral("Cannot start the training engine: %1. Build it (scripts/build.sh) or point the "
                          "DDPLAB_ENGINE environment variable or the --engine option at ddplab-engine.")
        .arg(reason);
}

}  // namespace

EngineProcess::EngineProcess(QObject* parent)
    : QObject(parent)
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    // A lab ended by a signal runs no destructor: the engine is then asked to stop as Stop asks
    // (SIGTERM: it stops its ranks and removes its run folders), not left training for no one.
    endWithLab(m_process, SIGTERM);
    m_killTimer.setSingleShot(true);
    connect(&m_process, &QProcess::started, this, &EngineProcess::started);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &EngineProcess::readStandardOutput);
    connect(&m_process, &QProcess::readyReadStandardError, this,
            [this] { emit stderrReceived(m_process.readAllStandardError()); });
    connect(&m_process, &QProcess::finished, this, &EngineProcess::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, &EngineProcess::onErrorOccurred);
    connect(&m_killTimer, &QTimer::timeout, this, [this] {
        if (m_process.state() != QProcess::NotRunning)
            m_process.kill();
    });
}

EngineProcess::~EngineProcess()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    // The window is going away: no one is left to read events. SIGKILL takes the workers down
    // too (they die with their launcher), so nothing of the run survives.
    disconnect(&m_process, nullptr, this, nullptr);
    m_process.kill();
    m_process.waitForFinished(3000);
}

void EngineProcess::start(const QString& program, const QStringList& arguments, const QString& workingDirectory)
{
    begin(program, arguments, workingDirectory, QIODevice::ReadOnly);
}

void EngineProcess::startWithInput(const QString& program, const QStringList& arguments)
{
    begin(program, arguments, QString(), QIODevice::ReadWrite);
}

void EngineProcess::begin(const QString& program, const QStringList& arguments, const QString& workingDirectory,
                          QIODevice::OpenMode mode)
{
    Q_ASSERT(m_process.state() == QProcess::NotRunning);
    m_program = program;
    m_parser = EventStreamParser();
    m_stopRequested = false;
    m_process.setWorkingDirectory(workingDirectory);
    m_process.setProcessEnvironment(engineEnvironment());
    m_process.start(program, arguments, mode);
}

void EngineProcess::writeInput(const QByteArray& bytes)
{
    if (m_process.state() != QProcess::NotRunning)
        m_process.write(bytes);  // buffered by QProcess until the engine has started
}

void EngineProcess::closeInput()
{
    if (m_process.state() != QProcess::NotRunning)
        m_process.closeWriteChannel();
}

void EngineProcess::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_stopRequested = true;
    m_process.terminate();
    if (!m_killTimer.isActive())
        m_killTimer.start(kStopGraceMs);
}

void EngineProcess::stopAndWait(int timeoutMs)
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    stop();
    if (!m_process.waitForFinished(timeoutMs)) {
        m_process.kill();
        m_process.waitForFinished(timeoutMs);
    }
}

bool EngineProcess::isRunning() const
{
    return m_process.state() != QProcess::NotRunning;
}

void EngineProcess::noticeExit()
{
    if (m_process.state() == QProcess::Running)
        m_process.waitForFinished(0);
}

qint64 EngineProcess::processId() const
{
    return m_process.processId();
}

void EngineProcess::readStandardOutput()
{
    deliver(m_parser.feed(m_process.readAllStandardOutput()));
}

void EngineProcess::deliver(const StreamBatch& batch)
{
    for (const QString& warning : batch.warnings)
        emit outputWarning(warning);
    if (!batch.events.isEmpty())
        emit eventsReceived(batch.events);
}

void EngineProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_killTimer.stop();
    // Whatever the pipes still hold belongs to this run.
    deliver(m_parser.feed(m_process.readAllStandardOutput()));
    deliver(m_parser.finish());
    const QByteArray lastStderr = m_process.readAllStandardError();
    if (!lastStderr.isEmpty())
        emit stderrReceived(lastStderr);

    EngineExit exit;
    exit.exitCode = exitCode;
    exit.crashed = status == QProcess::CrashExit;
    exit.stopRequested = m_stopRequested;
    if (exit.crashed) {
        exit.message = m_stopRequested ? QStringLiteral("The engine did not stop when asked and was killed.")
                                       : QStringLiteral("The engine was killed by a signal (it crashed or was killed from outside).");
    }
    emit finished(exit);
}

void EngineProcess::onErrorOccurred(QProcess::ProcessError error)
{
    // Crashes and other errors of a started process end in finished(); only a failed start does not.
    if (error != QProcess::FailedToStart)
        return;
    EngineExit exit;
    exit.failedToStart = true;
    exit.message = startFailureMessage(m_program, m_process.errorString());
    emit finished(exit);
}

}  // namespace ddplab::ui
