// SPDX-License-Identifier: GPL-3.0-or-later
// Runs and studies as TensorBoard files, read back by an independent reader: the record framing
// and protobuf encoding against known bytes, then stored runs (a recorded 2-rank run, a run with
// evaluations and epochs, a run of protocol 1 without wall_s) and a 9-run study exported and
// decoded by tests/tools/read_tensorboard.py (Debian's python3-protobuf from the .proto copies in
// tests/tools/tensorboard_proto, compiled with protoc; CRCs by python3-crc32c), which compares
// every value, and the tag it is under, with the runs' events.jsonl by its own copy of the tag
// table; the command line in-process and through `ddplab` (on QCoreApplication: no platform); a 2-rank run of the real engine with
// tensorboard_dir, whose file reads back equal to its events and to the window's export of
// them; and what must not go wrong: one run id given from two folders, a meta.json without
// `started`, a FIFO as events.jsonl, a value beyond float32, two studies in one folder.

#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "command_line.hpp"
#include "client/study/study_file.hpp"
#include "client/study/study_plan.hpp"
#include "client/study/study_store.hpp"
#include "client/study/study_tensorboard.hpp"
#include "client/tensorboard/tensorboard_run.hpp"
#include "client/tensorboard/tensorboard_stream.hpp"
#include "headless/headless_tensorboard.hpp"
#include "runs/run_list_panel.hpp"
#include "support/engine_process.hpp"
#include "support/prerequisites.hpp"
#include "ui_test_main.hpp"
#include "window/lab_actions.hpp"
#include "window/log_panel.hpp"
#include "window/tensorboard_files.hpp"
#include "window/window_settings.hpp"

#include "tensorboard/run_encoder.hpp"
#include "tensorboard/scalar_tags.hpp"
#include "tensorboard/summary_events.hpp"
#include "tensorboard/tfrecord.hpp"

#include <QAction>
#include <QDir>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <sys/stat.h>

using namespace ddplab::ui;
namespace tb = ddplab::tensorboard;

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

// 2 ranks x 16, 4 steps in 2 epochs, evaluated after each: 47 scalars (docs/tensorboard.md):
// 2 of the config, 6 per step (epoch/current, lr/step, loss/train, batch/samples, time/step_ms,
// time/wall_s) and loss/train_set twice, 3 per eval (loss/val, accuracy/val, eval/samples), 5
// per epoch, and the summary's 3.
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

// A run folder made by hand in `root` (not by RunStore::createRun, which names it by the clock):
// id `id`, finished, its events.jsonl `events` (or a named pipe where `events` is null), its
// meta.json with `started` only when `started` is valid.
RunRecord handMadeRun(const QString& root, const QString& id, const QByteArray& events, const QDateTime& started = {})
{
    RunRecord run;
    run.id = id;
    run.directory = QDir(root).filePath(id);
    run.name = QStringLiteral("hand made");
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.started = started;
    QDir().mkpath(run.directory);
    QJsonObject meta = run.toMetaJson();
    if (!started.isValid())
        meta.remove(QStringLiteral("started"));
    const auto write = [](const QString& path, const QByteArray& bytes) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();  // closed here: on disk
    };
    write(RunStore::metaPath(run), QJsonDocument(meta).toJson());
    if (events.isNull())
        ::mkfifo(QFile::encodeName(RunStore::eventsPath(run)).constData(), 0600);
    else
        write(RunStore::eventsPath(run), events);
    return RunStore(root).listRuns().value(0);
}

// A run whose loss at step 2 is 1e39 and whose step 3 is -1e39: finite numbers float32 cannot hold.
QByteArray beyondFloat32Run()
{
    QList<QJsonObject> events{event("hello", {{"protocol", 3}}), event("config", {{"effective_batch_size", 8}})};
    const double losses[] = {2.0, 1e39, -1e39};
    for (int step = 1; step <= 3; ++step)
        events.append(event("step", {{"step", step}, {"epoch", 0}, {"lr", 0.1}, {"loss", losses[step - 1]}, {"wall_s", 0.1 * step}}));
    return lines(events);
}

