// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_store.hpp"

#include "advice_lock.hpp"
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
constexpr int kMaxSameSecond = 1000;  // advices begun in one second with the same GPUs, at most

// Whether `id` names one folder directly under the root: no separator, not "." or "..".
bool isPlainName(const QString& id)
{
    return !id.isEmpty() && id != QLatin1String(".") && id != QLatin1String("..") && !id.contains(QLatin1Char('/')) &&
           !id.contains(QLatin1Char('\\'));
}

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
    // What it was about: an advice from before it named them says nothing of it.
    const auto about = [](const QString& model, const QString& data) {
        return model.isEmpty() ? QString() : data.isEmpty() ? QStringLiteral(" · %1").arg(model) : QStringLiteral(" · %1 on %2").arg(model, data);
    };
    if (running)
        return QStringLiteral("running: %1 GPUs, %2 runs finished so far%3").arg(gpus).arg(runsEnded).arg(about(model, data));
    if (stopped)
        return QStringLiteral("stopped: %1 GPUs, %2 runs finished (Resume takes them)%3").arg(gpus).arg(runsEnded).arg(about(model, data));
    if (!advice)
        return QStringLiteral("damaged: %1").arg(problem);
    return QStringLiteral("%1 GPUs: %2 per GPU, LR %3 (%4)%5")
        .arg(advice->gpus)
        .arg(advice->batchPerGpu)
        .arg(QString::number(advice->lr, 'g', 3), advice->confidence.isEmpty() ? QStringLiteral("confidence not said") : advice->confidence,
             about(advice->model, advice->data));
}

AdviceStore::AdviceStore(QString root) : m_root(std::move(root)) {}

QString AdviceStore::defaultRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/advice");
}

QString AdviceStore::begin(int gpus, QString* error) const
{
    if (!QDir().mkpath(m_root)) {
        *error = QStringLiteral("cannot make the folder %1").arg(m_root);
        return {};
    }
    // mkdir is the claim: of two advisors started together only one makes a folder, and the
    // other tries the next name (exists() then mkpath() gave both the same folder).
    const QString stem = QDateTime::currentDateTime().toString(kTimeFormat) + QStringLiteral("-%1gpus").arg(gpus);
    const QDir root(m_root);
    for (int n = 1; n <= kMaxSameSecond; ++n) {
        const QString id = n == 1 ? stem : stem + QStringLiteral("-%1").arg(n);
        if (root.mkdir(id))
            return id;
        if (!QFileInfo::exists(root.filePath(id))) {
            *error = QStringLiteral("cannot make the folder %1").arg(root.filePath(id));
            return {};
        }
    }
    *error = QStringLiteral("cannot make a new folder under %1: %2 advices begun this second already have one").arg(m_root).arg(kMaxSameSecond);
    return {};
}

QString AdviceStore::save(const Advice& advice, QString* error, const QString& into) const
{
    // A resumed advice is saved into its own folder, wherever that is (a copy under another
    // folder replaced the store's advice of the same name).
    const QString given = into.isEmpty() ? QString() : QDir::isAbsolutePath(into) ? into : isPlainName(into) ? QDir(m_root).filePath(into) : QString();
    const QString id = given.isEmpty() || !QFileInfo(given).isDir() ? begin(advice.gpus, error) : QFileInfo(given).fileName();
    if (id.isEmpty())
        return {};
    const QString folder = given.isEmpty() || !QFileInfo(given).isDir() ? QDir(m_root).filePath(id) : given;
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
    if (!QDir::isAbsolutePath(idOrDirectory) && !isPlainName(idOrDirectory)) {
        // "../x" would leave the store: a name is one folder's, a folder is given as a path.
        stored.id = idOrDirectory;
        stored.problem = QStringLiteral("\"%1\" is no advice's name under %2: a name holds no \"/\" and is not \".\" or \"..\" "
                                        "(give a folder elsewhere by its path)")
                             .arg(idOrDirectory, m_root);
        return stored;
    }
    const QFileInfo info(QDir::isAbsolutePath(idOrDirectory) ? idOrDirectory : QDir(m_root).filePath(idOrDirectory));
    stored.id = info.fileName();
    stored.directory = info.absoluteFilePath();
    stored.created = QDateTime::fromString(stored.id.left(kTimeFormat.size()), kTimeFormat);
    if (!stored.created.isValid())
        stored.created = info.lastModified();
    QFile file(QDir(stored.directory).filePath(kAdviceFile));
    if (!file.exists()) {
        // Running now (its lock is held), or stopped before its end: what it planned for, and
        // how many of its runs ended (a running one may not have written its progress yet).
        stored.running = AdviceLock::isTaken(stored.directory, &stored.runningPid);
        if (stored.running || QFileInfo::exists(stored.progressFile())) {
            QString damage;
            const std::optional<ProgressSummary> progress = summariseProgress(stored.progressFile(), &damage);
            if (progress) {
                stored.gpus = progress->gpus;
                stored.runsEnded = progress->runsEnded;
                stored.model = progress->model;
                stored.data = progress->data;
            } else if (!stored.running) {
                stored.problem = QStringLiteral("its progress file is damaged: %1").arg(damage);
                return stored;
            }
            stored.stopped = !stored.running;
            return stored;
        }
        if (info.isDir()) {
            stored.problem = QStringLiteral("it holds neither advice.json (a finished advice) nor progress.json (a stopped one): it is no advice's folder");
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
