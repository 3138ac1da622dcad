// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_query.hpp"

#include "client/engine/child_lifetime.hpp"
#include "client/engine/engine_environment.hpp"
#include "client/wire.hpp"
#include "core/line_reader.hpp"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include <csignal>
#include <cstring>

namespace ddplab::ui {
namespace {

// The tails of stdout and stderr kept: far more than any answer (a shard of a large data set
// is a few MiB), far less than a model printing in a loop would fill.
constexpr qsizetype kKeptOutputBytes = 32 * 1024 * 1024;
constexpr qsizetype kKeptErrorBytes = 64 * 1024;
// What a failure's message quotes of a line longer than the tail kept.
constexpr size_t kQuotedBytes = 4096;

QString commandText(const QString& program, const QStringList& arguments)
{
    return QFileInfo(program).fileName() + QLatin1Char(' ') + arguments.join(QLatin1Char(' '));
}

// "SIGSEGV" for 11.
QString signalName(int signo)
{
    const char* name = sigabbrev_np(signo);
    return name ? QStringLiteral("SIG") + QLatin1String(name) : QStringLiteral("an unknown signal");
}

// What a query keeps of a stream: its last `limit` bytes (the answer is the last event).
void appendTail(QByteArray& kept, const QByteArray& more, qsizetype limit)
{
    kept.append(more);
    if (kept.size() > limit)
        kept.remove(0, kept.size() - limit);
}

// `text` as whole lines, through the lab's one line reader; a line past `maxLineBytes` is its
// first bytes, marked overlong.
QList<LineReader::Line> linesOf(const QByteArray& text, size_t maxLineBytes)
{
    LineReader reader(maxLineBytes, kQuotedBytes);
    reader.append(text.constData(), size_t(text.size()));
    QList<LineReader::Line> lines;
    while (std::optional<LineReader::Line> line = reader.take())
        lines.append(std::move(*line));
    const std::string rest = reader.takeRest();
    if (!rest.empty())
        lines.append(LineReader::Line{rest, false, rest.size()});
    return lines;
}

// The last line of `errors` with anything on it, for a failure's message.
QString lastLine(const QByteArray& errors)
{
    const QList<LineReader::Line> lines = linesOf(errors, size_t(kKeptErrorBytes));
    for (auto line = lines.crbegin(); line != lines.crend(); ++line) {
        const QString text = QString::fromLocal8Bit(line->text.data(), qsizetype(line->text.size())).trimmed();
        if (!text.isEmpty())
            return text;
    }
    return QString();
}

// The last line of `output` that is a JSON object of type `type`; empty when none is.
QJsonObject lastEventOfType(const QByteArray& output, const QString& type)
{
    const QList<LineReader::Line> lines = linesOf(output, size_t(kKeptOutputBytes));
    for (auto line = lines.crbegin(); line != lines.crend(); ++line) {
        const QByteArray text = QByteArray::fromRawData(line->text.data(), qsizetype(line->text.size())).trimmed();
        if (line->overlong || !text.startsWith('{'))
            continue;
        const QJsonDocument document = QJsonDocument::fromJson(text);
        if (document.isObject() && document.object().value(wire(field::kType)).toString() == type)
            return document.object();
    }
    return QJsonObject();
}

}  // namespace

EngineQuery::EngineQuery(QObject* parent)
    : QObject(parent)
{
}

EngineQuery::~EngineQuery()
{
    cancel();
}

void EngineQuery::cancel()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    m_process->kill();
    m_process->waitForFinished(1000);
    m_process->deleteLater();
    m_process = nullptr;
}

