// SPDX-License-Identifier: GPL-3.0-or-later
// `ddplab-engine runs`: many runs from one process, as stdin asks. Each run's events are what
// `ddplab-engine run` writes for the same config (same figures), each ends with run_end and its
// exit code, a bad request is refused alone, a stop signal reaches the run in progress and no
// further request is started, a run killed from outside still gets an error, and nothing is
// left running. A config may come inline (remote runs), a stop request or the end of input
// stops a run, and launch templates start runs with torchrun or srun. Every line of stdin is
// taken in order and bounded at 64 KiB, during a run too; a config folder left by a killed
// `runs` is swept by the next.

#include "support/engine_process.hpp"
#include "support/prerequisites.hpp"
#include "support/process_table.hpp"
#include "support/sanitizer.hpp"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <csignal>

using namespace ddplab::test;

namespace {

constexpr int kPatienceMs = 120000;

QString writeConfig(const QTemporaryDir& dir, const QString& name, const QByteArray& json)
{
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(json);
    return file.fileName();
}

QByteArray request(const QString& config, const QString& events)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("config"), config}, {QStringLiteral("events"), events}})
               .toJson(QJsonDocument::Compact) +
           '\n';
}

// The stream cut into runs: the events between one run_end and the next, with its exit code.
struct RunSlice {
    QList<QJsonObject> events;
    int exitCode = -1;
    QString lastType() const { return events.isEmpty() ? QString() : events.last().value(QStringLiteral("type")).toString(); }
};

QList<RunSlice> slices(const QList<QJsonObject>& stream)
{
    QList<RunSlice> runs(1);
    for (qsizetype i = 1; i < stream.size(); ++i) {  // the first is the engine's own hello
        if (stream[i].value(QStringLiteral("type")).toString() == QLatin1String("run_end")) {
            runs.last().exitCode = stream[i].value(QStringLiteral("exit_code")).toInt(-1);
            runs.append(RunSlice());
        } else {
            runs.last().events.append(stream[i]);
        }
    }
    runs.removeLast();
    return runs;
}

QJsonObject lastOfType(const QList<QJsonObject>& events, const char* type)
{
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
        if (it->value(QStringLiteral("type")).toString() == QLatin1String(type))
            return *it;
    }
    return {};
}

const QByteArray kToy = R"({"world_size": 2, "batch_size": 8, "num_examples": 64, "experiments": 50, "noise": 1, "epochs": 2})";
const QByteArray kEndless = R"({"world_size": 2, "batch_size": 1, "num_examples": 256, "epochs": 100000})";

// The resident memory of a process, from /proc/PID/status (0 when it is gone).
qint64 residentBytes(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    }
    return 0;
}

// Starts `runs` on an endless run and waits for its steps.
bool startEndlessRun(QProcess& engine, const QString& config, const QStringList& extra = {})
{
    engine.start(enginePath(), QStringList{QStringLiteral("runs")} + extra);
    if (!engine.waitForStarted())
        return false;
    engine.write(request(config, QString()).replace(",\"events\":\"\"", ""));
    QByteArray seen;
    while (seen.count("\"type\":\"step\"") < 3 && engine.waitForReadyRead(kPatienceMs))
        seen += engine.readAllStandardOutput();
    return seen.count("\"type\":\"step\"") >= 3;
}

QStringList folderNames(const QString& folder)
{
    return QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
}

}  // namespace

class TestRunsCommand : public QObject {
    Q_OBJECT

private slots:
    void runsOneAfterAnotherAsStdinAsks()
    {
        QTemporaryDir dir;
        const QString toy = writeConfig(dir, QStringLiteral("toy.json"), kToy);
        const QString linreg = writeConfig(dir, QStringLiteral("linreg.json"),
                                           R"({"workload": "linreg", "world_size": 3, "batch_size": 4, "epochs": 1})");
        const QString refused = writeConfig(dir, QStringLiteral("refused.json"), R"({"batch_size": 0})");
        QProcess engine;
        engine.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(engine.waitForStarted());
        engine.write(request(toy, dir.filePath(QStringLiteral("1.jsonl"))));
        engine.write("this is not a request\n");
        engine.write(request(refused, dir.filePath(QStringLiteral("3.jsonl"))));
        engine.write("\n");  // blank lines separate nothing
        engine.write(request(linreg, dir.filePath(QStringLiteral("4.jsonl"))));
        engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        const EngineResult result = collect(engine);
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.badLines.isEmpty());
        QCOMPARE(result.events.first().value(QStringLiteral("role")).toString(), QStringLiteral("runs"));

