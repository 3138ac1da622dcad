// SPDX-License-Identifier: GPL-3.0-or-later
// A model is code and its data a pickle (issue 29): nothing a crafted file does may crash the
// engine, hang it, make it train on memory outside the data, print a second answer, or destroy
// the file save_model replaces. Each case is generated here (tests/tools/make_hostile_model_case.py
// with Debian's python3-torch, FIFOs and links by the test) and asserts the exit code, the key
// the error names and the sentence, or what must hold instead (one inspection line; the old
// model byte for byte).

#include "support/engine_process.hpp"
#include "support/forked_python.hpp"
#include "support/process_table.hpp"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/mount.h>
#include <sys/stat.h>

using ddplab::test::EngineResult;
using ddplab::test::runEngine;
using ddplab::test::engineCommand;
using ddplab::test::runFlags;

namespace {

const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);
constexpr int kPythonMs = 120000;
// A refusal reads a few small files and runs no step: generous, never a speed test.
constexpr qint64 kRefusalBoundMs = 20000;

QString phraseMissing(const QString& message, const QStringList& phrases)
{
    for (const QString& phrase : phrases) {
        if (!message.contains(phrase))
            return phrase + QStringLiteral(" not in: ") + message;
    }
    return {};
}

QByteArray digestOf(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

// The files a folder holds besides `expected`: a failed save must leave no partial file.
QStringList strayFiles(const QString& folder, const QStringList& expected)
{
    QStringList stray;
    for (const QString& name : QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System)) {
        if (!expected.contains(name))
            stray.append(name);
    }
    return stray;
}

}  // namespace

class OwnModelHostileTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void craftedDataIsRefused_data();
    void craftedDataIsRefused();
    void craftedModelIsRefused_data();
    void craftedModelIsRefused();
    void aFifoIsNotWaitedOn();
    void aNulInAPathIsRefused();
    void printingModelLeavesOneInspectionLine();
    void aForwardThatNeverReturnsIsStopped();
    void ranksStuckInForwardAreStopped_data();
    void ranksStuckInForwardAreStopped();
    void memoryEstimateCountsWhatForwardAllocates();
    void aDeterministicRunNamesAnOperationWithoutADeterministicKernel_data();
    void aDeterministicRunNamesAnOperationWithoutADeterministicKernel();
    void saveTargetIsCheckedBeforeTraining_data();
    void saveTargetIsCheckedBeforeTraining();
    void aFullDiskKeepsTheOldModel();
    void aLinkIsReplacedNotWrittenThrough();
    void replacingAFileTheLabDidNotWriteIsSaid();

private:
    QString file(const QString& name) const { return m_dir.filePath(name); }
    QStringList base(const QString& model, const QString& train) const;

    QTemporaryDir m_dir;
};

void OwnModelHostileTest::initTestCase()
{
    // One python3 imports torch and numpy (or says what installs them) and forks the tools
    // (tests/support/forked_python.hpp): one `import torch`, not a check and the tools' own.
    ddplab::test::ForkedPython python;
    const QString missing = python.start(kSource + QStringLiteral("/tests/tools/forked_python.py"));
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    for (const char* tool : {"make_own_model_case.py", "make_hostile_model_case.py"}) {
        const ddplab::test::PythonExit made = python.run({kSource + QStringLiteral("/tests/tools/") + QLatin1String(tool), m_dir.path()}, kPythonMs / 1000);
        QVERIFY2(made.code == 0, qPrintable(made.err));
    }
}

QStringList OwnModelHostileTest::base(const QString& model, const QString& train) const
{
    return {QStringLiteral("--workload"), QStringLiteral("torchscript"), QStringLiteral("--model-file"), file(model),
            QStringLiteral("--train-data"), file(train), QStringLiteral("--batch-size"), QStringLiteral("16"),
            QStringLiteral("--threads"), QStringLiteral("1")};
}

// ---------------------------------------------------------------------------------------
// Refused before anything runs: inspect and run alike, one error last, nothing started
// ---------------------------------------------------------------------------------------