QStringList runFolders(const QString& directory)
{
    return QDir(directory).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

QStringList eventFiles(const QString& folder)
{
    return QDir(folder).entryList({QStringLiteral("events.out.tfevents.*")}, QDir::Files, QDir::Name);
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
    void theHeadlessProgramLinksNoWidgetLibrary();
    void windowExportsAndStreams();
    void engineWritesTheSameFiles();
    void oneRunIdFromTwoFoldersIsWrittenTwice();
    void aRunWithoutStartedKeepsItsFileName();
    void aFifoAsEventsIsRefused();
    void valuesBeyondFloat32AreSaidAndBounded();
    void studiesSharingAFolderAreSaidSo();

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
    QCOMPARE(tb::crc32c("123456789"), 0xE3069283u);
    QCOMPARE(tb::crc32c(std::string(32, '\0')), 0x8A9136AAu);
    QCOMPARE(tb::crc32c(std::string()), 0u);
    // TensorFlow's mask: rotate right by 15, add 0xA282EAD8.
    const quint32 crc = 0xE3069283u;
    QCOMPARE(tb::maskedCrc32c("123456789"), quint32(((crc >> 15) | (crc << 17)) + 0xA282EAD8u));

    const std::string record = tb::tfRecord("abc");
    QCOMPARE(record.size(), size_t(3 + 16));
    QCOMPARE(record.substr(0, 8), std::string("\x03\0\0\0\0\0\0\0", 8));  // uint64 little-endian
    QCOMPARE(qFromLittleEndian<quint32>(record.data() + 8), tb::maskedCrc32c(record.substr(0, 8)));
    QCOMPARE(record.substr(12, 3), std::string("abc"));
    QCOMPARE(qFromLittleEndian<quint32>(record.data() + 15), tb::maskedCrc32c("abc"));
}

void TestTensorBoardExport::protobufWireFormat()
{
    const auto hex = [](const std::string& bytes) { return QByteArray::fromStdString(bytes).toHex(); };
    tb::ProtoWriter out;
    out.varint(1, 300);      // field 1, varint: 08 AC 02
    out.varint(2, quint64(qint64(-1)));  // int64 -1: ten bytes
    out.fixed64(1, 1.0);     // field 1, 64-bit: 09, then 1.0 little-endian
    out.fixed32(2, 1.5f);    // field 2, 32-bit: 15 00 00 C0 3F
    out.bytes(3, "\xc3\xa9");  // field 3, length-delimited: 1A 02 C3 A9 ("é" in UTF-8)
    const QByteArray expected = QByteArray::fromHex("08ac02"
                                                    "10ffffffffffffffffff01"
                                                    "09000000000000f03f"
                                                    "150000c03f"
                                                    "1a02c3a9");
    QCOMPARE(hex(out.data()), expected.toHex());

    // The file's first event: wall_time 1.5, step 0, file_version "brain.Event:2".
    QCOMPARE(hex(tb::fileVersionEvent(1.5)), QByteArray::fromHex("09000000000000f83f" "1000" "1a0d").toHex() + QByteArray("brain.Event:2").toHex());
    // A scalar: Event{wall_time, step 7, summary{value{tag "loss", simple_value 0.25}}}.
    QCOMPARE(hex(tb::scalarsEvent(0.0, 7, {{"loss", 0.25}})),
             QByteArray::fromHex("090000000000000000" "1007" "2a0d" "0a0b" "0a046c6f7373" "150000803e").toHex());
    // Beyond float32's range: the largest float32 of its sign (7f7fffff), never infinity (7f800000).
    QCOMPARE(hex(tb::scalarsEvent(0.0, 7, {{"loss", 1e39}})).right(8), QByteArray("ffff7f7f"));
    QCOMPARE(hex(tb::scalarsEvent(0.0, 7, {{"loss", -1e39}})).right(8), QByteArray("ffff7fff"));
    QVERIFY(tb::overflowsFloat32(1e39) && !tb::overflowsFloat32(double(FLT_MAX)) && !tb::overflowsFloat32(HUGE_VAL));

    // Tags: grouped by what comes before the first "/"; a number the table does not name keeps
    // its event's type as its group; an event's step is the x axis, not a figure.
    QCOMPARE(tb::scalarTag("step", "loss"), std::string("loss/train"));
    QCOMPARE(tb::scalarTag("eval", "val_loss"), std::string("loss/val"));
    QCOMPARE(tb::scalarTag("step", "wall_s"), std::string("time/wall_s"));
    QCOMPARE(tb::scalarTag("step", "something_new"), std::string("step/something_new"));
    QCOMPARE(tb::scalarTag("summary", "loss"), std::string("summary/loss"));
    QCOMPARE(tb::scalarTag("step", "step"), std::string());
    QCOMPARE(tb::scalarTag("config", "world_size"), std::string());
    QCOMPARE(tb::scalarTag("batch_changed", "effective_batch"), std::string());
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
    QCOMPARE(compared(f.evaluated), 47);
    QCOMPARE(fileOf(f.evaluated).value(QStringLiteral("scalars")).toInt(), 47);
    // Protocol 1: 3 steps of 5 (no wall_s), the config's effective batch, the summary's 2.
    QCOMPARE(compared(f.protocolOne), 3 * 5 + 1 + 2);
    QCOMPARE(fileOf(f.protocolOne).value(QStringLiteral("scalars")).toInt(), 18);
    // The recorded run: 24 steps of 17 figures (every number but the step, wall_s included), 3
    // epochs of 5, the config's 2 and the summary's 13.
    QCOMPARE(compared(f.recorded), 24 * 17 + 3 * 5 + 2 + 13);
    QCOMPARE(fileOf(f.recorded).value(QStringLiteral("scalars")).toInt(), compared(f.recorded));
    const QStringList tags = fileOf(f.evaluated).value(QStringLiteral("tags")).toVariant().toStringList();
    QCOMPARE(tags, QStringLiteral("accuracy/val batch/effective batch/samples epoch/current epoch/samples epoch/steps eval/samples "
                                  "loss/epoch loss/train loss/train_set loss/val lr/effective lr/step summary/epochs summary/loss "
                                  "summary/steps throughput/epoch time/epoch_train_s time/step_ms time/wall_s")
                       .split(QLatin1Char(' ')));
    // TensorBoard's groups, as the reader sees them: the four losses share one, and no tag is a
    // group of its own.
    const QJsonObject groups = fileOf(f.evaluated).value(QStringLiteral("groups")).toObject();
    QCOMPARE(groups.value(QStringLiteral("loss")).toVariant().toStringList(),
             QStringLiteral("loss/epoch loss/train loss/train_set loss/val").split(QLatin1Char(' ')));
    QCOMPARE(groups.keys(), QStringLiteral("accuracy batch epoch eval loss lr summary throughput time").split(QLatin1Char(' ')));
    const QJsonObject recordedGroups = fileOf(f.recorded).value(QStringLiteral("groups")).toObject();
    QCOMPARE(recordedGroups.value(QStringLiteral("noise")).toVariant().toStringList(),
             QStringLiteral("noise/grad_norm noise/scale noise/update_mean noise/update_var noise/update_var_estimate").split(QLatin1Char(' ')));
    QCOMPARE(recordedGroups.value(QStringLiteral("time")).toVariant().toStringList(),
             QStringLiteral("time/comm_ms time/compute_ms time/data_ms time/epoch_train_s time/optimizer_ms time/step_ms time/wall_s")
                 .split(QLatin1Char(' ')));
    for (auto it = files.begin(); it != files.end(); ++it) {
        for (const QString& tag : it.value().toObject().value(QStringLiteral("tags")).toVariant().toStringList())
            QVERIFY2(tag.contains(QLatin1Char('/')), qPrintable(it.key() + QStringLiteral(": ") + tag));
    }
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
        QCOMPARE(comparison.value(QStringLiteral("compared")).toInt(), 2 + 4 * 6 + 3 + 2);  // config, 4 steps, the epoch, the summary
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
    // A platform that does not exist: a GUI application (QGuiApplication, QApplication) aborts
    // before its first line without one; ddplab hands --export-tensorboard to ddplab-headless,
    // which runs it on QCoreApplication and links no widget library (app/headless_main.cpp), as
    // qBittorrent's nox build.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("no-such-platform"));
    process.setProcessEnvironment(environment);
    process.start(lab, {QStringLiteral("--export-tensorboard"), f.recorded.directory, out.path(), QStringLiteral("--quit")});
    QVERIFY(process.waitForFinished(60000));
    const QString printed = QString::fromUtf8(process.readAllStandardOutput());
    QVERIFY2(process.exitCode() == 0, qPrintable(printed + QString::fromUtf8(process.readAllStandardError())));
    QVERIFY2(printed.contains(QStringLiteral("Wrote 1 TensorBoard event file (1 run)")), qPrintable(printed));
    const QJsonObject report = readBack(out.path(), {tensorBoardRunFolder(f.recorded) + QLatin1Char('=') + f.recorded.directory});
    const QJsonObject comparison = report.value(QStringLiteral("comparisons")).toObject().value(tensorBoardRunFolder(f.recorded)).toObject();
    QCOMPARE(comparison.value(QStringLiteral("compared")).toInt(), 24 * 17 + 3 * 5 + 2 + 13);
    QVERIFY(comparison.value(QStringLiteral("mismatches")).toArray().isEmpty());
}

// The Qt libraries `program` loads, as ldd lists them ("libQt6Core.so.6" …).
static QStringList qtLibrariesOf(const QString& program)
{
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), {program});
    if (!ldd.waitForFinished(30000) || ldd.exitCode() != 0)
        return {};
    static const QRegularExpression kQt(QStringLiteral("^\\s*(libQt6\\w+)\\.so"), QRegularExpression::MultilineOption);
    QStringList libraries;
    for (auto match = kQt.globalMatch(QString::fromUtf8(ldd.readAllStandardOutput())); match.hasNext();)
        libraries.append(match.next().captured(1));
    return libraries;
}

