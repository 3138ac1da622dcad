// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorboard_stream.hpp"

#include "client/runs/run_data.hpp"
#include "client/session/lab_session.hpp"
#include "client/tensorboard/tensorboard_run.hpp"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace ddplab::ui {

struct TensorBoardStream::Writer {
    explicit Writer(const RunRecord& record) : encoder(tensorBoardStartOf(record)) {}
    tensorboard::RunEncoder encoder;
    QFile file;
    bool failed = false;
};

TensorBoardStream::TensorBoardStream(const LabSession& session, QObject* parent)
    : QObject(parent)
{
    connect(&session, &LabSession::runStarted, this, [this](int, const QSharedPointer<RunData>& run) { start(run); });
    connect(&session, &LabSession::runEventsArrived, this, &TensorBoardStream::write);
    connect(&session, &LabSession::runFinished, this, [this](int, const QSharedPointer<RunData>& run) { finish(run); });
}

TensorBoardStream::~TensorBoardStream() = default;

QString TensorBoardStream::defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/tensorboard");
}

void TensorBoardStream::setFolder(const QString& folder)
{
    m_folder = folder;
}

void TensorBoardStream::start(const QSharedPointer<RunData>& run)
{
    if (!isOn() || m_writers.contains(run->id()))
        return;  // off: a run that did not stream is written whole by its export
    auto writer = std::make_shared<Writer>(run->record());
    const QString folder = QDir(m_folder).filePath(tensorBoardRunFolder(run->record()));
    writer->file.setFileName(QDir(folder).filePath(tensorBoardFileName(run->record())));
    const std::string header = writer->encoder.header();
    if (!QDir().mkpath(folder) || !writer->file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        writer->file.write(header.data(), qint64(header.size())) != qint64(header.size()) || !writer->file.flush()) {
        writer->failed = true;
        emit problem(tr("TensorBoard: cannot write %1: %2").arg(writer->file.fileName(), writer->file.errorString()));
    }
    m_writers.insert(run->id(), writer);
}

void TensorBoardStream::write(const QSharedPointer<RunData>& run, const QList<QJsonObject>& events)
{
    const auto found = m_writers.constFind(run->id());
    if (found == m_writers.constEnd() || (*found)->failed)
        return;
    Writer& writer = **found;
    std::string records;
    for (const QJsonObject& event : events)
        records += writer.encoder.encode(tensorBoardEventOf(event));
    if (records.empty())
        return;
    if (writer.file.write(records.data(), qint64(records.size())) != qint64(records.size()) || !writer.file.flush()) {
        writer.failed = true;
        emit problem(tr("TensorBoard: cannot write %1: %2").arg(writer.file.fileName(), writer.file.errorString()));
    }
}

void TensorBoardStream::finish(const QSharedPointer<RunData>& run)
{
    const auto found = m_writers.find(run->id());
    if (found == m_writers.end())
        return;
    if (!(*found)->failed && (*found)->encoder.overflowCount() > 0)
        emit problem(tr("TensorBoard: %1: %2").arg((*found)->file.fileName(), QString::fromStdString((*found)->encoder.overflowSentence())));
    m_writers.erase(found);  // closes its file
}

}  // namespace ddplab::ui
