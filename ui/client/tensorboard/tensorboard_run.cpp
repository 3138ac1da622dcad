// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorboard_run.hpp"

#include "client/engine/event_stream_parser.hpp"
#include "client/io/read_file.hpp"
#include "client/io/save_file.hpp"
#include "client/runs/run_store.hpp"
#include "client/wire.hpp"

#include <QDateTime>
#include <QDir>
#include <QSysInfo>

#include <algorithm>

namespace ddplab::ui {
namespace {

// The lab's run ids begin with the local time they started (run_store.cpp's createRun).
const QString kRunIdTime = QStringLiteral("yyyyMMdd-HHmmss-zzz");

QByteArray bytesOf(const std::string& records)
{
    return QByteArray(records.data(), qsizetype(records.size()));
}

}  // namespace

tensorboard::EventNumbers tensorBoardEventOf(const QJsonObject& event)
{
    tensorboard::EventNumbers numbers;
    numbers.type = event.value(wire(field::kType)).toString().toStdString();
    for (auto it = event.constBegin(); it != event.constEnd(); ++it) {
        if (it.value().isDouble())
            numbers.numbers.emplace_back(it.key().toStdString(), it.value().toDouble());
    }
    return numbers;
}

double tensorBoardStartOf(const RunRecord& run)
{
    // A damaged run's `started` is its folder's time (run_store.cpp), which moves.
    if (run.status != RunStatus::Damaged && run.started.isValid())
        return double(run.started.toMSecsSinceEpoch()) / 1000.0;
    const QDateTime named = QDateTime::fromString(run.id.left(kRunIdTime.size()), kRunIdTime);
    return named.isValid() ? double(named.toMSecsSinceEpoch()) / 1000.0 : 0.0;
}

QString tensorBoardFileName(const RunRecord& run)
{
    // Where the run ran: the SSH host it went to, else this computer.
    const QString host = run.host.isEmpty() ? QSysInfo::machineHostName() : run.host;
    return QString::fromStdString(tensorboard::eventFileName(tensorBoardStartOf(run), host.toStdString()));
}

QString tensorBoardFolderName(const QString& text)
{
    return QString::fromStdString(tensorboard::folderName(text.toStdString()));
}

QString tensorBoardRunFolder(const RunRecord& run)
{
    return tensorBoardFolderName(run.name.isEmpty() || run.name == run.id ? run.id : run.id + QLatin1Char('_') + run.name);
}

TensorBoardRunFile writeTensorBoardRun(const RunRecord& run, const QString& folder, const QByteArray& start,
                                       const std::function<QByteArray(tensorboard::RunEncoder&)>& end)
{
    TensorBoardRunFile written;
    const QString eventsPath = RunStore::eventsPath(run);
    RegularFile events;
    QString why;
    if (!events.open(eventsPath, &why)) {
        written.error = QStringLiteral("Run %1: its events file %2 %3: no TensorBoard file was written for it (a run's events are read from a regular file only)").arg(run.id, eventsPath, why);
        return written;
    }
    tensorboard::RunEncoder encoder(tensorBoardStartOf(run));
    QByteArray contents = bytesOf(encoder.header()) + start;
    EventStreamParser parser;
    constexpr qint64 kChunkBytes = 1 << 20;
    for (qint64 read = 0; read < RunStore::kMaxEventsBytes;) {
        const QByteArray chunk = events.read(std::min(kChunkBytes, RunStore::kMaxEventsBytes - read));
        if (chunk.isEmpty())
            break;
        read += chunk.size();
        // A line without its newline was being written when something died: it is not trusted
        // (as RunStore::loadRun), so the parser is not asked to finish it.
        for (const QJsonObject& event : parser.feed(chunk).events)
            contents += bytesOf(encoder.encode(tensorBoardEventOf(event)));
    }
    if (!events.error().isEmpty()) {
        written.error = QStringLiteral("Run %1: its events file %2 %3: no TensorBoard file was written for it (a run's events are read from a regular file only)").arg(run.id, eventsPath, events.error());
        return written;
    }
    if (end)
        contents += end(encoder);
    if (!QDir().mkpath(folder)) {
        written.error = QStringLiteral("Cannot create the folder %1").arg(folder);
        return written;
    }
    const QString path = QDir(folder).filePath(tensorBoardFileName(run));
    if (!writeFileAtomically(path, contents, &written.error))
        return written;
    written.path = path;
    if (encoder.overflowCount() > 0)
        written.warning = QStringLiteral("Run %1: %2").arg(run.id, QString::fromStdString(encoder.overflowSentence()));
    return written;
}

}  // namespace ddplab::ui