void TestTensorBoardExport::theHeadlessProgramLinksNoWidgetLibrary()
{
    const QDir bin = QFileInfo(ddplab::test::enginePath()).dir();
    const QString headless = bin.filePath(QStringLiteral("ddplab-headless"));
    QVERIFY2(QFileInfo(headless).isExecutable(), qPrintable(headless + QStringLiteral(" is not built")));
    // The window's program loads the widget libraries, so the reading below can see one.
    QVERIFY(qtLibrariesOf(bin.filePath(QStringLiteral("ddplab"))).contains(QStringLiteral("libQt6Widgets")));
    const QStringList loaded = qtLibrariesOf(headless);
    QVERIFY2(loaded.contains(QStringLiteral("libQt6Core")) && loaded.contains(QStringLiteral("libQt6Gui")), qPrintable(loaded.join(QLatin1Char(' '))));
    for (const QString& widgets : {QStringLiteral("libQt6Widgets"), QStringLiteral("libQt6Charts"), QStringLiteral("libQt6SvgWidgets"),
                                   QStringLiteral("libQt6OpenGLWidgets"), QStringLiteral("libQt6PrintSupport")})
        QVERIFY2(!loaded.contains(widgets), qPrintable(headless + QStringLiteral(" loads ") + widgets));

    // What needs widgets is the window's program's, and ddplab-headless says so.
    QProcess process;
    process.start(headless, {QStringLiteral("--preset"), QStringLiteral("seed000-four-ways"), QStringLiteral("--run"), QStringLiteral("--quit")});
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 2);
    const QString said = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(said.startsWith(QStringLiteral("ddplab-headless: ")) && said.contains(QStringLiteral("are ddplab's")), qPrintable(said));
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
    emit session.runStarted(0, run);
    run->appendEvents(all.mid(0, 5));
    emit session.runEventsArrived(run, all.mid(0, 5));
    const QString file = QDir(streamed.filePath(tensorBoardRunFolder(record))).filePath(tensorBoardFileName(record));
    QVERIFY2(QFileInfo(file).size() > 0, qPrintable(file));
    const qint64 firstBatch = QFileInfo(file).size();
    run->appendEvents(all.mid(5));
    emit session.runEventsArrived(run, all.mid(5));
    emit session.runUpdated(run);
    emit session.runFinished(0, run);
    QVERIFY(QFileInfo(file).size() > firstBatch);
    const QString folder = tensorBoardRunFolder(record);
    const QJsonObject report = readBack(streamed.path(), {folder + QLatin1Char('=') + record.directory});
    const QJsonObject comparison = report.value(QStringLiteral("comparisons")).toObject().value(folder).toObject();
    QCOMPARE(comparison.value(QStringLiteral("compared")).toInt(), 47);
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
    emit session.runStarted(1, quietRun);
    quietRun->appendEvents(all);
    emit session.runEventsArrived(quietRun, all);
    emit session.runFinished(1, quietRun);
    QVERIFY(!QDir(streamed.filePath(tensorBoardRunFolder(quiet))).exists());
}