void EngineQuery::start(const QString& program, const QStringList& arguments, const QByteArray& input, const QString& answerType)
{
    cancel();
    m_output.clear();
    m_errors.clear();
    auto* process = new QProcess(this);
    m_process = process;
    // A query has nothing to save: killed outright with the lab, however the lab ends.
    endWithLab(*process, SIGKILL);
    process->setProcessEnvironment(engineEnvironment());
    connect(process, &QProcess::readyReadStandardOutput, this,
            [this, process] { appendTail(m_output, process->readAllStandardOutput(), kKeptOutputBytes); });
    connect(process, &QProcess::readyReadStandardError, this,
            [this, process] { appendTail(m_errors, process->readAllStandardError(), kKeptErrorBytes); });
    connect(process, &QProcess::finished, this,
            [this, process, program, arguments, answerType] { report(process, program, arguments, answerType); });
    connect(process, &QProcess::errorOccurred, this, [this, process, program, arguments, answerType](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            report(process, program, arguments, answerType);
    });
    if (input.isEmpty()) {
        process->setStandardInputFile(QProcess::nullDevice());  // a program that reads stdin ends it at once
        process->start(program, arguments, QIODevice::ReadOnly);
        return;
    }
    process->start(program, arguments, QIODevice::ReadWrite);
    process->write(input);
    process->closeWriteChannel();
}

void EngineQuery::report(QProcess* process, const QString& program, const QStringList& arguments, const QString& answerType)
{
    appendTail(m_output, process->readAllStandardOutput(), kKeptOutputBytes);
    appendTail(m_errors, process->readAllStandardError(), kKeptErrorBytes);
    const QueryResult result = interpret(*process, m_output, m_errors, program, arguments, answerType);
    process->disconnect(this);
    process->deleteLater();
    if (m_process == process)
        m_process = nullptr;
    emit finished(result);
}

bool EngineQuery::isRunning() const
{
    return m_process != nullptr;
}

qint64 EngineQuery::processId() const
{
    return m_process ? m_process->processId() : 0;
}

QueryResult EngineQuery::runBlocking(const QString& program, const QStringList& arguments, int timeoutMs, const QString& answerType)
{
    QProcess process;
    endWithLab(process, SIGKILL);
    process.setProcessEnvironment(engineEnvironment());
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, arguments, QIODevice::ReadOnly);
    if (process.waitForStarted(timeoutMs) && !process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(1000);
    }
    const QByteArray output = process.readAllStandardOutput();
    const QByteArray errors = process.readAllStandardError().right(kKeptErrorBytes);
    return interpret(process, output, errors, program, arguments, answerType);
}

QueryResult EngineQuery::interpret(const QProcess& process, const QByteArray& output, const QByteArray& errors, const QString& program,
                                   const QStringList& arguments, const QString& answerType)
{
    QueryResult result;
    if (process.error() == QProcess::FailedToStart) {
        result.error = QStringLiteral("Cannot run the engine at %1 (%2).").arg(program, process.errorString());
        return result;
    }
    result.exitCode = process.exitCode();
    result.stderrText = QString::fromLocal8Bit(errors.right(4096));
    const bool exitedWell = process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    QJsonParseError parseError{};
    if (answerType.isEmpty()) {
        const QJsonDocument document = QJsonDocument::fromJson(output, &parseError);
        if (document.isObject())
            result.object = document.object();
        else if (parseError.error == QJsonParseError::NoError)
            parseError.error = QJsonParseError::MissingObject;
    } else {
        // The exit code says how it went; the event only what it said.
        result.object = lastEventOfType(output, exitedWell ? answerType : wire(type::kError));
    }
    if (!exitedWell) {
        const QString detail = lastLine(errors);
        // QProcess gives a signal's number as the exit code of a process it killed: said as a signal.
        const QString how = process.exitStatus() == QProcess::CrashExit
                                ? QStringLiteral("killed by signal %1, %2").arg(process.exitCode()).arg(signalName(process.exitCode()))
                                : QStringLiteral("exit code %1").arg(process.exitCode());
        result.error = QStringLiteral("`%1` failed (%2)%3")
                           .arg(commandText(program, arguments), how, detail.isEmpty() ? QString() : QStringLiteral(": ") + detail);
        return result;
    }
    if (!answerType.isEmpty() && result.object.isEmpty()) {
        result.error = QStringLiteral("`%1` printed no %2 event").arg(commandText(program, arguments), answerType);
        return result;
    }
    if (answerType.isEmpty() && parseError.error != QJsonParseError::NoError) {
        result.error = QStringLiteral("`%1` printed something that is not a JSON object: %2")
                           .arg(commandText(program, arguments), parseError.errorString());
        return result;
    }
    result.ok = true;
    return result;
}

}  // namespace ddplab::ui