void OwnModelHostileTest::craftedDataIsRefused_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("data");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("says");
    const QString mlp = QStringLiteral("mlp.pt");
    auto row = [&](const char* name, const QString& data, int code, const char* key, const QStringList& says) {
        QTest::newRow(name) << mlp << data << code << QString::fromLatin1(key) << says;
    };
    // Item 1: views outside their storage (64 floats); the first crashed the engine (SIGSEGV),
    // the others trained on the heap beyond the data.
    row("stride past the storage", QStringLiteral("stride_past_storage.pt"), 3, "train_data",
        {QStringLiteral("\"inputs\""), QStringLiteral("strides [268435456, 1]"), QStringLiteral("of a storage of 64 elements")});
    row("shape past the storage", QStringLiteral("shape_past_storage.pt"), 3, "train_data",
        {QStringLiteral("shape [256, 8]"), QStringLiteral("reaches element 2047 of a storage of 64 elements")});
    // LibTorch's unpickler turns a negative stride into the contiguous one (as PyTorch's
    // set_ does): a contiguous [256, 8] view over 64 floats.
    row("negative stride", QStringLiteral("negative_stride.pt"), 3, "train_data",
        {QStringLiteral("shape [256, 8] with strides [8, 1]"), QStringLiteral("reaches element 2047 of a storage of 64 elements")});
    row("offset past the storage", QStringLiteral("offset_past_storage.pt"), 3, "train_data",
        {QStringLiteral("reaches element 1000 of a storage of 64 elements")});
    row("storage record shorter than claimed", QStringLiteral("short_record_cut.pt"), 3, "train_data",
        {QStringLiteral("reaches element 2047 of a storage of 64 elements")});
    // Item 6 for data: a directory claiming a tebibyte.
    row("zip bomb", QStringLiteral("bomb_data.pt"), 2, "train_data", {QStringLiteral("GiB of memory"), QStringLiteral("available")});
    // Item 10: LibTorch's words replaced by what they mean. Since issue 41 a dict of one entry
    // and an integer of 2^31 or more are read (pickle_check gives LibTorch what it reads), so
    // what is wrong with them is what is said.
    row("a dict of one entry", QStringLiteral("one_entry.pt"), 3, "train_data", {QStringLiteral("holds no \"targets\" (it holds \"inputs\")")});
    row("a size over 2^31", QStringLiteral("size_over_2_31.pt"), 3, "train_data",
        {QStringLiteral("has the shape [8589934592, 1]"), QStringLiteral("reaches element 8589934591 of a storage of 64 elements")});
    // Issue 41 item 1: a list nested a million deep crashed inspect and the launcher (SIGSEGV).
    row("a list nested a million deep", QStringLiteral("deep_data.pt"), 3, "train_data",
        {QStringLiteral("holds a pickle (data.pkl) that nests values more than 1000 deep"), QStringLiteral("a crafted file")});
    row(".npy header with a key NumPy refuses", QStringLiteral("npy_extra_key"), 3, "train_data",
        {QStringLiteral("the key 'extra'"), QStringLiteral("descr, fortran_order and shape only")});
    row(".npy header of 203 dimensions", QStringLiteral("npy_many_dims"), 3, "train_data",
        {QStringLiteral("more than 25 dimensions")});
}

