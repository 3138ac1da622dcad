// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_store.hpp"

#include "client/io/read_file.hpp"
#include "client/io/save_file.hpp"
#include "client/runs/run_record.hpp"
#include "client/study/study_file.hpp"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>

namespace ddplab::ui {
namespace {

const QString kStudyFile = QStringLiteral("study.json");
const QString kPlanFile = QStringLiteral("plan.json");
constexpr qint64 kMaxPlanBytes = 64 << 20;  // 10,000 points of a few kilobytes each

// "seed000-variance-curve-20261123-142501": readable, sorted by time, unique enough with the
// suffix that create() adds on a clash.
QString folderName(const StudySpec& spec)
{
    QString stem = spec.id.isEmpty() ? QStringLiteral("study") : spec.id;
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    return stem.left(64) + QLatin1Char('-') + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

std::optional<QJsonDocument> readJson(const QString& path, qint64 limit, QString* error)
{
    QString why;
    const std::optional<QByteArray> text = readRegularFile(path, limit, &why);
    if (!text) {
        *error = QStringLiteral("%1 %2").arg(path, why);
        return std::nullopt;
    }
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(*text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1 is damaged: %2").arg(path, parseError.errorString());
        return std::nullopt;
    }
    return document;
}

}  // namespace

StudyStore::StudyStore(QString root)
    : m_root(std::move(root))
{
}

QString StudyStore::defaultRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/studies");
}

std::optional<StoredStudy> StudyStore::create(const StudySpec& spec, const StudyPlan& plan, QString* error) const
{
    if (!QDir().mkpath(m_root)) {
        *error = QStringLiteral("Cannot create %1").arg(m_root);
        return std::nullopt;
    }
    const QDir root(m_root);
    QString name = folderName(spec);
    for (int suffix = 2; root.exists(name); ++suffix)
        name = folderName(spec) + QStringLiteral("-%1").arg(suffix);
    if (!root.mkdir(name)) {
        *error = QStringLiteral("Cannot create %1").arg(root.filePath(name));
        return std::nullopt;
    }
    StoredStudy study;
    study.id = name;
    study.directory = root.absoluteFilePath(name);
    study.spec = spec;
    study.points = plan.points;
    study.created = QDateTime::currentDateTime();
    const QDir folder(study.directory);
    if (!writeFileAtomically(folder.filePath(kStudyFile), QJsonDocument(spec.toJson()).toJson(), error) ||
        !writeFileAtomically(folder.filePath(kPlanFile), QJsonDocument(planToJson(plan.points)).toJson(QJsonDocument::Compact), error))
        return std::nullopt;
    return study;
}

std::optional<StoredStudy> StudyStore::open(const QString& idOrDirectory, QString* error) const
{
    const QString directory = QDir(idOrDirectory).isAbsolute() ? idOrDirectory : QDir(m_root).filePath(idOrDirectory);
    const QDir folder(directory);
    if (!folder.exists(kStudyFile) || !folder.exists(kPlanFile)) {
        *error = QStringLiteral("%1 is not a study folder (it has no %2 and %3)").arg(directory, kStudyFile, kPlanFile);
        return std::nullopt;
    }
    const std::optional<QJsonDocument> specJson = readJson(folder.filePath(kStudyFile), studyLimits::kMaxFileBytes, error);
    const std::optional<QJsonDocument> planJson = specJson ? readJson(folder.filePath(kPlanFile), kMaxPlanBytes, error) : std::nullopt;
    if (!planJson)
        return std::nullopt;
    const StudyReadResult read = parseStudy(specJson->object(), folder.filePath(kStudyFile), directory);
    if (!read.spec) {
        *error = read.error;
        return std::nullopt;
    }
    StoredStudy study;
    study.id = folder.dirName();
    study.directory = folder.absolutePath();
    study.spec = *read.spec;
    QString planError;
    study.points = planFromJson(planJson->array(), &planError);
    if (study.points.isEmpty()) {
        *error = QStringLiteral("%1: %2").arg(folder.filePath(kPlanFile), planError.isEmpty() ? QStringLiteral("no points") : planError);
        return std::nullopt;
    }
    study.created = QFileInfo(folder.filePath(kStudyFile)).birthTime();
    if (!study.created.isValid())
        study.created = QFileInfo(folder.filePath(kStudyFile)).lastModified();
    return study;
}

QList<StoredStudy> StudyStore::list(QStringList* problems) const
{
    QList<StoredStudy> studies;
    for (const QString& name : QDir(m_root).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QString error;
        if (std::optional<StoredStudy> study = open(name, &error))
            studies.append(*study);
        else if (problems)
            problems->append(error);
    }
    std::stable_sort(studies.begin(), studies.end(), [](const StoredStudy& a, const StoredStudy& b) { return a.created > b.created; });
    return studies;
}

QString StudyStore::lockPath(const StoredStudy& study)
{
    return QDir(study.directory).filePath(QStringLiteral("runner.lock"));
}

bool StudyStore::isDone(RunStatus status)
{
    // A failed run is a result (the engine refused the point, or a rank died), and so is a
    // diverged one (that LR is too high); a cancelled, interrupted or incomplete one is not,
    // and runs again.
    return status == RunStatus::Finished || status == RunStatus::Diverged || status == RunStatus::Failed;
}

QHash<int, RunRecord> StudyStore::latestRuns(const StoredStudy& study, const QList<RunRecord>& runs)
{
    QHash<int, RunRecord> latest;
    for (const RunRecord& run : runs) {
        if (run.studyId != study.id || run.studyPoint < 0 || run.studyPoint >= study.points.size())
            continue;
        const auto known = latest.constFind(run.studyPoint);
        // A finished run outranks a later one that was stopped; among equals, the latest wins.
        if (known == latest.constEnd() || (isDone(run.status) && !isDone(known->status)) ||
            (isDone(run.status) == isDone(known->status) && run.started > known->started))
            latest.insert(run.studyPoint, run);
    }
    return latest;
}

QList<StudyPoint> StudyStore::pointsToRun(const StoredStudy& study, const QList<RunRecord>& runs)
{
    const QHash<int, RunRecord> latest = latestRuns(study, runs);
    QList<StudyPoint> missing;
    for (const StudyPoint& point : study.points) {
        const auto run = latest.constFind(point.index);
        if (run == latest.constEnd() || !isDone(run->status))
            missing.append(point);
    }
    return missing;
}

}  // namespace ddplab::ui
