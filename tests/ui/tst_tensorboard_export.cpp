// SPDX-License-Identifier: GPL-3.0-or-later
// Runs and studies as TensorBoard files, read back by an independent reader: the record framing
// and protobuf encoding against known bytes, then stored runs (a recorded 2-rank run, a run with
// evaluations and epochs, a run of protocol 1 without wall_s) and a 9-run study exported and
// decoded by tests/tools/read_tensorboard.py (Debian's python3-protobuf from the .proto copies in
// tests/tools/tensorboard_proto, compiled with protoc; CRCs by python3-crc32c), which compares
// every value with the runs' events.jsonl; the command line in-process and through `ddplab`.

#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "client/session/launch_options.hpp"
#include "client/study/study_file.hpp"
#include "client/study/study_plan.hpp"
#include "client/study/study_store.hpp"
#include "client/study/study_tensorboard.hpp"
#include "client/tensorboard/tensorboard_events.hpp"
#include "client/tensorboard/tensorboard_records.hpp"
#include "client/tensorboard/tensorboard_run.hpp"
#include "client/tensorboard/tensorboard_stream.hpp"
#include "headless/headless_tensorboard.hpp"
#include "runs/run_list_panel.hpp"
#include "support/prerequisites.hpp"
#include "ui_test_main.hpp"
#include "window/lab_actions.hpp"
#include "window/log_panel.hpp"
#include "window/tensorboard_files.hpp"
#include "window/window_settings.hpp"

#include <QAction>
#include <QJsonArray>
#include <QProcess>

#include <cstring>

using namespace ddplab::ui;

