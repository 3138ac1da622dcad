// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorboard_run.hpp"

#include "client/io/save_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/tensorboard/tensorboard_events.hpp"
#include "client/tensorboard/tensorboard_records.hpp"
#include "client/wire.hpp"

#include <QDateTime>
#include <QDir>
#include <QMap>
#include <QSysInfo>

#include <cmath>

namespace ddplab::ui {
namespace {

constexpr qsizetype kMaxFolderName = 120;  // well under any file system's 255 bytes

// The figures of the config event written once, at step 0: what the settings made of the run.
const char* const kConfigFigures[] = {field::kEffectiveBatchSize, field::kLrEffective};

}  // namespace

TensorBoardRunEncoder::TensorBoardRunEncoder(const RunRecord& record)
{
    const QDateTime started = record.started.isValid() ? record.started : QDateTime::currentDateTimeUtc();
    m_start = double(started.toMSecsSinceEpoch()) / 1000.0;
    // Where the run ran: the SSH host it went to, else this computer.
    const QString host = record.host.isEmpty() ? QSysInfo::machineHostName() : record.host;
    m_fileName = QStringLiteral("events.out.tfevents.%1.%2")
                     .arg(started.toSecsSinceEpoch(), 10, 10, QLatin1Char('0'))
                     .arg(tensorBoardFolderName(host));
}

QByteArray TensorBoardRunEncoder::header()
{
    if (m_headerGiven)
        return {};
    m_headerGiven = true;
    return tfRecord(fileVersionEvent(m_start));
}

double TensorBoardRunEncoder::wallTimeAt(const RunData& run, qint64 step) const
{
    return m_start + run.xAt(step, XAxis::WallTime);
}

QByteArray TensorBoardRunEncoder::encodeNew(const RunData& run)
{
    QByteArray records = header();
    if (!m_configGiven && !run.config().isEmpty()) {
        m_configGiven = true;
        QList<TensorBoardScalar> scalars;
        for (const char* figure : kConfigFigures) {
            const QJsonValue value = run.config().value(wire(figure));
            if (value.isDouble() && std::isfinite(value.toDouble()))
                scalars.append({wire(figure), value.toDouble()});
        }
        if (!scalars.isEmpty())
            records += tfRecord(scalarsEvent(m_start, 0, scalars));
    }
    // The new points of every metric, gathered by step: one event per step, in step order.
    QMap<qint64, QList<TensorBoardScalar>> bySteps;
    for (const QString& metric : run.metricNames()) {
        const QList<QPointF>& points = run.series(metric);
        qsizetype& done = m_encoded[metric];
        for (qsizetype i = done; i < points.size(); ++i)
            bySteps[qint64(points.at(i).x())].append({metric, points.at(i).y()});
        done = points.size();
    }
    for (auto it = bySteps.constBegin(); it != bySteps.constEnd(); ++it)
        records += tfRecord(scalarsEvent(wallTimeAt(run, it.key()), it.key(), it.value()));
    return records;
}

QString tensorBoardFolderName(const QString& text)
{
    QString name;
    for (const QChar c : text) {
        const bool kept = (c.unicode() < 128 && c.isLetterOrNumber()) || c == QLatin1Char('.') || c == QLatin1Char('-');
        if (kept)
            name.append(c);
        else if (!name.endsWith(QLatin1Char('_')))
            name.append(QLatin1Char('_'));
    }
    while (name.startsWith(QLatin1Char('.')) || name.startsWith(QLatin1Char('_')))
        name.remove(0, 1);  // no hidden folder, no "..", no leading filler
    name.truncate(kMaxFolderName);
    while (name.endsWith(QLatin1Char('_')))
        name.chop(1);
    return name.isEmpty() ? QStringLiteral("run") : name;
}

QString tensorBoardRunFolder(const RunRecord& run)
{
    return tensorBoardFolderName(run.name.isEmpty() || run.name == run.id ? run.id : run.id + QLatin1Char('_') + run.name);
}

QString writeTensorBoardRun(const RunData& run, const QString& folder, QString* error, const QByteArray& start,
                            const QByteArray& end)
{
    if (!QDir().mkpath(folder)) {
        if (error)
            *error = QStringLiteral("Cannot create the folder %1").arg(folder);
        return {};
    }
    TensorBoardRunEncoder encoder(run.record());
    const QByteArray header = encoder.header();
    const QByteArray contents = header + start + encoder.encodeNew(run) + end;
    const QString path = QDir(folder).filePath(encoder.fileName());
    return writeFileAtomically(path, contents, error) ? path : QString();
}

QString exportRunToTensorBoard(const RunStore& store, const RunRecord& run, const QString& directory, QString* error)
{
    const QSharedPointer<RunData> data = store.loadRun(run);
    return writeTensorBoardRun(*data, QDir(directory).filePath(tensorBoardRunFolder(run)), error);
}

}  // namespace ddplab::ui