        const QList<RunSlice> runs = slices(result.events);
        QCOMPARE(runs.size(), 4);
        QCOMPARE(runs[0].exitCode, 0);
        QCOMPARE(runs[0].lastType(), QStringLiteral("summary"));
        QCOMPARE(runs[0].events.first().value(QStringLiteral("role")).toString(), QStringLiteral("launcher"));
        QCOMPARE(runs[1].exitCode, 2);
        QVERIFY2(lastOfType(runs[1].events, "error").value(QStringLiteral("message")).toString().contains(
                     QStringLiteral("request 2 on stdin is not a JSON object")),
                 qPrintable(result.summaryText()));
        QCOMPARE(runs[2].exitCode, 2);
        QCOMPARE(lastOfType(runs[2].events, "error").value(QStringLiteral("key")).toString(), QStringLiteral("batch_size"));
        QCOMPARE(runs[3].exitCode, 0);
        QCOMPARE(lastOfType(runs[3].events, "config").value(QStringLiteral("world_size")).toInt(), 3);

        // Each run's events file holds its own events, as `run` writes them.
        QCOMPARE(readEventsFile(dir.filePath(QStringLiteral("1.jsonl"))), runs[0].events);
        QCOMPARE(readEventsFile(dir.filePath(QStringLiteral("4.jsonl"))), runs[3].events);