void OwnModelHostileTest::craftedDataIsRefused()
{
    QFETCH(QString, model);
    QFETCH(QString, data);
    QFETCH(int, exitCode);
    QFETCH(QString, key);
    QFETCH(QStringList, says);
    for (const QString& command : {QStringLiteral("inspect"), QStringLiteral("run")}) {
        QElapsedTimer clock;
        clock.start();
        const EngineResult result = engineCommand(command, base(model, data) +
                                                                   (command == QStringLiteral("run") ? QStringList{QStringLiteral("--world-size"), QStringLiteral("2")}
                                                                                                     : QStringList{}));
        QVERIFY2(!result.crashed && result.exitCode == exitCode, qPrintable(command + QStringLiteral(": ") + result.summaryText()));
        QVERIFY2(!result.events.isEmpty(), qPrintable(result.summaryText()));
        const QJsonObject error = result.events.last();  // the error is the last line
        QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("key")).toString(), key);
        const QString message = error.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(file(data)), qPrintable(message));
        const QString missing = phraseMissing(message, says);
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QVERIFY2(message.size() < 600, qPrintable(message));  // a sentence, not a dump
        QVERIFY(result.ofType(QStringLiteral("step")).isEmpty());
        QVERIFY2(clock.elapsed() < kRefusalBoundMs, qPrintable(QString::number(clock.elapsed())));
    }
}

void OwnModelHostileTest::craftedModelIsRefused_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("data");
    QTest::addColumn<QStringList>("says");
    const QString train = QStringLiteral("train.pt");
    // Item 6: a model whose archive claims a tebibyte (LibTorch would allocate it).
    QTest::newRow("zip bomb") << QStringLiteral("bomb_model.pt") << train
                              << QStringList{QStringLiteral("unpacks to"), QStringLiteral("available")};
    // Item 4: no parameter at all; its rank died with SIGSEGV.
    QTest::newRow("weight made inside forward") << QStringLiteral("weight_inside_forward.pt") << train
                                                << QStringList{QStringLiteral("no parameter that requires a gradient"),
                                                               QStringLiteral("nothing would train"), QStringLiteral("nn.Parameter")};
    // Item 8: a sparse gradient, which the dense all-reduce would mistrain.
    QTest::newRow("sparse embedding") << QStringLiteral("sparse_embedding.pt") << QStringLiteral("tokens.pt")
                                      << QStringList{QStringLiteral("parameter embedding.weight"), QStringLiteral("sparse gradient"),
                                                     QStringLiteral("sparse=False")};
    // Issue 41 item 1: constants nested a million deep crashed inspect (SIGSEGV).
    QTest::newRow("constants nested a million deep") << QStringLiteral("deep_constants.pt") << train
                                                     << QStringList{QStringLiteral("holds a pickle (constants.pkl) that nests values more than 1000 deep")};
    // And code nested 100,000 deep (a run of minus signs): LibTorch's compiler crashed on it.
    QTest::newRow("code nested 100,000 deep") << QStringLiteral("deep_code.pt") << train
                                              << QStringList{QStringLiteral("holds code (code/__torch__.py) whose line 8 could nest 100002 levels deep")};
    // Item 9: NaN before any step.
    QTest::newRow("NaN from the first batch") << QStringLiteral("nan_loss.pt") << train
                                              << QStringList{QStringLiteral("loss of the first batch"), QStringLiteral("is NaN"),
                                                             QStringLiteral("diverge at step 1")};
}

void OwnModelHostileTest::craftedModelIsRefused()
{
    QFETCH(QString, model);
    QFETCH(QString, data);
    QFETCH(QStringList, says);
    for (const QString& command : {QStringLiteral("inspect"), QStringLiteral("run")}) {
        const EngineResult result = engineCommand(command, base(model, data) +
                                                                   (command == QStringLiteral("run") ? QStringList{QStringLiteral("--world-size"), QStringLiteral("2")}
                                                                                                     : QStringList{}));
        QVERIFY2(!result.crashed && result.exitCode == 2, qPrintable(command + QStringLiteral(": ") + result.summaryText()));
        const QJsonObject error = result.events.last();
        QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("model_file"));
        const QString message = error.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(file(model)), qPrintable(message));
        const QString missing = phraseMissing(message, says);
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QVERIFY(result.ofType(QStringLiteral("step")).isEmpty());
    }
}

