// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Owns one running ddplab-engine process: streams its stdout as batches of events (one signal
// per read, not per line), forwards its stderr, and stops it by asking first (SIGTERM, which
// makes the engine stop its workers) and killing it only if it does not go.

#include "client/engine/event_stream_parser.hpp"

#include <QObject>
#include <QProcess>
#include <QTimer>

namespace ddplab::ui {

// How the engine process ended.
struct EngineExit {
    int exitCode = -1;
    bool crashed = false;        // killed by a signal
    bool failedToStart = false;  // missing, not executable, not a program
    bool stopRequested = false;  // stop() was called
    QString message;             // for a person, when it did not simply exit
};

class EngineProcess : public QObject {
    Q_OBJECT

public:
    // After SIGTERM the engine gives its workers 2 s before killing them; this is its own grace.
    static constexpr int kStopGraceMs = 5000;

    explicit EngineProcess(QObject* parent = nullptr);
    ~EngineProcess() override;  // never leaves the engine running behind the window

    void start(const QString& program, const QStringList& arguments, const QString& workingDirectory = QString());
    // Started with a stdin of its own (`ddplab-engine runs` reads its requests there).
    void startWithInput(const QString& program, const QStringList& arguments);
    void writeInput(const QByteArray& bytes);
    void closeInput();  // end of input: the engine finishes what it does and exits
    void stop();
    // For closing the window: stop, wait up to `timeoutMs`, then kill.
    void stopAndWait(int timeoutMs);

    bool isRunning() const;
    qint64 processId() const;
    // An exit the event loop has not delivered yet (an idle engine that went a moment ago, its
    // connection dropped) is noticed now: `finished` is emitted before this returns.
    void noticeExit();

signals:
    void started();
    void eventsReceived(const QList<QJsonObject>& events);
    void outputWarning(const QString& message);
    void stderrReceived(const QByteArray& text);
    void finished(const ddplab::ui::EngineExit& exit);

private:
    void begin(const QString& program, const QStringList& arguments, const QString& workingDirectory, QIODevice::OpenMode mode);
    void readStandardOutput();
    void deliver(const StreamBatch& batch);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onErrorOccurred(QProcess::ProcessError error);

    QProcess m_process;
    EventStreamParser m_parser;
    QTimer m_killTimer;
    QString m_program;
    bool m_stopRequested = false;
};

}  // namespace ddplab::ui