        // The same figures as `ddplab-engine run` with the same config.
        const EngineResult alone = runEngine({QStringLiteral("run"), QStringLiteral("--config"), toy});
        QCOMPARE(alone.exitCode, 0);
        const QJsonObject expected = alone.last(QStringLiteral("summary"));
        const QJsonObject got = lastOfType(runs[0].events, "summary");
        for (const char* figure : {"loss", "update_var", "w_mean", "steps"})
            QCOMPARE(got.value(QLatin1String(figure)).toDouble(), expected.value(QLatin1String(figure)).toDouble());
    }

    void aStopSignalReachesTheRunAndNothingMoreStarts()
    {
        QTemporaryDir dir;
        const QString endless = writeConfig(dir, QStringLiteral("endless.json"),
                                            R"({"world_size": 3, "batch_size": 1, "num_examples": 64, "epochs": 1000000})");
        QProcess engine;
        engine.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(engine.waitForStarted());
        engine.write(request(endless, dir.filePath(QStringLiteral("1.jsonl"))));
        engine.write(request(endless, dir.filePath(QStringLiteral("2.jsonl"))));
        // Wait for steps: the run is under way, its ranks exist.
        QTRY_VERIFY_WITH_TIMEOUT(readEventsFile(dir.filePath(QStringLiteral("1.jsonl"))).size() > 5, kPatienceMs);
        const QList<qint64> processes = QList<qint64>{engine.processId()} + descendantsOf(engine.processId());
        QCOMPARE(processes.size(), 1 + 1 + 3);
        engine.terminate();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        const EngineResult result = collect(engine);
        QCOMPARE(result.exitCode, 5);
        const QList<RunSlice> runs = slices(result.events);
        QCOMPARE(runs.size(), 1);  // the second request was never started
        QCOMPARE(runs[0].exitCode, 5);
        QVERIFY(lastOfType(runs[0].events, "error").value(QStringLiteral("message")).toString().contains(QStringLiteral("cancelled by SIGTERM")));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("2.jsonl"))));
        for (qint64 pid : processes)
            QTRY_VERIFY_WITH_TIMEOUT(!isRunning(pid), 5000);
    }

    void aRunKilledFromOutsideStillEndsWithAnError()
    {
        QTemporaryDir dir;
        const QString endless = writeConfig(dir, QStringLiteral("endless.json"),
                                            R"({"world_size": 2, "batch_size": 1, "num_examples": 64, "epochs": 1000000})");
        const QString toy = writeConfig(dir, QStringLiteral("toy.json"), kToy);
        const QString killedEvents = dir.filePath(QStringLiteral("killed.jsonl"));
        QProcess engine;
        engine.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(engine.waitForStarted());
        engine.write(request(endless, killedEvents));
        engine.write(request(toy, dir.filePath(QStringLiteral("next.jsonl"))));
        QTRY_VERIFY_WITH_TIMEOUT(readEventsFile(killedEvents).size() > 5, kPatienceMs);
        const QList<qint64> runProcess = childrenOf(engine.processId());
        QCOMPARE(runProcess.size(), 1);
        ::kill(pid_t(runProcess.first()), SIGKILL);  // as the kernel's out-of-memory killer would
        engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        const EngineResult result = collect(engine);
        QCOMPARE(result.exitCode, 0);
        const QList<RunSlice> runs = slices(result.events);
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].exitCode, 1);
        const QString message = lastOfType(runs[0].events, "error").value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("killed by signal 9")), qPrintable(message));
        // The run's own file ends with the same error.
        QCOMPARE(readEventsFile(killedEvents).last().value(QStringLiteral("message")).toString(), message);
        QCOMPARE(runs[1].exitCode, 0);
        QCOMPARE(runs[1].lastType(), QStringLiteral("summary"));
    }

    void noInputMeansNoRun()
    {
        QProcess engine;
        engine.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(engine.waitForStarted());
        engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        const EngineResult result = collect(engine);
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.events.size(), 1);
        QCOMPARE(result.events.first().value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
    }

    void anEndlessRequestIsRefusedWithoutHoldingIt()
    {
        QProcess engine;
        engine.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(engine.waitForStarted());
        engine.write(QByteArray(1 << 20, 'x'));  // a megabyte and no newline
        engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        const EngineResult result = collect(engine);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.stderrText.contains("longer than 65536 bytes"), result.stderrText.constData());
    }

    void anInlineConfigRunsFromAPrivateFolderAndIsRemovedAfter()
    {
        QTemporaryDir tmp;
        QProcess engine;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TMPDIR"), tmp.path());
        engine.setProcessEnvironment(environment);
        engine.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(engine.waitForStarted());
        engine.write(QJsonDocument(QJsonObject{{QStringLiteral("config"), QJsonDocument::fromJson(kToy).object()}})
                         .toJson(QJsonDocument::Compact) + '\n');
        engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        const EngineResult result = collect(engine);
        const QList<RunSlice> runs = slices(result.events);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].exitCode, 0);
        QCOMPARE(lastOfType(runs[0].events, "config").value(QStringLiteral("world_size")).toInt(), 2);
        QVERIFY2(QDir(tmp.path()).isEmpty(), "the private config folder is left behind");
    }

    void aStopRequestOrTheEndOfInputStopsTheRun_data()
    {
        QTest::addColumn<bool>("byRequest");
        QTest::newRow("stop request") << true;
        QTest::newRow("input ends") << false;
    }

    void aStopRequestOrTheEndOfInputStopsTheRun()
    {
        QFETCH(bool, byRequest);
        QTemporaryDir dir;
        const QString endless = writeConfig(dir, QStringLiteral("endless.json"),
                                            R"({"world_size": 2, "batch_size": 1, "num_examples": 256, "epochs": 100000})");
        QProcess engine;
        // This test's own folder on the command line: the engine's run and ranks carry it, and
        // no other lab or suite on the machine does.
        engine.start(enginePath(), {QStringLiteral("runs"), QStringLiteral("--stop-when-input-ends"), QStringLiteral("--run-dir"), dir.path()});
        QVERIFY(engine.waitForStarted());
        engine.write(request(endless, QString()).replace(",\"events\":\"\"", ""));
        QByteArray seen;
        while (seen.count("\"type\":\"step\"") < 3 && engine.waitForReadyRead(kPatienceMs))
            seen += engine.readAllStandardOutput();
        QElapsedTimer clock;
        clock.start();
        if (byRequest)
            engine.write("{\"stop\": true}\n");
        else
            engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(10000));
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(engine.exitCode(), 5);
        const QByteArray rest = seen + engine.readAllStandardOutput();
        QVERIFY(rest.contains("\"type\":\"run_end\",\"exit_code\":5"));
        // Its run and the run's ranks went with it (they all carry its command line).
        QTest::qWait(200);
        QVERIFY(ddplab::test::processesWithArgument(dir.path()).isEmpty());
    }

    void aStopStopsTheRunWhateverCameBeforeIt_data()
    {
        QTest::addColumn<QByteArray>("before");
        QTest::newRow("a blank line") << QByteArray("\n");
        QTest::newRow("garbage") << QByteArray("this is not a request\n");
        QTest::newRow("a stop that stops nothing") << QByteArray("{\"stop\": false}\n");
        QTest::newRow("a request that waits its turn") << QByteArray("QUEUED");
        QTest::newRow("all of them") << QByteArray("\n\ngarbage\n{\"stop\": false}\nQUEUED");
    }

    void aStopStopsTheRunWhateverCameBeforeIt()
    {
        // A stop behind another line in the same read was not seen: the run went on until
        // the input closed.
        QFETCH(QByteArray, before);
        QTemporaryDir dir;
        const QString endless = writeConfig(dir, QStringLiteral("endless.json"), kEndless);
        const QString queued = dir.filePath(QStringLiteral("queued.jsonl"));
        before.replace("QUEUED", request(writeConfig(dir, QStringLiteral("toy.json"), kToy), queued));
        QProcess engine;
        QVERIFY(startEndlessRun(engine, endless));
        QElapsedTimer clock;
        clock.start();
        engine.write(before + "{\"stop\": true}\n");
        QVERIFY(engine.waitForFinished(15000));
        QVERIFY2(clock.elapsed() < 15000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(engine.exitCode(), 5);
        QVERIFY(engine.readAllStandardOutput().contains("\"type\":\"run_end\",\"exit_code\":5"));
        QVERIFY(!QFile::exists(queued));  // what waited behind the run goes with it
    }

    void aStopInTheSameReadAsItsRequestCancelsIt()
    {
        QTemporaryDir dir;
        const QString endless = writeConfig(dir, QStringLiteral("endless.json"), kEndless);
        QProcess engine;
        engine.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(engine.waitForStarted());
        engine.write(request(endless, dir.filePath(QStringLiteral("1.jsonl"))) + "\n{\"stop\": true}\n");
        QVERIFY(engine.waitForFinished(30000));
        const EngineResult result = collect(engine);
        QCOMPARE(result.exitCode, 5);
        const QList<RunSlice> runs = slices(result.events);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].exitCode, 5);
        QVERIFY2(lastOfType(runs[0].events, "error").value(QStringLiteral("message")).toString().contains(QStringLiteral("cancelled by SIGTERM")),
                 qPrintable(result.summaryText()));
    }

    void aLongLineDuringARunIsRefusedWithoutHoldingIt()
    {
        // 32 MiB without a newline used to be held (and scanned again on every read) while a run
        // was in progress: the 64 KiB limit holds then too.
        QTemporaryDir dir;
        const QString endless = writeConfig(dir, QStringLiteral("endless.json"), kEndless);
        QProcess engine;
        QVERIFY(startEndlessRun(engine, endless));
        const qint64 before = residentBytes(engine.processId());
        engine.write(QByteArray(32 << 20, 'x'));
        QVERIFY(engine.waitForFinished(30000));
        const EngineResult result = collect(engine);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.stderrText.contains("longer than 65536 bytes during a run; stopping the run"), result.stderrText.constData());
        QVERIFY(before > 0);
        const QList<RunSlice> runs = slices(result.events);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].exitCode, 5);  // stopped as a cancel, its ranks with it
    }

    void aFloodOfLinesDuringARunWaitsInBoundedMemory()
    {
        QTemporaryDir dir;
        const QString endless = writeConfig(dir, QStringLiteral("endless.json"), kEndless);
        QProcess engine;
        QVERIFY(startEndlessRun(engine, endless));
        const qint64 before = residentBytes(engine.processId());
        QByteArray flood;
        while (flood.size() < (64 << 20))
            flood += "{\"not\": \"a request\"}\n";
        engine.write(flood);
        QTest::qWait(3000);
        const qint64 after = residentBytes(engine.processId());
        QVERIFY(before > 0 && after > 0);
        // What waits is bounded (1 MiB of lines); the rest stays in the pipe and in this test.
        if (!ddplab::test::kBuiltWithAddressSanitizer)
            QVERIFY2(after - before < (16 << 20), qPrintable(QStringLiteral("%1 -> %2 bytes").arg(before).arg(after)));
        QCOMPARE(engine.state(), QProcess::Running);  // the run goes on
        engine.terminate();
        QVERIFY(engine.waitForFinished(15000));
        QCOMPARE(engine.exitCode(), 5);
    }

    void aConfigFolderLeftByAKilledRunsIsSweptAtTheNextStart()
    {
        QTemporaryDir tmp;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TMPDIR"), tmp.path());
        QProcess killed;
        killed.setProcessEnvironment(environment);
        killed.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(killed.waitForStarted());
        killed.write(QJsonDocument(QJsonObject{{QStringLiteral("config"), QJsonDocument::fromJson(kEndless).object()}})
                         .toJson(QJsonDocument::Compact) + '\n');
        QByteArray seen;
        while (seen.count("\"type\":\"step\"") < 3 && killed.waitForReadyRead(kPatienceMs))
            seen += killed.readAllStandardOutput();
        const QList<qint64> processes = QList<qint64>{killed.processId()} + descendantsOf(killed.processId());
        ::kill(pid_t(killed.processId()), SIGKILL);
        QVERIFY(killed.waitForFinished(kPatienceMs));
        for (qint64 pid : processes)
            QTRY_VERIFY_WITH_TIMEOUT(!isRunning(pid), 10000);
        const QStringList left = folderNames(tmp.path());
        QVERIFY2(std::any_of(left.begin(), left.end(), [](const QString& name) { return name.startsWith(QStringLiteral("ddplab-config-")); }),
                 qPrintable(left.join(QLatin1Char(' '))));

        QProcess next;
        next.setProcessEnvironment(environment);
        next.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(next.waitForStarted());
        next.closeWriteChannel();
        QVERIFY(next.waitForFinished(kPatienceMs));
        QCOMPARE(next.exitCode(), 0);
        const QStringList after = folderNames(tmp.path());
        QVERIFY2(std::none_of(after.begin(), after.end(), [](const QString& name) { return name.startsWith(QStringLiteral("ddplab-config-")); }),
                 qPrintable(after.join(QLatin1Char(' '))));
    }

    void anInlineConfigWithAnUnusableTmpdirEndsWithAnError()
    {
        // It ended with run_end 1 and no word of why; `run` says "environment".
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no-such-folder"));
        const QString events = dir.filePath(QStringLiteral("events.jsonl"));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TMPDIR"), missing);
        QProcess engine;
        engine.setProcessEnvironment(environment);
        engine.start(enginePath(), {QStringLiteral("runs")});
        QVERIFY(engine.waitForStarted());
        engine.write(QJsonDocument(QJsonObject{{QStringLiteral("config"), QJsonDocument::fromJson(kToy).object()},
                                               {QStringLiteral("events"), events}})
                         .toJson(QJsonDocument::Compact) + '\n');
        engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        const EngineResult result = collect(engine);
        const QList<RunSlice> runs = slices(result.events);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].exitCode, 2);
        QCOMPARE(runs[0].events.first().value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
        const QJsonObject error = lastOfType(runs[0].events, "error");
        QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("environment"));
        QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("TMPDIR is \"%1\", which is not a folder").arg(missing)),
                 qPrintable(result.summaryText()));
        QCOMPARE(readEventsFile(events), runs[0].events);  // the run's file says it too
        QVERIFY(!QFileInfo::exists(missing));              // a TMPDIR that is not there is pointed out, not made
    }

    void torchrunStartsTheRunsWhenTheTemplateSaysSo()
    {
        const QString missing = ddplab::test::missingTorchrun();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QTemporaryDir dir;
        const QString toy = writeConfig(dir, QStringLiteral("toy.json"), kToy);
        const QString builtIn = dir.filePath(QStringLiteral("builtin.jsonl"));
        QVERIFY(runEngine({QStringLiteral("run"), QStringLiteral("--config"), toy, QStringLiteral("--events"), builtIn}).exitCode == 0);
        QProcess engine;
        engine.start(enginePath(), {QStringLiteral("runs"), QStringLiteral("--launcher"),
                                    ddplab::test::torchrunProgram() +
                                        QStringLiteral(" --standalone --nproc_per_node {ranks} --redirects 2 --tee 2 --no_python "
                                                       "{engine} worker --config {config}")});
        QVERIFY(engine.waitForStarted());
        engine.write(request(toy, QString()).replace(",\"events\":\"\"", ""));
        engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        const EngineResult result = collect(engine);
        const QList<RunSlice> runs = slices(result.events);
        QCOMPARE(runs.size(), 1);
        QVERIFY2(runs[0].exitCode == 0, qPrintable(result.summaryText()));
        QCOMPARE(runs[0].events.first().value(QStringLiteral("role")).toString(), QStringLiteral("worker"));
        // Rank 0's events came back through torchrun, step for step those of the built-in launcher.
        QList<double> viaTorchrun, viaBuiltIn;
        for (const QJsonObject& event : runs[0].events) {
            if (event.value(QStringLiteral("type")).toString() == QLatin1String("step"))
                viaTorchrun.append(event.value(QStringLiteral("loss")).toDouble());
        }
        for (const QJsonObject& event : ddplab::test::readEventsFile(builtIn)) {
            if (event.value(QStringLiteral("type")).toString() == QLatin1String("step"))
                viaBuiltIn.append(event.value(QStringLiteral("loss")).toDouble());
        }
        QVERIFY(!viaBuiltIn.isEmpty());
        QCOMPARE(viaTorchrun, viaBuiltIn);
    }

    void theSlurmTemplateBuildsItsCommandLine()
    {
        // No Slurm here: a stand-in srun records what it was given.
        QTemporaryDir dir;
        const QString record = dir.filePath(QStringLiteral("srun-args"));
        QFile srun(dir.filePath(QStringLiteral("srun")));
        QVERIFY(srun.open(QIODevice::WriteOnly));
        srun.write("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + QFile::encodeName(record) + "'\n");
        srun.close();
        srun.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString toy = writeConfig(dir, QStringLiteral("toy.json"), kToy);
        QProcess engine;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("PATH"), dir.path() + QStringLiteral(":") + environment.value(QStringLiteral("PATH")));
        engine.setProcessEnvironment(environment);
        const QString slurm = QStringLiteral("srun --ntasks {ranks} --gpus-per-task 1 sh -c 'MASTER_ADDR=$(scontrol show hostnames "
                                             "\"$SLURM_JOB_NODELIST\" | head -n 1) MASTER_PORT=29500 exec \"$0\" worker --config \"$1\"' "
                                             "{engine} {config}");
        engine.start(enginePath(), {QStringLiteral("runs"), QStringLiteral("--launcher"), slurm});
        QVERIFY(engine.waitForStarted());
        engine.write(request(toy, QString()).replace(",\"events\":\"\"", ""));
        engine.closeWriteChannel();
        QVERIFY(engine.waitForFinished(kPatienceMs));
        QFile recorded(record);
        QVERIFY(recorded.open(QIODevice::ReadOnly));
        const QStringList arguments = QString::fromUtf8(recorded.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(arguments.mid(0, 6), (QStringList{QStringLiteral("--ntasks"), QStringLiteral("2"), QStringLiteral("--gpus-per-task"),
                                                   QStringLiteral("1"), QStringLiteral("sh"), QStringLiteral("-c")}));
        QVERIFY(arguments.at(6).startsWith(QStringLiteral("MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\"")));
        QCOMPARE(QFileInfo(arguments.at(7)).canonicalFilePath(), QFileInfo(enginePath()).canonicalFilePath());
        QCOMPARE(arguments.at(8), toy);

        // A template without {config}, or with a placeholder it does not know, is refused.
        for (const QString& wrong : {QStringLiteral("srun {engine} worker"), QStringLiteral("srun {engine} worker --config {config} {gpus}")}) {
            QProcess refused;
            refused.start(enginePath(), {QStringLiteral("runs"), QStringLiteral("--launcher"), wrong});
            QVERIFY(refused.waitForStarted());
            refused.write(request(toy, QString()).replace(",\"events\":\"\"", ""));
            refused.closeWriteChannel();
            QVERIFY(refused.waitForFinished(kPatienceMs));
            const QByteArray out = refused.readAllStandardOutput();
            QVERIFY2(out.contains("\"exit_code\":2"), out.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestRunsCommand)
#include "tst_runs_command.moc"