void OwnModelHostileTest::aFifoIsNotWaitedOn()
{
    const QString fifo = file(QStringLiteral("data.fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QElapsedTimer clock;
    clock.start();
    const EngineResult data = runEngine(QStringList{QStringLiteral("inspect")} + base(QStringLiteral("mlp.pt"), QStringLiteral("data.fifo")), 60000);
    QVERIFY2(data.exitCode == 3, qPrintable(data.summaryText()));
    QCOMPARE(data.events.last().value(QStringLiteral("key")).toString(), QStringLiteral("train_data"));
    QVERIFY2(data.events.last().value(QStringLiteral("message")).toString().contains(QStringLiteral("is not a regular file (a FIFO)")),
             qPrintable(data.summaryText()));
    const EngineResult model = runEngine(QStringList{QStringLiteral("inspect")} + base(QStringLiteral("data.fifo"), QStringLiteral("train.pt")), 60000);
    QVERIFY2(model.exitCode == 2, qPrintable(model.summaryText()));
    QCOMPARE(model.events.last().value(QStringLiteral("key")).toString(), QStringLiteral("model_file"));
    QVERIFY2(model.events.last().value(QStringLiteral("message")).toString().contains(QStringLiteral("is not a regular file")),
             qPrintable(model.summaryText()));
    QVERIFY2(clock.elapsed() < 2 * kRefusalBoundMs, qPrintable(QString::number(clock.elapsed())));
}

// Item 11: C's file functions would stop at the NUL and train the shorter path.
void OwnModelHostileTest::aNulInAPathIsRefused()
{
    const QJsonObject config{{QStringLiteral("workload"), QStringLiteral("torchscript")},
                             {QStringLiteral("model_file"), file(QStringLiteral("mlp.pt")) + QChar(0) + QStringLiteral("evil")},
                             {QStringLiteral("train_data"), file(QStringLiteral("train.pt"))}};
    const EngineResult result = ddplab::test::runConfig(config);
    QVERIFY2(result.exitCode == 2, qPrintable(result.summaryText()));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("model_file"));
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("NUL character")), qPrintable(result.summaryText()));
    QVERIFY(result.ofType(QStringLiteral("config")).isEmpty());
}

// Item 5: print() in forward goes to stderr; stdout holds inspect's one line.
void OwnModelHostileTest::printingModelLeavesOneInspectionLine()
{
    const EngineResult result = runEngine(QStringList{QStringLiteral("inspect")} + base(QStringLiteral("prints.pt"), QStringLiteral("train.pt")));
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    QCOMPARE(result.events.size(), 1);
    QVERIFY2(result.badLines.isEmpty(), result.badLines.value(0).constData());
    QCOMPARE(result.events.first().value(QStringLiteral("type")).toString(), QStringLiteral("inspection"));
    QVERIFY2(result.stderrText.contains("debug: batch"), result.stderrText.constData());
    QVERIFY(result.stderrText.contains("forged by the model"));
    // The forged error line never reaches a run's stream either: ranks print to stderr.
    const EngineResult run = runFlags(base(QStringLiteral("prints.pt"), QStringLiteral("train.pt")));
    QVERIFY2(run.exitCode == 0, qPrintable(run.summaryText()));
    QVERIFY(run.ofType(QStringLiteral("error")).isEmpty());
    QCOMPARE(run.events.last().value(QStringLiteral("type")).toString(), QStringLiteral("summary"));
}

// ---------------------------------------------------------------------------------------
// Nothing hangs (item 3)
// ---------------------------------------------------------------------------------------

