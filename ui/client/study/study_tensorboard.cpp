// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_tensorboard.hpp"

#include "client/io/save_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/study/study_results.hpp"
#include "client/tensorboard/tensorboard_events.hpp"
#include "client/tensorboard/tensorboard_records.hpp"
#include "client/tensorboard/tensorboard_run.hpp"
#include "client/wire.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <optional>

namespace ddplab::ui {
namespace {

// The tag a study's figure is written under in each of its runs, and read by the HParams tab.
const QString kStudyFigurePrefix = QStringLiteral("study/");

bool isRunFolder(const QString& directory)
{
    RunRecord probe;
    probe.directory = directory;
    return QFileInfo::exists(RunStore::eventsPath(probe)) || QFileInfo::exists(RunStore::metaPath(probe));
}

hparams::Status sessionStatus(RunStatus status)
{
    switch (status) {
    case RunStatus::Finished: return hparams::Status::Success;
    case RunStatus::Running: return hparams::Status::Running;
    case RunStatus::Failed:
    case RunStatus::Diverged: return hparams::Status::Failure;
    default: return hparams::Status::Unknown;
    }
}

hparams::DatasetType datasetOf(const QString& figure)
{
    if (figure.startsWith(QStringLiteral("val_")))  // validation figures (RunData's prefix)
        return hparams::DatasetType::Validation;
    if (figure == wire(field::kLoss) || figure == wire(field::kAccuracy) || figure == wire(field::kTrainLoss) ||
        figure == wire(field::kTrainAccuracy))
        return hparams::DatasetType::Training;
    return hparams::DatasetType::Unknown;
}

// "003_effective_batch_64_lr_0.1" (a repeat: "_repeat_2"): the point first, so folders sort as the plan.
QString pointFolder(const StudyPoint& point)
{
    return tensorBoardFolderName(QStringLiteral("%1_%2").arg(point.index, 3, 10, QLatin1Char('0')).arg(point.label()));
}

void exportStudy(const StoredStudy& study, const RunStore& store, const QString& directory, TensorBoardExport& done)
{
    const QString folder = tensorBoardStudyFolder(study, directory);
    const QHash<int, RunRecord> latest = StudyStore::latestRuns(study, store.listRuns());
    struct Session {
        StudyPoint point;
        QSharedPointer<RunData> run;
        StudyRunResult result;
    };
    QList<Session> sessions;
    for (const StudyPoint& point : study.points) {
        const auto record = latest.constFind(point.index);
        if (record == latest.constEnd())
            continue;
        const QSharedPointer<RunData> run = store.loadRun(*record);
        sessions.append({point, run, resultOf(point, *run, study.spec)});
    }

    // The study's figures that some run has: the HParams tab's metric columns.
    QList<hparams::Metric> metrics;
    for (const StudyFigure& figure : studyFigures()) {
        const bool some = std::any_of(sessions.begin(), sessions.end(), [&](const Session& session) {
            return std::isfinite(session.result.figure(figure.id, study.spec.figureSummary));
        });
        if (some)
            metrics.append({kStudyFigurePrefix + figure.id, figure.titleFor(study.spec.figureSummary), datasetOf(figure.id)});
    }
    QList<hparams::HParam> axes;
    for (const StudyAxis& axis : study.spec.axes)
        axes.append({axis.key, QString(), axis.values});

    RunRecord studyStart;
    studyStart.started = study.created;
    TensorBoardRunEncoder experiment(studyStart);
    const QString description = study.spec.summary.isEmpty() ? study.title() : study.title() + QStringLiteral("\n\n") + study.spec.summary;
    const QByteArray contents =
        experiment.header() +
        tfRecord(hparamsEvent(experiment.startSeconds(), hparams::kExperimentTag,
                              hparams::experimentContent(description, experiment.startSeconds(), axes, metrics)));
    QString error;
    const QString experimentPath = QDir(folder).filePath(experiment.fileName());
    if (!QDir().mkpath(folder) || !writeFileAtomically(experimentPath, contents, &error)) {
        done.problems.append(error.isEmpty() ? QStringLiteral("Cannot create the folder %1").arg(folder) : error);
        return;
    }
    done.files.append(experimentPath);
    ++done.studies;

    for (const Session& session : sessions) {
        const RunData& run = *session.run;
        const TensorBoardRunEncoder clock(run.record());
        StudyPoint combination = session.point;
        combination.repeat = 0;  // repeats (other seeds) share a group: one row of the table
        const QByteArray start = tfRecord(hparamsEvent(
            clock.startSeconds(), hparams::kSessionStartTag,
            hparams::sessionStartContent(session.point.values, combination.label(), clock.startSeconds())));
        const qint64 lastStep = run.lastStep();
        const double endTime = clock.wallTimeAt(run, lastStep);
        QList<TensorBoardScalar> figures;
        for (const hparams::Metric& metric : metrics) {
            const double value = session.result.figure(metric.tag.mid(kStudyFigurePrefix.size()), study.spec.figureSummary);
            if (std::isfinite(value))
                figures.append({metric.tag, value});
        }
        QByteArray end;
        if (!figures.isEmpty())
            end += tfRecord(scalarsEvent(endTime, lastStep, figures));
        end += tfRecord(hparamsEvent(endTime, hparams::kSessionEndTag,
                                     hparams::sessionEndContent(sessionStatus(run.record().status), endTime)));
        const QString path = writeTensorBoardRun(run, QDir(folder).filePath(pointFolder(session.point)), &error, start, end);
        if (path.isEmpty()) {
            done.problems.append(error);
            continue;
        }
        done.files.append(path);
        ++done.runs;
    }
}

}  // namespace

QString tensorBoardStudyFolder(const StoredStudy& study, const QString& directory)
{
    return QDir(directory).filePath(tensorBoardFolderName(study.id));
}

TensorBoardSources resolveTensorBoardSources(const QStringList& names, const RunStore& runs, const StudyStore& studies,
                                             QString* error)
{
    TensorBoardSources sources;
    QSet<QString> seen;  // folders already taken
    std::optional<QList<RunRecord>> stored;  // the run store's list, read once when a name needs it
    for (const QString& name : names) {
        const QFileInfo info(name);
        QString problem;
        if (info.isDir()) {
            if (std::optional<StoredStudy> study = studies.open(info.absoluteFilePath(), &problem)) {
                if (!seen.contains(study->directory)) {
                    seen.insert(study->directory);
                    sources.studies.append(*study);
                }
                continue;
            }
            if (isRunFolder(info.absoluteFilePath())) {
                for (const RunRecord& run : RunStore(info.absolutePath()).listRuns()) {
                    if (run.id == info.fileName() && !seen.contains(run.directory)) {
                        seen.insert(run.directory);
                        sources.runs.append(run);
                    }
                }
                continue;
            }
        }
        if (!stored)
            stored = runs.listRuns();
        const auto run = std::find_if(stored->begin(), stored->end(), [&](const RunRecord& r) { return r.id == name; });
        const auto named = std::find_if(stored->begin(), stored->end(), [&](const RunRecord& r) { return r.name == name; });
        if (const auto found = run != stored->end() ? run : named; found != stored->end()) {
            if (!seen.contains(found->directory)) {
                seen.insert(found->directory);
                sources.runs.append(*found);
            }
            continue;
        }
        if (!name.contains(QLatin1Char('/'))) {
            if (std::optional<StoredStudy> study = studies.open(name, &problem)) {
                if (!seen.contains(study->directory)) {
                    seen.insert(study->directory);
                    sources.studies.append(*study);
                }
                continue;
            }
        }
        if (error)
            *error = QStringLiteral("\"%1\" is neither a run nor a study: give a run's or a study's folder, a run's id or name "
                                    "(in %2), or a study's id (in %3)")
                         .arg(name, runs.root(), studies.root());
        return {};
    }
    if (error)
        error->clear();
    return sources;
}

TensorBoardSources tensorBoardSourcesOf(const QList<RunRecord>& runs, const StudyStore& studies)
{
    TensorBoardSources sources;
    QSet<QString> studyIds;
    for (const RunRecord& run : runs) {
        if (run.belongsToStudy()) {
            if (studyIds.contains(run.studyId))
                continue;
            QString problem;
            if (std::optional<StoredStudy> study = studies.open(run.studyId, &problem)) {
                studyIds.insert(run.studyId);
                sources.studies.append(*study);
                continue;
            }
        }
        sources.runs.append(run);  // a run of no study, or of one that is gone: a run of its own
    }
    return sources;
}

TensorBoardExport exportToTensorBoard(const TensorBoardSources& sources, const RunStore& store, const QString& directory)
{
    TensorBoardExport done;
    for (const RunRecord& run : sources.runs) {
        QString error;
        const QString path = exportRunToTensorBoard(store, run, directory, &error);
        if (path.isEmpty()) {
            done.problems.append(error);
            continue;
        }
        done.files.append(path);
        ++done.runs;
    }
    for (const StoredStudy& study : sources.studies)
        exportStudy(study, store, directory, done);
    return done;
}

}  // namespace ddplab::ui
