// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_tensorboard.hpp"

#include "client/io/read_file.hpp"
#include "client/io/save_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/study/study_results.hpp"
#include "client/tensorboard/tensorboard_run.hpp"
#include "client/wire.hpp"

#include "tensorboard/summary_events.hpp"
#include "tensorboard/tfrecord.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QSysInfo>

#include <algorithm>
#include <cmath>
#include <optional>

namespace ddplab::ui {
namespace {

namespace hparams = tensorboard::hparams;

// The tag a study's figure is written under in each of its runs, and read by the HParams tab.
const QString kStudyFigurePrefix = QStringLiteral("study/");
// How much of a folder's event file is looked at for a study's experiment: it is the file's
// second record, a few KiB.
constexpr qint64 kExperimentSearchBytes = 1 << 20;

QByteArray bytesOf(const std::string& bytes)
{
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

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

// A hyperparameter's value: a number, a boolean, or a string (anything else: its text, "" for null).
hparams::Value hparamValueOf(const QJsonValue& value)
{
    if (value.isDouble())
        return hparams::Value::ofNumber(value.toDouble());
    if (value.isBool())
        return hparams::Value::ofBoolean(value.toBool());
    return hparams::Value::ofText(value.toString().toStdString());
}

// "003_effective_batch_64_lr_0.1" (a repeat: "_repeat_2"): the point first, so folders sort as the plan.
QString pointFolder(const StudyPoint& point)
{
    return tensorBoardFolderName(QStringLiteral("%1_%2").arg(point.index, 3, 10, QLatin1Char('0')).arg(point.label()));
}

// `name`, or name_2, name_3 ... when an earlier source of this export took it: two runs (or
// studies) with one id, from two folders, never write over each other.
QString untakenFolder(const QString& name, QSet<QString>& taken)
{
    QString folder = name;
    for (int n = 2; taken.contains(folder); ++n)
        folder = QStringLiteral("%1_%2").arg(name).arg(n);
    taken.insert(folder);
    return folder;
}

void exportStudy(const StoredStudy& study, const RunStore& store, const QString& folder, TensorBoardExport& done)
{
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
    std::vector<hparams::Metric> metrics;
    for (const StudyFigure& figure : studyFigures()) {
        const bool some = std::any_of(sessions.begin(), sessions.end(), [&](const Session& session) {
            return std::isfinite(session.result.figure(figure.id, study.spec.figureSummary));
        });
        if (some)
            metrics.push_back({(kStudyFigurePrefix + figure.id).toStdString(), figure.titleFor(study.spec.figureSummary).toStdString(),
                               datasetOf(figure.id)});
    }
    std::vector<hparams::HParam> axes;
    for (const StudyAxis& axis : study.spec.axes) {
        hparams::HParam hparam{axis.key.toStdString(), {}, {}};
        for (const QJsonValue& value : axis.values)
            hparam.values.push_back(hparamValueOf(value));
        axes.push_back(hparam);
    }

    const double created = study.created.isValid() ? double(study.created.toMSecsSinceEpoch()) / 1000.0 : 0.0;
    tensorboard::RunEncoder experiment(created);
    const QString description = study.spec.summary.isEmpty() ? study.title() : study.title() + QStringLiteral("\n\n") + study.spec.summary;
    const QByteArray contents =
        bytesOf(experiment.header() +
                tensorboard::tfRecord(tensorboard::hparamsEvent(
                    created, hparams::kExperimentTag, hparams::experimentContent(description.toStdString(), created, axes, metrics))));
    QString error;
    const QString experimentPath =
        QDir(folder).filePath(QString::fromStdString(tensorboard::eventFileName(created, QSysInfo::machineHostName().toStdString())));
    if (!QDir().mkpath(folder) || !writeFileAtomically(experimentPath, contents, &error)) {
        done.problems.append(error.isEmpty() ? QStringLiteral("Cannot create the folder %1").arg(folder) : error);
        return;
    }
    done.files.append(experimentPath);
    ++done.studies;

    for (const Session& session : sessions) {
        const RunRecord& record = session.run->record();
        const double started = tensorBoardStartOf(record);
        StudyPoint combination = session.point;
        combination.repeat = 0;  // repeats (other seeds) share a group: one row of the table
        std::vector<std::pair<std::string, hparams::Value>> values;
        for (auto it = session.point.values.constBegin(); it != session.point.values.constEnd(); ++it)
            values.emplace_back(it.key().toStdString(), hparamValueOf(it.value()));
        const QByteArray start = bytesOf(tensorboard::tfRecord(tensorboard::hparamsEvent(
            started, hparams::kSessionStartTag, hparams::sessionStartContent(values, combination.label().toStdString(), started))));
        // The study's figures at the run's last step, then the session's end.
        const auto end = [&](tensorboard::RunEncoder& encoder) {
            const int64_t lastStep = encoder.lastStep();
            const double endTime = encoder.wallTimeAt(lastStep);
            std::vector<tensorboard::Scalar> figures;
            for (const hparams::Metric& metric : metrics) {
                const QString id = QString::fromStdString(metric.tag).mid(kStudyFigurePrefix.size());
                const double value = session.result.figure(id, study.spec.figureSummary);
                if (std::isfinite(value))
                    figures.push_back({metric.tag, value});
            }
            return bytesOf(encoder.encodeScalars(lastStep, endTime, figures) +
                           tensorboard::tfRecord(tensorboard::hparamsEvent(
                               endTime, hparams::kSessionEndTag, hparams::sessionEndContent(sessionStatus(record.status), endTime))));
        };
        const TensorBoardRunFile written = writeTensorBoardRun(record, QDir(folder).filePath(pointFolder(session.point)), start, end);
        if (!written.warning.isEmpty())
            done.warnings.append(written.warning);
        if (written.path.isEmpty()) {
            done.problems.append(written.error);
            continue;
        }
        done.files.append(written.path);
        ++done.runs;
    }
}

// The folders of `directory` that hold a study's experiment (an event file directly inside
// whose records carry the HParams plugin's experiment tag): what TensorBoard's HParams tab will
// find when `directory` is its --logdir.
QStringList studyFoldersIn(const QString& directory)
{
    QStringList studies;
    const QDir root(directory);
    for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir folder(root.filePath(name));
        for (const QString& file : folder.entryList({QStringLiteral("events.out.tfevents.*")}, QDir::Files)) {
            QString why;
            RegularFile events;
            if (events.open(folder.filePath(file), &why) && events.read(kExperimentSearchBytes).contains(hparams::kExperimentTag)) {
                studies.append(name);
                break;
            }
        }
    }
    return studies;
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
    QSet<QString> taken;  // the folders of this export, so that none is written twice
    for (const RunRecord& run : sources.runs) {
        const QString folder = untakenFolder(tensorBoardRunFolder(run), taken);
        if (folder != tensorBoardRunFolder(run))
            done.warnings.append(QStringLiteral("Run %1 of %2 has the id of another run given: it is written to %3, so that "
                                                "neither replaces the other")
                                     .arg(run.id, QFileInfo(run.directory).path(), folder));
        const TensorBoardRunFile written = writeTensorBoardRun(run, QDir(directory).filePath(folder));
        if (!written.warning.isEmpty())
            done.warnings.append(written.warning);
        if (written.path.isEmpty()) {
            done.problems.append(written.error);
            continue;
        }
        done.files.append(written.path);
        ++done.runs;
    }
    for (const StoredStudy& study : sources.studies) {
        const QString named = tensorBoardFolderName(study.id);
        const QString folder = untakenFolder(named, taken);
        if (folder != named)
            done.warnings.append(QStringLiteral("Study %1 of %2 has the id of another study given: it is written to %3, so that "
                                                "neither replaces the other")
                                     .arg(study.id, QFileInfo(study.directory).path(), folder));
        exportStudy(study, store, QDir(directory).filePath(folder), done);
    }
    // TensorBoard's HParams tab shows one experiment per --logdir (the first it finds).
    const QStringList studies = studyFoldersIn(directory);
    if (studies.size() > 1)
        done.warnings.append(QStringLiteral("%1 now holds %2 studies (%3), and TensorBoard's HParams tab shows the "
                                            "hyperparameters of only one experiment per --logdir: open each study on its own, "
                                            "e.g. tensorboard --logdir %4")
                                 .arg(directory)
                                 .arg(studies.size())
                                 .arg(studies.join(QStringLiteral(", ")), QDir(directory).filePath(studies.first())));
    return done;
}

}  // namespace ddplab::ui
