// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_store.hpp"

#include "advice_progress.hpp"
#include "client/io/save_file.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QStandardPaths>

#include <algorithm>

namespace ddplab::ui {
namespace {

const QString kAdviceFile = QStringLiteral("advice.json");
const QString kWordsFile = QStringLiteral("advice.md");
const QString kTimeFormat = QStringLiteral("yyyyMMdd-HHmmss");
const QString kProgressFile = QStringLiteral("progress.json");
const QString kCheckpoints = QStringLiteral("checkpoints");

}  // namespace

QString StoredAdvice::progressFile() const
{
    return QDir(directory).filePath(kProgressFile);
}

QString StoredAdvice::checkpointFolder() const
{
    return QDir(directory).filePath(kCheckpoints);
}

QString StoredAdvice::title() const
{
    if (stopped)
        return QStringLiteral("stopped: %1 GPUs, %2 runs finished (Resume takes them)").arg(gpus).arg(runsEnded);
    if (!advice)
        return QStringLiteral("damaged: %1").arg(problem);
    return QStringLiteral("%1 GPUs: %2 per GPU, LR %3 (%4)")
        .arg(advice->gpus)
        .arg(advice->batchPerGpu)
        .arg(QString::number(advice->lr, 'g', 3), advice->confidence.isEmpty() ? QStringLiteral("confidence not said") : advice->confidence);
}

AdviceStore::AdviceStore(QString root) : m_root(std::move(root)) {}

QString AdviceStore::defaultRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/advice");
}

QString AdviceStore::begin(int gpus, QString* error) const
{
    const QString stem = QDateTime::currentDateTime().toString(kTimeFormat) + QStringLiteral("-%1gpus").arg(gpus);
    QString id = stem;
    for (int n = 2; QFileInfo::exists(QDir(m_root).filePath(id)); ++n)
        id = stem + QStringLiteral("-%1").arg(n);
    const QString folder = QDir(m_root).filePath(id);
    if (!QDir().mkpath(folder)) {
        *error = QStringLiteral("cannot make the folder %1").arg(folder);
        return {};
    }
    return id;
}

QString AdviceStore::save(const Advice& advice, QString* error, const QString& into) const
{
    const QString id = into.isEmpty() || !QFileInfo(QDir(m_root).filePath(into)).isDir() ? begin(advice.gpus, error) : into;
    if (id.isEmpty())
        return {};
    const QString folder = QDir(m_root).filePath(id);
    if (!writeFileAtomically(QDir(folder).filePath(kAdviceFile), QJsonDocument(advice.toJson()).toJson(QJsonDocument::Indented), error) ||
        !writeFileAtomically(QDir(folder).filePath(kWordsFile), advice.toMarkdown().toUtf8(), error))
        return {};
    // Done: nothing is left to resume.
    QFile::remove(QDir(folder).filePath(kProgressFile));
    QDir(QDir(folder).filePath(kCheckpoints)).removeRecursively();
    return id;
}

StoredAdvice AdviceStore::open(const QString& idOrDirectory) const
{
    StoredAdvice stored;
    const QFileInfo info(QDir::isAbsolutePath(idOrDirectory) ? idOrDirectory : QDir(m_root).filePath(idOrDirectory));
    stored.id = info.fileName();
    stored.directory = info.absoluteFilePath();
    stored.created = QDateTime::fromString(stored.id.left(kTimeFormat.size()), kTimeFormat);
    if (!stored.created.isValid())
        stored.created = info.lastModified();
    QFile file(QDir(stored.directory).filePath(kAdviceFile));
    if (!file.exists() && QFileInfo::exists(stored.progressFile())) {
        // Stopped before its end: what it planned for, and how many of its runs ended.
        if (const std::optional<ProgressSummary> progress = summariseProgress(stored.progressFile())) {
            stored.stopped = true;
            stored.gpus = progress->gpus;
            stored.runsEnded = progress->runsEnded;
            return stored;
        }
    }
    if (!file.open(QIODevice::ReadOnly)) {
        stored.problem = QStringLiteral("advice.json cannot be opened (%1)").arg(file.errorString());
        return stored;
    }
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parse);
    if (parse.error != QJsonParseError::NoError) {
        stored.problem = QStringLiteral("advice.json is not JSON (%1 at byte %2)").arg(parse.errorString()).arg(parse.offset);
        return stored;
    }
    if (!document.isObject()) {
        stored.problem = QStringLiteral("advice.json holds no object");
        return stored;
    }
    QString problem;
    stored.advice = Advice::fromJson(document.object(), &problem);
    if (!stored.advice)
        stored.problem = QStringLiteral("advice.json is no advice: %1").arg(problem);
    return stored;
}

QList<StoredAdvice> AdviceStore::list() const
{
    QList<StoredAdvice> all;
    for (const QFileInfo& folder : QDir(m_root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
        all.append(open(folder.absoluteFilePath()));
    std::sort(all.begin(), all.end(), [](const StoredAdvice& a, const StoredAdvice& b) {
        return a.created != b.created ? a.created > b.created : a.id > b.id;
    });
    return all;
}

}  // namespace ddplab::ui
