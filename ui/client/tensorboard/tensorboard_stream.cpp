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
    explicit Writer(const RunRecord& record) : encoder(record) {}
    TensorBoardRunEncoder encoder;
    QFile file;
    bool failed = false;
};

TensorBoardStream::TensorBoardStream(const LabSession& session, QObject* parent)
    : QObject(parent)
{
    connect(&session, &LabSession::runStarted, this, [this](int, const QSharedPointer<RunData>& run) { write(run, false); });
    connect(&session, &LabSession::runUpdated, this, [this](const QSharedPointer<RunData>& run) { write(run, false); });
    connect(&session, &LabSession::runFinished, this, [this](int, const QSharedPointer<RunData>& run) { write(run, true); });
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

void TensorBoardStream::write(const QSharedPointer<RunData>& run, bool last)
{
    auto found = m_writers.find(run->id());
    if (found == m_writers.end()) {
        if (!isOn() || last)
            return;  // off, or a run that ends without having streamed: its export writes it whole
        auto writer = std::make_shared<Writer>(run->record());
        const QString folder = QDir(m_folder).filePath(tensorBoardRunFolder(run->record()));
        writer->file.setFileName(QDir(folder).filePath(writer->encoder.fileName()));
        if (!QDir().mkpath(folder) || !writer->file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            writer->failed = true;
            emit problem(tr("TensorBoard: cannot write %1: %2").arg(writer->file.fileName(), writer->file.errorString()));
        }
        found = m_writers.insert(run->id(), writer);
    }
    Writer& writer = **found;
    if (!writer.failed) {
        const QByteArray records = writer.encoder.encodeNew(*run);
        if (writer.file.write(records) != records.size() || !writer.file.flush()) {
            writer.failed = true;
            emit problem(tr("TensorBoard: cannot write %1: %2").arg(writer.file.fileName(), writer.file.errorString()));
        }
    }
    if (last)
        m_writers.erase(found);  // closes its file
}

}  // namespace ddplab::ui