void TestTensorBoardExport::engineWritesTheSameFiles()
{
    // A 2-rank run of the real engine, asked for TensorBoard files: rank 0 writes them, into a
    // folder of the run's own, as it trains.
    QTemporaryDir work;
    const QString engineDir = work.filePath(QStringLiteral("logdir/engine"));
    const QString eventsDir = work.filePath(QStringLiteral("events"));
    QVERIFY(QDir().mkpath(eventsDir));
    const QJsonObject config{{QStringLiteral("workload"), QStringLiteral("linreg")}, {QStringLiteral("world_size"), 2},
                             {QStringLiteral("batch_size"), 8},                      {QStringLiteral("num_examples"), 64},
                             {QStringLiteral("epochs"), 2},                          {QStringLiteral("lr"), 0.05}};
    const ddplab::test::EngineResult result = ddplab::test::runConfig(
        config, {QStringLiteral("--events"), QDir(eventsDir).filePath(QStringLiteral("events.jsonl")), QStringLiteral("--tensorboard-dir"), engineDir});
    REQUIRE_OK(result);
    const QStringList engineRuns = runFolders(engineDir);
    QCOMPARE(engineRuns.size(), 1);
    QCOMPARE(eventFiles(QDir(engineDir).filePath(engineRuns.first())).size(), 1);

    // The window's export of the same events, through the same writer.
    const QByteArray events = [&] {
        QFile file(QDir(eventsDir).filePath(QStringLiteral("events.jsonl")));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    QVERIFY(events.contains("\"summary\""));
    const RunRecord stored = handMadeRun(work.filePath(QStringLiteral("runs")), QStringLiteral("20261120-093015-250"), events, kStarted);
    const QString windowFolder = work.filePath(QStringLiteral("logdir/window/") + tensorBoardRunFolder(stored));
    const TensorBoardRunFile written = writeTensorBoardRun(stored, windowFolder);
    QVERIFY2(!written.path.isEmpty(), qPrintable(written.error));

    const QString engineRun = QStringLiteral("engine/") + engineRuns.first();
    const QString windowRun = QStringLiteral("window/") + tensorBoardRunFolder(stored);
    const QJsonObject report = readBack(work.filePath(QStringLiteral("logdir")),
                                        {engineRun + QLatin1Char('=') + eventsDir, windowRun + QLatin1Char('=') + stored.directory});
    const QJsonObject files = report.value(QStringLiteral("files")).toObject();
    QCOMPARE(files.size(), 2);
    QJsonObject engineFile, windowFile;
    for (auto it = files.begin(); it != files.end(); ++it) {
        QCOMPARE(it.value().toObject().value(QStringLiteral("bad_crcs")).toInt(-1), 0);
        (it.key().startsWith(engineRun + QLatin1Char('/')) ? engineFile : windowFile) = it.value().toObject();
    }
    // Every number of the run's events.jsonl, as a float32, at its step and wall time, and nothing else.
    const QJsonObject comparisons = report.value(QStringLiteral("comparisons")).toObject();
    for (const QString& folder : {engineRun, windowRun}) {
        const QJsonObject comparison = comparisons.value(folder).toObject();
        QVERIFY2(comparison.value(QStringLiteral("mismatches")).toArray().isEmpty(), QJsonDocument(comparison).toJson().constData());
    }
    // 2 epochs of 4 steps (linreg measures its training loss at every step), 2 epoch events, the
    // config's 2 and the summary.
    const int steps = int(result.ofType(QStringLiteral("step")).size());
    QCOMPARE(steps, 8);
    const int compared = comparisons.value(engineRun).toObject().value(QStringLiteral("compared")).toInt();
    QVERIFY2(compared > steps * 15, qPrintable(QString::number(compared)));
    QCOMPARE(engineFile.value(QStringLiteral("scalars")).toInt(), compared);
    // One writer: the same tags and scalars from the engine as from the window.
    QCOMPARE(windowFile.value(QStringLiteral("scalars")).toInt(), compared);
    QCOMPARE(engineFile.value(QStringLiteral("tags")), windowFile.value(QStringLiteral("tags")));
    QVERIFY(engineFile.value(QStringLiteral("tags")).toVariant().toStringList().contains(QStringLiteral("loss/train_set")));

    // A folder that cannot hold the files is refused before training, naming the key.
    QFile blocker(work.filePath(QStringLiteral("a-file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const ddplab::test::EngineResult refused =
        ddplab::test::runConfig(config, {QStringLiteral("--tensorboard-dir"), work.filePath(QStringLiteral("a-file/logs"))});
    QCOMPARE(refused.exitCode, 2);
    QCOMPARE(refused.last(QStringLiteral("error")).value(QStringLiteral("key")).toString(), QStringLiteral("tensorboard_dir"));
    QVERIFY(refused.ofType(QStringLiteral("step")).isEmpty());
}

void TestTensorBoardExport::oneRunIdFromTwoFoldersIsWrittenTwice()
{
    // Two copies of one run id in two folders (another lab's store, a backup), holding other runs.
    QTemporaryDir first, second, out;
    const QString id = QStringLiteral("20250102-030405-678");
    const RunRecord a = handMadeRun(first.path(), id, evaluatedRun(), kStarted);
    const RunRecord b = handMadeRun(second.path(), id, protocolOneRun(), kStarted);
    const LaunchOptions options = parseLaunchOptions(
        {QStringLiteral("ddplab"), QStringLiteral("--export-tensorboard"), a.directory, b.directory, out.path(), QStringLiteral("--quit")});
    QString printed, complaints;
    QTextStream stdOut(&printed), stdErr(&complaints);
    QCOMPARE(exportTensorBoardHeadless(options, stdOut, stdErr), 0);
    QVERIFY2(printed.contains(QStringLiteral("Wrote 2 TensorBoard event files (2 runs)")), qPrintable(printed));
    QVERIFY2(complaints.contains(QStringLiteral("has the id of another run given")), qPrintable(complaints));

    // Two folders, each with its own run's file: neither replaced the other.
    const QString folder = tensorBoardRunFolder(a);
    QCOMPARE(runFolders(out.path()), QStringList({folder, folder + QStringLiteral("_2")}));
    const QJsonObject report =
        readBack(out.path(), {folder + QLatin1Char('=') + a.directory, folder + QStringLiteral("_2=") + b.directory});
    QCOMPARE(report.value(QStringLiteral("files")).toObject().size(), 2);
    const QJsonObject comparisons = report.value(QStringLiteral("comparisons")).toObject();
    QCOMPARE(comparisons.value(folder).toObject().value(QStringLiteral("compared")).toInt(), 47);
    QCOMPARE(comparisons.value(folder + QStringLiteral("_2")).toObject().value(QStringLiteral("compared")).toInt(), 18);
    for (auto it = comparisons.begin(); it != comparisons.end(); ++it)
        QVERIFY2(it.value().toObject().value(QStringLiteral("mismatches")).toArray().isEmpty(), QJsonDocument(it.value().toObject()).toJson().constData());
}

void TestTensorBoardExport::aRunWithoutStartedKeepsItsFileName()
{
    // A meta.json without `started`: the file is named by the time the run's id names, the same
    // on every export, so exporting again replaces the file instead of adding a second run.
    QTemporaryDir root, out;
    const QString id = QStringLiteral("20250102-030405-678");
    const RunRecord run = handMadeRun(root.path(), id, evaluatedRun());
    QVERIFY(!run.started.isValid());
    const qint64 named = QDateTime::fromString(id, QStringLiteral("yyyyMMdd-HHmmss-zzz")).toSecsSinceEpoch();
    const QString folder = out.filePath(tensorBoardRunFolder(run));
    for (int time = 0; time < 2; ++time) {
        const TensorBoardRunFile written = writeTensorBoardRun(run, folder);
        QVERIFY2(!written.path.isEmpty(), qPrintable(written.error));
    }
    const QStringList files = eventFiles(folder);
    QCOMPARE(files.size(), 1);
    QVERIFY2(files.first().startsWith(QStringLiteral("events.out.tfevents.%1.").arg(named, 10, 10, QLatin1Char('0'))), qPrintable(files.first()));
    QCOMPARE(files.first(), tensorBoardFileName(run));
}

void TestTensorBoardExport::aFifoAsEventsIsRefused()
{
    QTemporaryDir root, out;
    const RunRecord run = handMadeRun(root.path(), QStringLiteral("20250102-030405-678"), QByteArray(), kStarted);
    QVERIFY(QFileInfo(RunStore::eventsPath(run)).exists() && !QFileInfo(RunStore::eventsPath(run)).isFile());
    const LaunchOptions options = parseLaunchOptions(
        {QStringLiteral("ddplab"), QStringLiteral("--export-tensorboard"), run.directory, out.path(), QStringLiteral("--quit")});
    QString printed, complaints;
    QTextStream stdOut(&printed), stdErr(&complaints);
    QCOMPARE(exportTensorBoardHeadless(options, stdOut, stdErr), 1);
    QVERIFY2(complaints.contains(RunStore::eventsPath(run) + QStringLiteral(" is a named pipe (FIFO)")), qPrintable(complaints));
    QVERIFY2(printed.contains(QStringLiteral("Wrote 0 TensorBoard event files (0 runs)")), qPrintable(printed));
    QVERIFY(runFolders(out.path()).isEmpty());
}

void TestTensorBoardExport::valuesBeyondFloat32AreSaidAndBounded()
{
    QTemporaryDir root, out;
    const RunRecord run = handMadeRun(root.path(), QStringLiteral("20250102-030405-678"), beyondFloat32Run(), kStarted);
    QString error;
    const TensorBoardExport done = exportToTensorBoard(resolveTensorBoardSources({run.directory}, RunStore(), StudyStore(), &error), RunStore(),
                                                       out.path());
    QVERIFY2(done.problems.isEmpty() && error.isEmpty(), qPrintable(done.problems.join(QLatin1Char('\n')) + error));
    QCOMPARE(done.files.size(), 1);
    QCOMPARE(done.warnings.size(), 1);
    QVERIFY2(done.warnings.first().contains(QStringLiteral("2 values are beyond float32's range")) &&
                 done.warnings.first().contains(QStringLiteral("loss/train = 1e+39 at step 2")),
             qPrintable(done.warnings.first()));
    // The reader expects +-3.4028235e38 there: an infinity would be a mismatch.
    const QString folder = tensorBoardRunFolder(run);
    const QJsonObject comparison =
        readBack(out.path(), {folder + QLatin1Char('=') + run.directory}).value(QStringLiteral("comparisons")).toObject().value(folder).toObject();
    QCOMPARE(comparison.value(QStringLiteral("compared")).toInt(), 1 + 3 * 4);  // the config's batch, 3 steps of 4
    QVERIFY2(comparison.value(QStringLiteral("mismatches")).toArray().isEmpty(), QJsonDocument(comparison).toJson().constData());
}

void TestTensorBoardExport::studiesSharingAFolderAreSaidSo()
{
    const Fixture& f = fixture();
    QString error;
    const std::optional<StoredStudy> other = StudyStore().create(f.study.spec, planStudy(f.study.spec), &error);
    QVERIFY2(other, qPrintable(error));
    QVERIFY(other->id != f.study.id);
    QTemporaryDir out;
    const auto sayAboutStudies = [](const TensorBoardExport& done) {
        return done.warnings.filter(QStringLiteral("TensorBoard's HParams tab")).join(QLatin1Char('\n'));
    };
    // One study in the folder: nothing to say.
    const TensorBoardExport alone = exportToTensorBoard(resolveTensorBoardSources({f.study.id}, RunStore(), StudyStore(), &error), RunStore(), out.path());
    QVERIFY(alone.problems.isEmpty());
    QCOMPARE(sayAboutStudies(alone), QString());
    // A second one exported into the same folder later: said, naming both and how to open one.
    const TensorBoardExport later = exportToTensorBoard(resolveTensorBoardSources({other->id}, RunStore(), StudyStore(), &error), RunStore(), out.path());
    const QString said = sayAboutStudies(later);
    QVERIFY2(said.contains(QStringLiteral("holds 2 studies")) && said.contains(tensorBoardFolderName(f.study.id)) &&
                 said.contains(tensorBoardFolderName(other->id)) && said.contains(QStringLiteral("tensorboard --logdir ")),
             qPrintable(said));
}

DDPLAB_UI_TEST_MAIN(TestTensorBoardExport)

#include "tst_tensorboard_export.moc"
