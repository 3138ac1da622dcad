// SPDX-License-Identifier: GPL-3.0-or-later
// Input a hostile or careless user gives the engine: config files that are not files, never
// end, are huge, repeat keys or hold numbers too large; paths that collide; a TMPDIR that is
// not there; runs the machine cannot hold. Each is refused at once with exit code 2, after
// `hello`, by an `error` event naming the key (or "config", "events", "environment"), and
// leaves nothing running.

#include "core/protocol.hpp"
#include "support/engine_process.hpp"
#include "support/process_table.hpp"
#include "support/test_data.hpp"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <thread>

using namespace ddplab;
using ddplab::test::EngineResult;
using ddplab::test::writeFile;

namespace {

// A generous bound on a refusal: it reads nothing big and starts no rank.
constexpr qint64 kRefusalBoundMs = 10000;

QStringList quickRun()
{
    return {QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("2"), QStringLiteral("--num-examples"),
            QStringLiteral("32"), QStringLiteral("--batch-size"), QStringLiteral("8")};
}

struct Refusal {
    EngineResult result;
    qint64 elapsedMs = 0;
};

Refusal runTimed(const QStringList& arguments, const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment())
{
    QElapsedTimer clock;
    clock.start();
    Refusal refusal;
    refusal.result = ddplab::test::runEngine(arguments, 60000, environment);
    refusal.elapsedMs = clock.elapsed();
    return refusal;
}

// Exit 2, hello first, one error last naming `key`, its message holding `words`, in time.
void verifyRefused(const Refusal& refusal, const QString& key, const QString& words)
{
    const EngineResult& result = refusal.result;
    QVERIFY2(result.exitCode == int(kExitInvalidInput), qPrintable(result.summaryText()));
    QVERIFY2(result.events.size() == 2, qPrintable(result.summaryText()));
    QCOMPARE(result.events.first().value(QLatin1String(protocol::field::kType)).toString(), QLatin1String(protocol::type::kHello));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QLatin1String(protocol::field::kType)).toString(), QLatin1String(protocol::type::kError));
    QCOMPARE(error.value(QLatin1String(protocol::field::kKey)).toString(), key);
    QCOMPARE(error.value(QLatin1String(protocol::field::kExitCode)).toInt(), int(kExitInvalidInput));
    const QString message = error.value(QLatin1String(protocol::field::kMessage)).toString();
    QVERIFY2(message.contains(words), qPrintable(message));
    QVERIFY2(refusal.elapsedMs < kRefusalBoundMs, qPrintable(QStringLiteral("took %1 ms").arg(refusal.elapsedMs)));
}

}  // namespace

class HostileInputTest : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_dir.isValid()); }
    void configThatIsNotAFile_data();
    void configThatIsNotAFile();
    void configOverTheSizeLimit();
    void configWithManyKeysIsReadInLinearTime();
    void repeatedKeyInConfig();
    void repeatedFlag_data();
    void repeatedFlag();
    void numberTooLargeForADouble();
    void numberTooLargeForAFloat();
    void eventsFileIsTheConfigFile();
    void eventsFileHeldByAnotherRun();
    void eventsFileThatIsAFifo();
    void missingTmpdir();
    void moreThreadsThanCores();
    void runTooBigForTheMachine();
    void configFromStandardInput();
    void configWithANulByte_data();
    void configWithANulByte();
    void emptyConfigPath();
    void runTooBigForTheAddressSpaceLimit();

private:
    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }
    QTemporaryDir m_dir;
};

void HostileInputTest::configThatIsNotAFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("words");
    QTest::newRow("a folder") << QStringLiteral("FOLDER") << QStringLiteral("is a folder");
    QTest::newRow("a FIFO nobody writes") << QStringLiteral("FIFO") << QStringLiteral("is a named pipe (FIFO)");
    QTest::newRow("a device that never ends") << QStringLiteral("/dev/zero") << QStringLiteral("is a device");
    QTest::newRow("missing") << QStringLiteral("MISSING") << QStringLiteral("cannot be read: No such file");
}

void HostileInputTest::configThatIsNotAFile()
{
    QFETCH(QString, file);
    QFETCH(QString, words);
    if (file == QLatin1String("FOLDER"))
        file = m_dir.path();
    if (file == QLatin1String("FIFO")) {
        file = path("config.fifo");
        QCOMPARE(::mkfifo(file.toLocal8Bit().constData(), 0600), 0);
    }
    if (file == QLatin1String("MISSING"))
        file = path("missing.json");
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--config"), file}), QStringLiteral("config"), words);
}

void HostileInputTest::configOverTheSizeLimit()
{
    // Valid JSON, but no config is a megabyte: /dev/zero-like growth is cut off by size.
    QByteArray json = "{\"lr\": 0.1, \"padding\": \"" + QByteArray(1 << 20, 'x') + "\"}";
    QVERIFY(!writeFile(path("big.json"), json).isEmpty());
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--config"), path("big.json")}), QStringLiteral("config"),
                  QStringLiteral("may be at most 1048576 bytes (1 MiB)"));
}

