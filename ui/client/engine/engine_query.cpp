#include "engine_query.hpp"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

namespace ddplab::ui {
namespace {

QString commandText(const QString& program, const QStringList& arguments)
{
    return QFileInfo(program).fileName() + QLatin1Char(' ') + arguments.join(QLatin1Char(' '));
}

QString lastLine(const QByteArray& text)
{
    const QList<QByteArray> lines = text.trimmed().split('\n');
    return lines.isEmpty() ? QString() : QString::fromLocal8Bit(lines.last()).trimmed();
}

}  // namespace

EngineQuery::EngineQuery(QObject* parent)
    : QObject(parent)
{
}

EngineQuery::~EngineQuery()
{
    abandonRunning();
}

void EngineQuery::abandonRunning()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    m_process->kill();
    m_process->waitForFinished(1000);
    m_process->deleteLater();
    m_process = nullptr;
}

void EngineQuery::start(const QString& program, const QStringList& arguments, const QByteArray& input)
{
    abandonRunning();
    auto* process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::finished, this, [this, process, program, arguments] {
        const QueryResult result = interpret(*process, program, arguments);
        process->deleteLater();
        if (m_process == process)
            m_process = nullptr;
        emit finished(result);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, program, arguments](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        const QueryResult result = interpret(*process, program, arguments);
        process->deleteLater();
        if (m_process == process)
            m_process = nullptr;
        emit finished(result);
    });
    if (input.isEmpty()) {
        process->start(program, arguments, QIODevice::ReadOnly);
        return;
    }
    process->start(program, arguments, QIODevice::ReadWrite);
    process->write(input);
    process->closeWriteChannel();
}

bool EngineQuery::isRunning() const
{
    return m_process != nullptr;
}

QueryResult EngineQuery::runBlocking(const QString& program, const QStringList& arguments, int timeoutMs)
{
    QProcess process;
    process.start(program, arguments, QIODevice::ReadOnly);
    if (process.waitForStarted(timeoutMs) && !process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(1000);
    }
    return interpret(process, program, arguments);
}

QueryResult EngineQuery::interpret(QProcess& process, const QString& program, const QStringList& arguments)
{
    QueryResult result;
    if (process.error() == QProcess::FailedToStart) {
        result.error = QStringLiteral("Cannot run the engine at %1 (%2).").arg(program, process.errorString());
        return result;
    }
    const QByteArray output = process.readAllStandardOutput();
    const QByteArray errors = process.readAllStandardError();
    result.exitCode = process.exitCode();
    result.stderrText = QString::fromLocal8Bit(errors.right(4096));
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(output, &parseError);
    if (document.isObject())
        result.object = document.object();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        const QString detail = lastLine(errors);
        result.error = QStringLiteral("`%1` failed (exit code %2)%3")
                           .arg(commandText(program, arguments))
                           .arg(process.exitCode())
                           .arg(detail.isEmpty() ? QString() : QStringLiteral(": ") + detail);
        return result;
    }
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        result.error = QStringLiteral("`%1` printed something that is not a JSON object: %2")
                           .arg(commandText(program, arguments), parseError.errorString());
        return result;
    }
    result.ok = true;
    return result;
}

}  // namespace ddplab::ui
