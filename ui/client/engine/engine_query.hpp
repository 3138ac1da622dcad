// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One-shot engine subcommands, run asynchronously so the window never waits on LibTorch's
// start-up: `devices` and `shard` print a single JSON document; `inspect` prints its answer as
// one event among lines a user's model may print too (an answer type picks it out).

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QStringList>

namespace ddplab::ui {

struct QueryResult {
    bool ok = false;
    QJsonObject object;  // also when !ok, if the program printed one (inspect's error event)
    QString error;  // for a person, when !ok
    int exitCode = 0;
    QString stderrText;  // what the program said, for a failure over ssh (explainRemoteFailure)
};

class EngineQuery : public QObject {
    Q_OBJECT

public:
    explicit EngineQuery(QObject* parent = nullptr);
    ~EngineQuery() override;  // a query still running is killed: its answer has no reader

    // A newer request replaces one still running (killed): only the latest answer is reported.
    // `input`, when given, is written to the program's stdin (a config: never on a command line).
    // `answerType` empty: stdout must be one JSON object. Else stdout is read as lines, the
    // others ignored: the answer is the last event of that type when the program exits 0, and
    // the last `error` event when it does not (a line the model printed decides nothing).
    void start(const QString& program, const QStringList& arguments, const QByteArray& input = QByteArray(),
               const QString& answerType = QString());
    // Kills the query still running, if any; nothing is reported for it.
    void cancel();
    bool isRunning() const;
    qint64 processId() const;  // of the query running, 0 when none

    // For the command line and tests.
    static QueryResult runBlocking(const QString& program, const QStringList& arguments, int timeoutMs = 60000,
                                   const QString& answerType = QString());

signals:
    void finished(const ddplab::ui::QueryResult& result);

private:
    void report(QProcess* process, const QString& program, const QStringList& arguments, const QString& answerType);
    static QueryResult interpret(const QProcess& process, const QByteArray& output, const QByteArray& errors, const QString& program,
                                 const QStringList& arguments, const QString& answerType);

    QProcess* m_process = nullptr;
    // What the running query printed, its tail only: a model that prints without end must not
    // fill the window's memory.
    QByteArray m_output;
    QByteArray m_errors;
};

}  // namespace ddplab::ui