void HostileInputTest::configWithManyKeysIsReadInLinearTime()
{
    // 60,000 keys just under the size limit. The ordered parse searched every key before each
    // insert: 100,000 keys took 16 s. Linear, this is read in a moment and the first unknown
    // key is named.
    QByteArray json = "{";
    for (int i = 0; i < 60000; ++i)
        json += "\"k" + QByteArray::number(i) + "\": 1,";
    json += "\"last\": 1}";
    QVERIFY(json.size() < (1 << 20));
    QVERIFY(!writeFile(path("keys.json"), json).isEmpty());
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--config"), path("keys.json")}), QStringLiteral("k0"),
                  QStringLiteral("unknown key \"k0\""));
}

void HostileInputTest::repeatedKeyInConfig()
{
    QVERIFY(!writeFile(path("twice.json"), R"({"lr": 0.1, "batch_size": 8, "lr": 0.2})").isEmpty());
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--config"), path("twice.json")}), QStringLiteral("lr"),
                  QStringLiteral("key \"lr\" appears twice"));
}

void HostileInputTest::repeatedFlag_data()
{
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("words");
    QTest::newRow("a value twice") << QStringList{QStringLiteral("--lr"), QStringLiteral("1"), QStringLiteral("--lr"), QStringLiteral("2")}
                                   << QStringLiteral("lr") << QStringLiteral("--lr is given 2 times");
    QTest::newRow("a switch both ways") << QStringList{QStringLiteral("--shuffle"), QStringLiteral("--no-shuffle")}
                                        << QStringLiteral("shuffle") << QStringLiteral("--shuffle is given 2 times");
}

void HostileInputTest::repeatedFlag()
{
    QFETCH(QStringList, flags);
    QFETCH(QString, key);
    QFETCH(QString, words);
    verifyRefused(runTimed(quickRun() + flags), key, words);
}

void HostileInputTest::numberTooLargeForADouble()
{
    // Used to end with exit 1, "internal error", and nothing at all on stdout.
    QVERIFY(!writeFile(path("huge.json"), R"({"batch_size": 8, "lr": 1e999})").isEmpty());
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--config"), path("huge.json")}), QStringLiteral("lr"),
                  QStringLiteral("1e999, too large for a number"));
}

void HostileInputTest::numberTooLargeForAFloat()
{
    // Used to pass validation and fail in a rank ("cannot be converted to type float").
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--lr"), QStringLiteral("1e308")}), QStringLiteral("lr"),
                  QStringLiteral("lr must be at most 3.4e38"));
    QVERIFY(!writeFile(path("momentum.json"), R"({"weight_decay": 1e300})").isEmpty());
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--config"), path("momentum.json")}),
                  QStringLiteral("weight_decay"), QStringLiteral("weight_decay must be at most 3.4e38"));
}

void HostileInputTest::eventsFileIsTheConfigFile()
{
    const QByteArray settings = R"({"lr": 0.01})";
    QVERIFY(!writeFile(path("preset.json"), settings).isEmpty());
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--config"), path("preset.json"), QStringLiteral("--events"),
                                                    path("preset.json")}),
                  QStringLiteral("events"), QStringLiteral("is the config file"));
    QFile preset(path("preset.json"));
    QVERIFY(preset.open(QIODevice::ReadOnly));
    QCOMPARE(preset.readAll(), settings);  // untouched
}

void HostileInputTest::eventsFileHeldByAnotherRun()
{
    const QString events = path("shared.jsonl");
    QProcess first;
    first.start(ddplab::test::enginePath(), {QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("2"),
                                             QStringLiteral("--batch-size"), QStringLiteral("1"), QStringLiteral("--epochs"),
                                             QStringLiteral("1000000"), QStringLiteral("--events"), events});
    QVERIFY(first.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(events).size() > 0, 30000);
    const Refusal second = runTimed(quickRun() + QStringList{QStringLiteral("--events"), events});
    first.terminate();
    QVERIFY(first.waitForFinished(30000));
    verifyRefused(second, QStringLiteral("events"), QStringLiteral("is being written by another run"));
    // Nothing of the second run is in the first one's file.
    const QList<QJsonObject> onDisk = ddplab::test::readEventsFile(events);
    const auto hellos = std::count_if(onDisk.begin(), onDisk.end(), [](const QJsonObject& event) {
        return event.value(QLatin1String(protocol::field::kType)).toString() == QLatin1String(protocol::type::kHello);
    });
    QCOMPARE(hellos, 1);
}

void HostileInputTest::eventsFileThatIsAFifo()
{
    // Opening a FIFO for writing waits for a reader: it hung with no output at all.
    const QString fifo = path("events.fifo");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--events"), fifo}), QStringLiteral("events"),
                  QStringLiteral("is a named pipe (FIFO)"));
}