void OwnModelHostileTest::aForwardThatNeverReturnsIsStopped()
{
    const QStringList limit{QStringLiteral("--model-check-timeout"), QStringLiteral("3")};
    for (const QString& command : {QStringLiteral("inspect"), QStringLiteral("run")}) {
        QElapsedTimer clock;
        clock.start();
        const EngineResult result = runEngine(QStringList{command} + base(QStringLiteral("forever.pt"), QStringLiteral("train.pt")) + limit, 120000);
        QVERIFY2(result.exitCode == 2, qPrintable(command + QStringLiteral(": ") + result.summaryText()));
        QCOMPARE(result.events.last().value(QStringLiteral("type")).toString(), QStringLiteral("error"));
        QCOMPARE(result.events.last().value(QStringLiteral("key")).toString(), QStringLiteral("model_file"));
        const QString message = result.events.last().value(QStringLiteral("message")).toString();
        const QString missing = phraseMissing(message, {file(QStringLiteral("forever.pt")), QStringLiteral("still being checked after 3 s"),
                                                        QStringLiteral("model_check_timeout")});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QVERIFY2(clock.elapsed() >= 3000 && clock.elapsed() < 30000, qPrintable(QString::number(clock.elapsed())));
        // Nothing of it is left running (the launcher's check child included).
        QTRY_VERIFY_WITH_TIMEOUT(ddplab::test::processesWithArgument(file(QStringLiteral("forever.pt"))).isEmpty(), 5000);
    }
}

// Every rank hangs in forward on an epoch's short last batch: no peer waits in a collective to
// time it out, so the launcher's own watchdog stops the run and says so.
void OwnModelHostileTest::ranksStuckInForwardAreStopped_data()
{
    QTest::addColumn<QString>("ranks");
    QTest::addColumn<int>("stepsBefore");
    QTest::addColumn<QString>("says");
    QTest::newRow("one rank") << QStringLiteral("1") << 6 << QStringLiteral("rank 0 stopped making progress after step 6");
    QTest::newRow("two ranks") << QStringLiteral("2") << 3 << QStringLiteral("every rank (0 to 1) stopped making progress after step 3");
}

void OwnModelHostileTest::ranksStuckInForwardAreStopped()
{
    QFETCH(QString, ranks);
    QFETCH(int, stepsBefore);
    QFETCH(QString, says);
    QElapsedTimer clock;
    clock.start();
    const EngineResult result = runEngine(QStringList{QStringLiteral("run")} + base(QStringLiteral("hangs_on_short_batch.pt"), QStringLiteral("train.pt")) +
                                              QStringList{QStringLiteral("--world-size"), ranks, QStringLiteral("--collective-timeout"), QStringLiteral("3"),
                                                          QStringLiteral("--no-shuffle")},
                                          120000);
    QVERIFY2(result.exitCode == 4, qPrintable(result.summaryText()));
    QCOMPARE(result.ofType(QStringLiteral("step")).size(), stepsBefore);
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(-1), 0);
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(says), qPrintable(result.summaryText()));
    QVERIFY2(clock.elapsed() < 60000, qPrintable(QString::number(clock.elapsed())));
    QTRY_VERIFY_WITH_TIMEOUT(ddplab::test::processesWithArgument(file(QStringLiteral("hangs_on_short_batch.pt"))).isEmpty(), 5000);
}

// deterministic true and a model using put_, which LibTorch has no deterministic kernel for (on a
// GPU, backward-only operations are met the same way): the key that asked, the operation and what
// to do, not "does not take the inputs"; without the key the same model trains.
void OwnModelHostileTest::aDeterministicRunNamesAnOperationWithoutADeterministicKernel_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("where");
    QTest::newRow("in forward: the rank's check of the first batch") << QStringLiteral("put_in_forward.pt") << QString();
    QTest::newRow("in training mode only: the first step") << QStringLiteral("put_when_training.pt") << QStringLiteral("(at step 1)");
}