namespace {

const QDateTime kStarted = QDateTime(QDate(2026, 11, 20), QTime(9, 30, 15, 250), Qt::UTC);

QByteArray lines(const QList<QJsonObject>& events)
{
    QByteArray out;
    for (const QJsonObject& event : events)
        out += QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n';
    return out;
}

// An event of the engine's: its type and its numeric fields.
using Field = std::pair<const char*, QJsonValue>;
QJsonObject event(const char* type, std::initializer_list<Field> fields)
{
    QJsonObject object{{QStringLiteral("type"), QLatin1String(type)}};
    for (const auto& [name, value] : fields)
        object.insert(QLatin1String(name), value);
    return object;
}

// A finished run in `store` whose events.jsonl is `events`.
RunRecord storedRun(const RunStore& store, const QString& name, const QByteArray& events, qint64 steps, const QString& studyId = {},
                    int point = -1)
{
    RunRecord draft;
    draft.name = name;
    draft.label = name;
    draft.started = kStarted;
    draft.studyId = studyId;
    draft.studyPoint = point;
    RunRecord run = *store.createRun(draft, {}, nullptr);
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.steps = steps;
    run.finished = kStarted.addSecs(5);
    store.saveMeta(run, nullptr);
    QFile file(RunStore::eventsPath(run));
    if (file.open(QIODevice::WriteOnly))
        file.write(events);
    return run;
}

QByteArray recordedTwoRankRun()
{
    QFile file(QStringLiteral(DDPLAB_SOURCE_DIR "/tests/ui/data/linreg-2x8-lr1.events.jsonl"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// 2 ranks x 16, 4 steps in 2 epochs, evaluated after each: 40 scalars (docs/tensorboard.md):
// 2 of the config, 5 per step (epoch, lr, loss, samples, step_ms) and train_loss twice, 3 per
// eval (val_loss, val_accuracy, eval_samples), 5 per epoch.
QByteArray evaluatedRun()
{
    QList<QJsonObject> events{event("hello", {{"protocol", 3}}),
                              event("config", {{"world_size", 2}, {"batch_size", 16}, {"effective_batch_size", 32}, {"lr_effective", 0.2},
                                               {"steps_per_epoch", 2}, {"total_steps", 4}, {"epochs", 2}})};
    for (int step = 1; step <= 4; ++step) {
        QJsonObject one = event("step", {{"step", step}, {"epoch", (step - 1) / 2}, {"lr", 0.2}, {"loss", 2.0 / step}, {"samples", 32},
                                         {"step_ms", 10.0}, {"wall_s", 0.011 * step + (step > 2 ? 0.5 : 0.0)}});
        if (step % 2 == 0)
            one.insert(QStringLiteral("train_loss"), 1.9 / step);
        events.append(one);
        if (step % 2 == 0) {
            events.append(event("eval", {{"step", step}, {"epoch", step / 2 - 1}, {"val_loss", 1.5 / step}, {"val_accuracy", 0.5 + 0.05 * step},
                                         {"samples", 1000}}));
            events.append(event("epoch", {{"epoch", step / 2 - 1}, {"step", step}, {"steps", 2}, {"samples", 64}, {"loss", 3.0 / (step + 1)},
                                          {"train_s", 0.02}, {"samples_per_sec", 3200.0}}));
        }
    }
    events.append(event("summary", {{"steps", 4}, {"epochs", 2}, {"loss", 0.5}}));
    return lines(events);
}

// A run of protocol 1: no wall_s, so its wall times are its steps' step_ms summed.
QByteArray protocolOneRun()
{
    QList<QJsonObject> events{event("hello", {{"protocol", 1}}), event("config", {{"effective_batch_size", 8}})};
    for (int step = 1; step <= 3; ++step)
        events.append(event("step", {{"step", step}, {"epoch", 0}, {"lr", 0.1}, {"loss", 1.0 / (step + 2)}, {"samples", 8}, {"step_ms", 20.0 * step}}));
    events.append(event("summary", {{"steps", 3}, {"epochs", 1}}));
    return lines(events);
}

// The study's `loss` figure of a point's run (the mean of its last epoch).
double epochLoss(const StudyPoint& point)
{
    return 2.0 - 50.0 * point.values.value(QStringLiteral("lr")).toDouble() + point.index * 1e-3;
}

// A run of a study's point: its loss falls faster with a larger LR; the epoch's mean loss is the
// study's `loss` figure. Its train_loss meets the study's target (<= 1.2) at step 3 with LR
// 0.016 (1.95 - 0.32 x 3), never with the smaller ones.
QByteArray studyRun(const StudyPoint& point)
{
    const double lr = point.values.value(QStringLiteral("lr")).toDouble();
    const double batch = point.values.value(QStringLiteral("effective_batch")).toDouble();
    QList<QJsonObject> events{event("hello", {{"protocol", 3}}),
                              event("config", {{"effective_batch_size", batch}, {"lr_effective", lr}, {"steps_per_epoch", 4},
                                               {"total_steps", 4}, {"epochs", 1}})};
    for (int step = 1; step <= 4; ++step)
        events.append(event("step", {{"step", step}, {"epoch", 0}, {"lr", lr}, {"loss", 2.0 - 20.0 * lr * step},
                                     {"train_loss", 1.95 - 20.0 * lr * step}, {"samples", batch}, {"wall_s", 0.25 * step}}));
    events.append(event("epoch", {{"epoch", 0}, {"step", 4}, {"steps", 4}, {"samples", 4 * batch}, {"loss", epochLoss(point)}}));
    events.append(event("summary", {{"steps", 4}, {"epochs", 1}}));
    return lines(events);
}

}  // namespace

class TestTensorBoardExport : public QObject {
    Q_OBJECT

private slots:
    void crcAndRecordFraming();
    void protobufWireFormat();
    void runsReadBackEqualTheirEvents();
    void studyCarriesItsHyperparameters();
    void commandLine();
    void labBinaryExports();
    void windowExportsAndStreams();

private:
    struct Fixture {
        RunRecord recorded, evaluated, protocolOne;
        StoredStudy study;
        QList<RunRecord> studyRuns;  // by point
    };
    // The runs and the study, stored once in the suite's own data folder (ui_test_main.hpp).
    const Fixture& fixture();
    // tests/tools/read_tensorboard.py's report on `directory`, comparing FOLDER=RUN_DIR pairs.
    QJsonObject readBack(const QString& directory, const QStringList& compare);

    std::optional<Fixture> m_fixture;
};

const TestTensorBoardExport::Fixture& TestTensorBoardExport::fixture()
{
    if (m_fixture)
        return *m_fixture;
    const RunStore store;
    Fixture f;
    f.recorded = storedRun(store, QStringLiteral("linreg 2×8 · lr 1"), recordedTwoRankRun(), 24);
    f.evaluated = storedRun(store, QStringLiteral("evaluated"), evaluatedRun(), 4);
    f.protocolOne = storedRun(store, QStringLiteral("protocol one"), protocolOneRun(), 3);
    QFile file(QStringLiteral(DDPLAB_SOURCE_DIR "/tests/ui/data/toy-grid-study.json"));
    file.open(QIODevice::ReadOnly);
    const StudyReadResult read = parseStudy(QJsonDocument::fromJson(file.readAll()).object(), QStringLiteral("toy-grid"), QString());
    QString error;
    f.study = *StudyStore().create(*read.spec, planStudy(*read.spec), &error);
    for (const StudyPoint& point : f.study.points)
        f.studyRuns.append(storedRun(store, point.label(), studyRun(point), 4, f.study.id, point.index));
    m_fixture = f;
    return *m_fixture;
}

QJsonObject TestTensorBoardExport::readBack(const QString& directory, const QStringList& compare)
{
    QStringList arguments{QStringLiteral(DDPLAB_SOURCE_DIR "/tests/tools/read_tensorboard.py"), directory};
    for (const QString& pair : compare)
        arguments << QStringLiteral("--compare") << pair;
    QProcess reader;
    reader.start(ddplab::test::debianPython(), arguments);
    if (!reader.waitForFinished(120000) || reader.exitCode() != 0) {
        qWarning("read_tensorboard.py: %s", reader.readAllStandardError().constData());
        return {};
    }
    return QJsonDocument::fromJson(reader.readAllStandardOutput()).object();
}

void TestTensorBoardExport::crcAndRecordFraming()
{
    // CRC-32C's check value (RFC 3720's test vectors too: 32 zero bytes).
    QCOMPARE(crc32c("123456789"), 0xE3069283u);
    QCOMPARE(crc32c(QByteArray(32, '\0')), 0x8A9136AAu);
    QCOMPARE(crc32c(QByteArray()), 0u);
    // TensorFlow's mask: rotate right by 15, add 0xA282EAD8.
    const quint32 crc = 0xE3069283u;
    QCOMPARE(maskedCrc32c("123456789"), quint32(((crc >> 15) | (crc << 17)) + 0xA282EAD8u));

    const QByteArray record = tfRecord("abc");
    QCOMPARE(record.size(), 3 + 16);
    QCOMPARE(record.left(8), QByteArray("\x03\0\0\0\0\0\0\0", 8));  // uint64 little-endian
    QCOMPARE(qFromLittleEndian<quint32>(record.constData() + 8), maskedCrc32c(record.left(8)));
    QCOMPARE(record.mid(12, 3), QByteArray("abc"));
    QCOMPARE(qFromLittleEndian<quint32>(record.constData() + 15), maskedCrc32c("abc"));
}

void TestTensorBoardExport::protobufWireFormat()
{
    ProtoWriter out;
    out.varint(1, 300);      // field 1, varint: 08 AC 02
    out.varint(2, quint64(qint64(-1)));  // int64 -1: ten bytes
    out.fixed64(1, 1.0);     // field 1, 64-bit: 09, then 1.0 little-endian
    out.fixed32(2, 1.5f);    // field 2, 32-bit: 15 00 00 C0 3F
    out.string(3, QStringLiteral("é"));  // field 3, length-delimited: 1A 02 C3 A9
    const QByteArray expected = QByteArray::fromHex("08ac02"
                                                    "10ffffffffffffffffff01"
                                                    "09000000000000f03f"
                                                    "150000c03f"
                                                    "1a02c3a9");
    QCOMPARE(out.data().toHex(), expected.toHex());

    // The file's first event: wall_time 1.5, step 0, file_version "brain.Event:2".
    QCOMPARE(fileVersionEvent(1.5).toHex(), QByteArray::fromHex("09000000000000f83f" "1000" "1a0d").toHex() + QByteArray("brain.Event:2").toHex());
    // A scalar: Event{wall_time, step 7, summary{value{tag "loss", simple_value 0.25}}}.
    QCOMPARE(scalarsEvent(0.0, 7, {{QStringLiteral("loss"), 0.25}}).toHex(),
             QByteArray::fromHex("090000000000000000" "1007" "2a0d" "0a0b" "0a046c6f7373" "150000803e").toHex());
}

void TestTensorBoardExport::runsReadBackEqualTheirEvents()
{
    const Fixture& f = fixture();
    QTemporaryDir out;
    QString error;
    const TensorBoardSources sources = resolveTensorBoardSources(
        {f.recorded.id, f.evaluated.directory, f.protocolOne.name}, RunStore(), StudyStore(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(sources.runs.size(), 3);
    const TensorBoardExport done = exportToTensorBoard(sources, RunStore(), out.path());
    QVERIFY2(done.problems.isEmpty(), qPrintable(done.problems.join(QLatin1Char('\n'))));
    QCOMPARE(done.files.size(), 3);
    QCOMPARE(done.runs, 3);

    QStringList compare;
    for (const RunRecord& run : {f.recorded, f.evaluated, f.protocolOne})
        compare << tensorBoardRunFolder(run) + QLatin1Char('=') + run.directory;
    const QJsonObject report = readBack(out.path(), compare);
    const QJsonObject files = report.value(QStringLiteral("files")).toObject();
    QCOMPARE(files.size(), 3);
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QJsonObject file = it.value().toObject();
        QVERIFY2(it.key().contains(QStringLiteral("/events.out.tfevents.1795167015.")), qPrintable(it.key()));
        QCOMPARE(file.value(QStringLiteral("file_version")).toString(), QStringLiteral("brain.Event:2"));
        QCOMPARE(file.value(QStringLiteral("bad_crcs")).toInt(-1), 0);
    }
    const QJsonObject comparisons = report.value(QStringLiteral("comparisons")).toObject();
    QCOMPARE(comparisons.size(), 3);
    for (auto it = comparisons.begin(); it != comparisons.end(); ++it) {
        const QJsonArray mismatches = it.value().toObject().value(QStringLiteral("mismatches")).toArray();
        QVERIFY2(mismatches.isEmpty(), qPrintable(it.key() + QStringLiteral(": ") + QString::fromUtf8(QJsonDocument(mismatches).toJson())));
    }
    const auto fileOf = [&](const RunRecord& run) {
        for (auto it = files.begin(); it != files.end(); ++it) {
            if (it.key().startsWith(tensorBoardRunFolder(run) + QLatin1Char('/')))
                return it.value().toObject();
        }
        return QJsonObject();
    };
    const auto compared = [&](const RunRecord& run) {
        return comparisons.value(tensorBoardRunFolder(run)).toObject().value(QStringLiteral("compared")).toInt();
    };
    // Every value compared is every scalar in the file: none more, none left out.
    QCOMPARE(compared(f.evaluated), 40);
    QCOMPARE(fileOf(f.evaluated).value(QStringLiteral("scalars")).toInt(), 40);
    QCOMPARE(compared(f.protocolOne), 3 * 5 + 1);
    QCOMPARE(fileOf(f.protocolOne).value(QStringLiteral("scalars")).toInt(), 16);
    // The recorded run: 24 steps of 16 figures, 3 epochs of 5, and the config's 2.
    QCOMPARE(compared(f.recorded), 24 * 16 + 3 * 5 + 2);
    QCOMPARE(fileOf(f.recorded).value(QStringLiteral("scalars")).toInt(), compared(f.recorded));
    const QStringList tags = fileOf(f.evaluated).value(QStringLiteral("tags")).toVariant().toStringList();
    QCOMPARE(tags, QStringLiteral("effective_batch_size epoch epoch_loss epoch_samples epoch_samples_per_sec epoch_steps epoch_train_s "
                                  "eval_samples loss lr lr_effective samples step_ms train_loss val_accuracy val_loss")
                       .split(QLatin1Char(' ')));
    QVERIFY(fileOf(f.recorded).value(QStringLiteral("tags")).toVariant().toStringList().contains(QStringLiteral("noise_scale")));
}

void TestTensorBoardExport::studyCarriesItsHyperparameters()
{
    const Fixture& f = fixture();
    QTemporaryDir out;
    QString error;
    const TensorBoardSources sources = resolveTensorBoardSources({f.study.id}, RunStore(), StudyStore(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(sources.studies.size(), 1);
    const TensorBoardExport done = exportToTensorBoard(sources, RunStore(), out.path());
    QVERIFY2(done.problems.isEmpty(), qPrintable(done.problems.join(QLatin1Char('\n'))));
    QCOMPARE(done.studies, 1);
    QCOMPARE(done.runs, 9);
    QCOMPARE(done.files.size(), 10);

    // Each point's folder, in plan order, against its run's events.
    const QString studyFolder = tensorBoardFolderName(f.study.id);
    const QStringList pointFolders = QDir(tensorBoardStudyFolder(f.study, out.path())).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QCOMPARE(pointFolders.size(), 9);
    QStringList compare;
    for (int i = 0; i < 9; ++i)
        compare << studyFolder + QLatin1Char('/') + pointFolders.at(i) + QLatin1Char('=') + f.studyRuns.at(i).directory;
    const QJsonObject report = readBack(out.path(), compare);
    const QJsonObject files = report.value(QStringLiteral("files")).toObject();
    QCOMPARE(files.size(), 10);

    // The experiment at the study's root: its axes as hparams, its figures as metrics.
    QJsonObject root;
    for (auto it = files.begin(); it != files.end(); ++it) {
        QCOMPARE(it.value().toObject().value(QStringLiteral("bad_crcs")).toInt(-1), 0);
        QCOMPARE(it.value().toObject().value(QStringLiteral("file_version")).toString(), QStringLiteral("brain.Event:2"));
        if (QFileInfo(it.key()).path() == studyFolder)
            root = it.value().toObject();
    }
    const QJsonObject experiment = root.value(QStringLiteral("experiment")).toObject();
    QCOMPARE(experiment.value(QStringLiteral("version")).toInt(-1), 0);
    QCOMPARE(experiment.value(QStringLiteral("tag")).toString(), QStringLiteral("_hparams_/experiment"));
    QVERIFY(experiment.value(QStringLiteral("description")).toString().startsWith(QStringLiteral("Toy problem: batch x LR")));
    const QJsonArray hparams = experiment.value(QStringLiteral("hparam_infos")).toArray();
    QCOMPARE(hparams.size(), 2);
    QCOMPARE(hparams.at(0)[QStringLiteral("name")].toString(), QStringLiteral("effective_batch"));
    QCOMPARE(hparams.at(0)[QStringLiteral("type")].toString(), QStringLiteral("DATA_TYPE_FLOAT64"));
    QCOMPARE(hparams.at(0)[QStringLiteral("values")].toArray(), QJsonArray({16, 64, 256}));
    QCOMPARE(hparams.at(1)[QStringLiteral("name")].toString(), QStringLiteral("lr"));
    QCOMPARE(hparams.at(1)[QStringLiteral("values")].toArray(), QJsonArray({0.001, 0.004, 0.016}));
    QCOMPARE(hparams.at(1)[QStringLiteral("differs")].toBool(), true);
    QStringList metricTags;
    for (const QJsonValue& metric : experiment.value(QStringLiteral("metric_infos")).toArray())
        metricTags.append(metric[QStringLiteral("tag")].toString());
    QVERIFY2(metricTags.contains(QStringLiteral("study/loss")), qPrintable(metricTags.join(QLatin1Char(' '))));
    QVERIFY(metricTags.contains(QStringLiteral("study/steps_to_target")));
    QVERIFY(metricTags.contains(QStringLiteral("study/train_loss")));
    QVERIFY(!metricTags.contains(QStringLiteral("study/val_loss")));  // no run has one

    // Each session: its point's values, its group, success, and the study's figures.
    const QJsonObject comparisons = report.value(QStringLiteral("comparisons")).toObject();
    for (int i = 0; i < 9; ++i) {
        const StudyPoint& point = f.study.points.at(i);
        const QString folder = studyFolder + QLatin1Char('/') + pointFolders.at(i);
        const QJsonObject comparison = comparisons.value(folder).toObject();
        QVERIFY2(comparison.value(QStringLiteral("mismatches")).toArray().isEmpty(),
                 QJsonDocument(comparison).toJson().constData());
        QCOMPARE(comparison.value(QStringLiteral("compared")).toInt(), 2 + 4 * 5 + 3);  // config, 4 steps, the epoch
        QJsonObject file;
        for (auto it = files.begin(); it != files.end(); ++it) {
            if (it.key().startsWith(folder + QLatin1Char('/')))
                file = it.value().toObject();
        }
        const QJsonObject start = file.value(QStringLiteral("session_start_info")).toObject();
        QCOMPARE(start.value(QStringLiteral("hparams")).toObject(), point.values);
        QCOMPARE(start.value(QStringLiteral("group_name")).toString(), point.label());
        QCOMPARE(start.value(QStringLiteral("start_time_secs")).toDouble(), kStarted.toMSecsSinceEpoch() / 1000.0);
        QCOMPARE(file.value(QStringLiteral("session_end_info")).toObject().value(QStringLiteral("status")).toString(),
                 QStringLiteral("STATUS_SUCCESS"));
        const QJsonObject figures = comparison.value(QStringLiteral("extra")).toObject();
        QCOMPARE(figures.value(QStringLiteral("study/loss")).toDouble(), double(float(epochLoss(point))));
        if (point.values.value(QStringLiteral("lr")).toDouble() == 0.016) {
            QCOMPARE(figures.value(QStringLiteral("study/steps_to_target")).toDouble(), 3.0);
            QCOMPARE(figures.value(QStringLiteral("study/samples_to_target")).toDouble(),
                     3 * point.values.value(QStringLiteral("effective_batch")).toDouble());
        } else {
            QVERIFY(!figures.contains(QStringLiteral("study/steps_to_target")));
        }
    }
}

void TestTensorBoardExport::commandLine()
{
    const Fixture& f = fixture();
    QTemporaryDir out;
    const LaunchOptions options = parseLaunchOptions(
        {QStringLiteral("ddplab"), QStringLiteral("--export-tensorboard"), f.evaluated.id, f.study.id, out.path(), QStringLiteral("--quit")});
    QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
    QCOMPARE(options.tensorBoardSources, QStringList({f.evaluated.id, f.study.id}));
    QCOMPARE(options.tensorBoardDirectory, out.path());

    QString printed, complaints;
    QTextStream stdOut(&printed), stdErr(&complaints);
    QCOMPARE(exportTensorBoardHeadless(options, stdOut, stdErr), 0);
    QVERIFY2(complaints.isEmpty(), qPrintable(complaints));
    QVERIFY2(printed.contains(QStringLiteral("Wrote 11 TensorBoard event files (10 runs, 1 study with their hyperparameters)")),
             qPrintable(printed));
    QVERIFY(printed.contains(QStringLiteral("tensorboard --logdir ") + out.path()));
    QVERIFY(QDir(out.filePath(tensorBoardRunFolder(f.evaluated))).entryList({QStringLiteral("events.out.tfevents.*")}, QDir::Files).size() == 1);

    // Wrong uses say what is wrong.
    QVERIFY(parseLaunchOptions({QStringLiteral("ddplab"), QStringLiteral("--export-tensorboard"), out.path(), QStringLiteral("--quit")})
                .error.contains(QStringLiteral("needs one run or study or more")));
    QVERIFY(parseLaunchOptions({QStringLiteral("ddplab"), QStringLiteral("--export-tensorboard"), f.evaluated.id, out.path()})
                .error.contains(QStringLiteral("add --quit")));
    QVERIFY(parseLaunchOptions({QStringLiteral("ddplab"), f.evaluated.id}).error.contains(QStringLiteral("Unexpected argument")));
    const LaunchOptions unknown = parseLaunchOptions(
        {QStringLiteral("ddplab"), QStringLiteral("--export-tensorboard"), QStringLiteral("no-such-run"), out.path(), QStringLiteral("--quit")});
    QCOMPARE(exportTensorBoardHeadless(unknown, stdOut, stdErr), 2);
    QVERIFY2(complaints.contains(QStringLiteral("\"no-such-run\" is neither a run nor a study")), qPrintable(complaints));
}

void TestTensorBoardExport::labBinaryExports()
{
    const Fixture& f = fixture();
    QTemporaryDir out;
    const QString lab = QFileInfo(ddplab::test::enginePath()).dir().filePath(QStringLiteral("ddplab"));
    QVERIFY2(QFileInfo(lab).isExecutable(), qPrintable(lab + QStringLiteral(" is not built")));
    QProcess process;
    process.start(lab, {QStringLiteral("--export-tensorboard"), f.recorded.directory, out.path(), QStringLiteral("--quit")});
    QVERIFY(process.waitForFinished(60000));
    const QString printed = QString::fromUtf8(process.readAllStandardOutput());
    QVERIFY2(process.exitCode() == 0, qPrintable(printed + QString::fromUtf8(process.readAllStandardError())));
    QVERIFY2(printed.contains(QStringLiteral("Wrote 1 TensorBoard event file (1 run)")), qPrintable(printed));
    const QJsonObject report = readBack(out.path(), {tensorBoardRunFolder(f.recorded) + QLatin1Char('=') + f.recorded.directory});
    const QJsonObject comparison = report.value(QStringLiteral("comparisons")).toObject().value(tensorBoardRunFolder(f.recorded)).toObject();
    QCOMPARE(comparison.value(QStringLiteral("compared")).toInt(), 24 * 16 + 3 * 5 + 2);
    QVERIFY(comparison.value(QStringLiteral("mismatches")).toArray().isEmpty());
}

void TestTensorBoardExport::windowExportsAndStreams()
{
    const Fixture& f = fixture();
    const RunStore store;
    LabSession session(store, QString());
    const LabActions actions(this);
    RunListPanel list;
    LogPanel log;
    TensorBoardFiles files(store, session, actions, {list, log}, nullptr);

    // Nothing selected in the Runs list: every stored run, the study's as their study.
    QTemporaryDir out;
    const QString said = files.exportTo(out.path());
    QCOMPARE(said, QStringLiteral("Wrote 12 TensorBoard runs (1 study with its hyperparameters) to %1: open them with "
                                  "tensorboard --logdir %1").arg(out.path()));
    QStringList folders = QDir(out.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QStringList expected{tensorBoardRunFolder(f.recorded), tensorBoardRunFolder(f.evaluated), tensorBoardRunFolder(f.protocolOne),
                         tensorBoardFolderName(f.study.id)};
    expected.sort();
    QCOMPARE(folders, expected);

    // Off by default; the setting turns it on, into its folder.
    QVERIFY(!actions.streamTensorBoard->isChecked());
    QTemporaryDir streamed;
    WindowSettings settings;
    settings.tensorBoardStream = true;
    settings.tensorBoardFolder = streamed.path();
    files.restore(settings);
    QVERIFY(files.isStreaming());
    QVERIFY(actions.streamTensorBoard->isChecked());
    QCOMPARE(files.streamFolder(), streamed.path());

    // A run streams in two batches, as the engine's events arrive; its file follows each.
    const QByteArray events = evaluatedRun();
    const RunRecord record = storedRun(store, QStringLiteral("streaming"), events, 4);
    QList<QJsonObject> all;
    for (const QByteArray& line : events.split('\n')) {
        if (!line.isEmpty())
            all.append(QJsonDocument::fromJson(line).object());
    }
    auto run = QSharedPointer<RunData>::create(record);
    run->appendEvents(all.mid(0, 5));
    emit session.runStarted(0, run);
    const QString file = QDir(streamed.filePath(tensorBoardRunFolder(record))).filePath(TensorBoardRunEncoder(record).fileName());
    QVERIFY2(QFileInfo(file).size() > 0, qPrintable(file));
    const qint64 firstBatch = QFileInfo(file).size();
    run->appendEvents(all.mid(5));
    emit session.runUpdated(run);
    emit session.runFinished(0, run);
    QVERIFY(QFileInfo(file).size() > firstBatch);
    const QString folder = tensorBoardRunFolder(record);
    const QJsonObject report = readBack(streamed.path(), {folder + QLatin1Char('=') + record.directory});
    const QJsonObject comparison = report.value(QStringLiteral("comparisons")).toObject().value(folder).toObject();
    QCOMPARE(comparison.value(QStringLiteral("compared")).toInt(), 40);
    QVERIFY2(comparison.value(QStringLiteral("mismatches")).toArray().isEmpty(), QJsonDocument(comparison).toJson().constData());
    QCOMPARE(report.value(QStringLiteral("files")).toObject().size(), 1);
    WindowSettings saved;
    files.saveInto(saved);
    QVERIFY(saved.tensorBoardStream);
    QCOMPARE(saved.tensorBoardFolder, streamed.path());

    // Turned off: the next run writes nothing.
    actions.streamTensorBoard->setChecked(false);
    QVERIFY(!files.isStreaming());
    const RunRecord quiet = storedRun(store, QStringLiteral("quiet"), events, 4);
    auto quietRun = QSharedPointer<RunData>::create(quiet);
    quietRun->appendEvents(all);
    emit session.runStarted(1, quietRun);
    emit session.runFinished(1, quietRun);
    QVERIFY(!QDir(streamed.filePath(tensorBoardRunFolder(quiet))).exists());
}

DDPLAB_UI_TEST_MAIN(TestTensorBoardExport)

#include "tst_tensorboard_export.moc"