void HostileInputTest::missingTmpdir()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TMPDIR"), path("no-such-folder"));
    verifyRefused(runTimed(quickRun(), environment), QStringLiteral("environment"),
                  QStringLiteral("TMPDIR is \"%1\", which is not a folder").arg(path("no-such-folder")));
}

void HostileInputTest::moreThreadsThanCores()
{
    const int cores = int(std::thread::hardware_concurrency());
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--threads"), QString::number(cores + 1)}),
                  QStringLiteral("threads"), QStringLiteral("threads must be at most the %1 CPU core").arg(cores));
}

void HostileInputTest::runTooBigForTheMachine()
{
    // 128 ranks, each with its own 100 million examples: about 2 GiB a rank, far beyond what
    // any machine this runs on has available. Refused from the estimate, before any rank starts.
    const Refusal refusal = runTimed({QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("128"),
                                      QStringLiteral("--num-examples"), QStringLiteral("100000000"), QStringLiteral("--batch-size"),
                                      QStringLiteral("1000000"), QStringLiteral("--max-steps"), QStringLiteral("1")});
    verifyRefused(refusal, QStringLiteral("num_examples"), QStringLiteral("this run needs about"));
    const QString message = refusal.result.events.last().value(QLatin1String(protocol::field::kMessage)).toString();
    QVERIFY2(message.contains(QStringLiteral("128 ranks x")) && message.contains(QStringLiteral("GiB available")), qPrintable(message));
}

void HostileInputTest::configFromStandardInput()
{
    // How a remote run receives its config: on stdin, never on a shell command line.
    QProcess engine;
    engine.start(ddplab::test::enginePath(), {QStringLiteral("run"), QStringLiteral("--config"), QStringLiteral("-")});
    QVERIFY(engine.waitForStarted());
    engine.write(R"({"world_size": 2, "num_examples": 32, "batch_size": 8, "lr": 0.01})");
    engine.closeWriteChannel();
    QVERIFY(engine.waitForFinished(60000));
    const EngineResult result = ddplab::test::collect(engine);
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    const QJsonObject config = result.first(QLatin1String(protocol::type::kConfig));
    QCOMPARE(config.value(QStringLiteral("world_size")).toInt(), 2);
    QCOMPARE(config.value(QStringLiteral("lr")).toDouble(), 0.01);
}

void HostileInputTest::configWithANulByte_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("words");
    // The JSON reader took the NUL for the end: what followed was never looked at.
    QTest::newRow("garbage after a NUL") << QByteArray("{\"world_size\": 2}\0garbage", 25) << QStringLiteral("config")
                                         << QStringLiteral("holds a NUL byte at byte 17");
    // The message ended at the NUL.
    QTest::newRow("a NUL in a key") << QByteArray(R"({"batch\u0000size": 8})") << QStringLiteral("batch")
                                    << QStringLiteral("unknown key \"batch\\u0000size\" in config file");
}

void HostileInputTest::configWithANulByte()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, key);
    QFETCH(QString, words);
    QVERIFY(!writeFile(path("nul.json"), json).isEmpty());
    const Refusal refusal = runTimed(quickRun() + QStringList{QStringLiteral("--config"), path("nul.json")});
    const QString reported = refusal.result.events.last().value(QLatin1String(protocol::field::kKey)).toString();
    verifyRefused(refusal, reported.startsWith(key) ? reported : key, words);
    QVERIFY2(refusal.result.stderrText.contains(words.toUtf8()), refusal.result.stderrText.constData());
}

void HostileInputTest::emptyConfigPath()
{
    // --config "" was ignored: the run went ahead on the defaults.
    verifyRefused(runTimed(quickRun() + QStringList{QStringLiteral("--config"), QString()}), QStringLiteral("config"),
                  QStringLiteral("--config is given no file"));
}

void HostileInputTest::runTooBigForTheAddressSpaceLimit()
{
    // Under ulimit -v the machine's available memory is not what a rank may have: a rank of
    // about 3 GiB under a 2.5 GiB address-space limit is refused before it starts, not killed
    // by std::bad_alloc.
    QProcess engine;
    engine.start(QStringLiteral("/bin/sh"),
                 {QStringLiteral("-c"), QStringLiteral("ulimit -v 2500000 && exec \"$0\" run --world-size 1 --num-examples 100000000 "
                                                       "--batch-size 1 --max-steps 1"),
                  ddplab::test::enginePath()});
    QVERIFY(engine.waitForFinished(60000));
    const EngineResult result = ddplab::test::collect(engine);
    QCOMPARE(result.exitCode, int(kExitInvalidInput));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QLatin1String(protocol::field::kKey)).toString(), QStringLiteral("num_examples"));
    const QString message = error.value(QLatin1String(protocol::field::kMessage)).toString();
    QVERIFY2(message.contains(QStringLiteral("the address-space limit (RLIMIT_AS, ulimit -v) leaves a rank")), qPrintable(message));
}

QTEST_GUILESS_MAIN(HostileInputTest)
#include "tst_hostile_input.moc"
