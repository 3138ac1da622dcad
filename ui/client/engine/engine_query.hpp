#pragma once
// One-shot engine subcommands that print a single JSON document (`devices`, `shard`), run
// asynchronously so the window never waits on LibTorch's start-up.

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

    // A newer request replaces one still running: only the latest answer is reported.
    // `input`, when given, is written to the program's stdin (a config: never on a command line).
    void start(const QString& program, const QStringList& arguments, const QByteArray& input = QByteArray());
    bool isRunning() const;

    // For the command line and tests.
    static QueryResult runBlocking(const QString& program, const QStringList& arguments, int timeoutMs = 60000);

signals:
    void finished(const ddplab::ui::QueryResult& result);

private:
    void abandonRunning();
    static QueryResult interpret(QProcess& process, const QString& program, const QStringList& arguments);

    QProcess* m_process = nullptr;
};

}  // namespace ddplab::ui