void OwnModelHostileTest::aDeterministicRunNamesAnOperationWithoutADeterministicKernel()
{
    QFETCH(QString, model);
    QFETCH(QString, where);
    const QStringList run = base(model, QStringLiteral("train.pt")) + QStringList{QStringLiteral("--world-size"), QStringLiteral("2"),
                                                                                 QStringLiteral("--max-steps"), QStringLiteral("3")};
    const EngineResult stopped = engineCommand(QStringLiteral("run"), run + QStringList{QStringLiteral("--deterministic")});
    QVERIFY2(!stopped.crashed && stopped.exitCode == 2, qPrintable(stopped.summaryText()));
    const QJsonObject error = stopped.events.last();
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("deterministic"));
    const QString message = error.value(QStringLiteral("message")).toString();
    const QString missing = phraseMissing(message, {file(model) + QStringLiteral("'s forward"), QStringLiteral("the operation put_ has no deterministic kernel"),
                                                    QStringLiteral("set deterministic false"), where});
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    QVERIFY2(!message.contains(QStringLiteral("use_deterministic_algorithms")), qPrintable(message));  // Python's words, not the lab's
    QVERIFY(stopped.ofType(QStringLiteral("step")).isEmpty());
    const EngineResult trained = engineCommand(QStringLiteral("run"), run);
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.summaryText()));
    QCOMPARE(trained.ofType(QStringLiteral("step")).size(), 3);
}

// Item 7: forward's own 256 MiB temporary is part of the memory a step needs.
void OwnModelHostileTest::memoryEstimateCountsWhatForwardAllocates()
{
    const EngineResult result = runEngine(QStringList{QStringLiteral("inspect")} + base(QStringLiteral("big_temporary.pt"), QStringLiteral("train.pt")));
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    const QJsonObject memory = result.events.first().value(QStringLiteral("memory")).toObject();
    const double step = memory.value(QStringLiteral("step_bytes")).toDouble();
    QVERIFY2(step >= 256.0 * 1024 * 1024, qPrintable(QString::number(step)));
    QVERIFY2(step < 1024.0 * 1024 * 1024, qPrintable(QString::number(step)));  // not the whole process
}

// ---------------------------------------------------------------------------------------
// save_model: checked first, written beside and renamed (item 2)
// ---------------------------------------------------------------------------------------

void OwnModelHostileTest::saveTargetIsCheckedBeforeTraining_data()
{
    QTest::addColumn<QString>("target");  // relative to the test folder; "/..." as is
    QTest::addColumn<QString>("says");
    QDir(m_dir.path()).mkpath(QStringLiteral("a_folder"));
    QTest::newRow("trailing slash") << QStringLiteral("a_folder/") << QStringLiteral("ends with '/'");
    QTest::newRow("a folder") << QStringLiteral("a_folder") << QStringLiteral("is a folder");
    QTest::newRow("no such folder") << QStringLiteral("no_such_folder/model.pt") << QStringLiteral("no_such_folder does not exist");
    QTest::newRow("a device") << QStringLiteral("/dev/full") << QStringLiteral("is not a regular file");
}

void OwnModelHostileTest::saveTargetIsCheckedBeforeTraining()
{
    QFETCH(QString, target);
    QFETCH(QString, says);
    const QString path = target.startsWith(QLatin1Char('/')) ? target : file(target);
    for (const QString& command : {QStringLiteral("inspect"), QStringLiteral("run")}) {
        const EngineResult result = engineCommand(command, base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt")) +
                                                                   QStringList{QStringLiteral("--save-model"), path});
        QVERIFY2(result.exitCode == 2, qPrintable(command + QStringLiteral(": ") + result.summaryText()));
        const QJsonObject error = result.events.last();
        QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("save_model"));
        QVERIFY2(error.value(QStringLiteral("message")).toString().contains(says), qPrintable(result.summaryText()));
        QVERIFY(result.ofType(QStringLiteral("step")).isEmpty());  // said before the first step, not after the last
    }
}

void OwnModelHostileTest::aFullDiskKeepsTheOldModel()
{
    // The folder is a 64 KiB tmpfs filled to the brim (the tests run as root), or, where
    // mounting is not allowed, a file-size limit of 16 KiB (RLIMIT_FSIZE) that the engine
    // inherits: either way the trained model (about 28 KB) cannot be written.
    const QString folder = file(QStringLiteral("full"));
    QVERIFY(QDir().mkpath(folder));
    const bool mounted = ::mount("tmpfs", QFile::encodeName(folder).constData(), "tmpfs", 0, "size=64k") == 0;
    qInfo("full disk: %s", mounted ? "a 64 KiB tmpfs" : "no mount allowed here: RLIMIT_FSIZE of 16 KiB");
    const QString target = folder + QStringLiteral("/model.pt");
    QVERIFY(QFile::copy(file(QStringLiteral("bn_cnn.pt")), target));  // a different model, the one to keep
    const QByteArray before = digestOf(target);
    if (mounted) {
        QFile filler(folder + QStringLiteral("/filler"));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        const QByteArray block(1024, 'x');
        while (filler.write(block) == block.size() && filler.flush()) {
        }
    }
    QProcess engine;
    const QStringList arguments = QStringList{QStringLiteral("run")} + base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt")) +
                                  QStringList{QStringLiteral("--save-model"), target};
    engine.start(QStringLiteral("/bin/sh"), QStringList{QStringLiteral("-c"), QStringLiteral("ulimit -f %1; exec \"$0\" \"$@\"").arg(mounted ? QStringLiteral("unlimited") : QStringLiteral("16")),
                                                        ddplab::test::enginePath()} + arguments);
    QVERIFY(engine.waitForFinished(120000));
    const EngineResult result = ddplab::test::collect(engine);
    const QByteArray after = digestOf(target);
    const QStringList stray = strayFiles(folder, {QStringLiteral("model.pt"), QStringLiteral("filler")});
    if (mounted)
        ::umount2(QFile::encodeName(folder).constData(), MNT_DETACH);
    QVERIFY2(result.exitCode == 6, qPrintable(result.summaryText()));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("save_model"));
    const QString message = error.value(QStringLiteral("message")).toString();
    QVERIFY2(message.contains(mounted ? QStringLiteral("No space left on device") : QStringLiteral("File too large")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("unchanged")), qPrintable(message));
    QVERIFY(!result.stderrText.contains("unexpected pos"));  // no library backtrace
    QVERIFY(!result.ofType(QStringLiteral("step")).isEmpty());  // it trained; only the save failed
    QCOMPARE(after, before);
    QCOMPARE(stray, QStringList());
}

void OwnModelHostileTest::aLinkIsReplacedNotWrittenThrough()
{
    const QString victim = file(QStringLiteral("victim.txt"));
    QFile text(victim);
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("a file of the user's that a link points to\n");
    text.close();
    const QByteArray before = digestOf(victim);
    const QString link = file(QStringLiteral("link.pt"));
    QVERIFY(QFile::link(victim, link));
    const EngineResult result = runFlags(base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt")) +
                                          QStringList{QStringLiteral("--save-model"), link});
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    QCOMPARE(digestOf(victim), before);
    QVERIFY(!QFileInfo(link).isSymLink());
    const EngineResult reloaded = runEngine(QStringList{QStringLiteral("inspect")} + base(QStringLiteral("link.pt"), QStringLiteral("train.pt")));
    QVERIFY2(reloaded.exitCode == 0, qPrintable(reloaded.summaryText()));
}

void OwnModelHostileTest::replacingAFileTheLabDidNotWriteIsSaid()
{
    const QString target = file(QStringLiteral("notes.pt"));
    QFile text(target);
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("notes, not a model\n");
    text.close();
    const QStringList arguments = QStringList{QStringLiteral("run")} + base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt")) +
                                  QStringList{QStringLiteral("--save-model"), target};
    const EngineResult first = runEngine(arguments);
    QVERIFY2(first.exitCode == 0, qPrintable(first.summaryText()));
    QVERIFY2(first.stderrText.contains("exists and is not a model DDP Lab wrote"), first.stderrText.constData());
    // Now it is one of the lab's own: replaced without a word.
    const EngineResult second = runEngine(arguments);
    QVERIFY2(second.exitCode == 0, qPrintable(second.summaryText()));
    QVERIFY2(!second.stderrText.contains("is not a model DDP Lab wrote"), second.stderrText.constData());
}

QTEST_GUILESS_MAIN(OwnModelHostileTest)
#include "tst_own_model_hostile.moc"
