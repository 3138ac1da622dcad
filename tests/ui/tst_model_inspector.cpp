// SPDX-License-Identifier: GPL-3.0-or-later
// The window's background inspection of your own model (ModelInspector over EngineQuery),
// against fake engines (shell scripts) that stand for a model whose forward never returns or
// that prints: an inspection is killed, not waited on, when other settings or another engine
// target replace it and when the inspector goes; the window killed by SIGTERM or SIGKILL leaves
// no `inspect` behind (PR_SET_PDEATHSIG); and the answer is the last `inspection` event with
// the exit code, whatever else the model printed (a forged `error` line included).

#include "client/engine/engine_query.hpp"
#include "client/engine/model_inspector.hpp"
#include "ui_test_main.hpp"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QSignalSpy>

#include <csignal>
#include <memory>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = 20000;  // a safety net only

// A program that exists and never returns: what `inspect` is with a forward that never does.
// Each `inspect` writes its PID (one line) to `pids` and sleeps; other subcommands answer nothing.
QString hangingEngine(const QTemporaryDir& dir, const QString& pids)
{
    const QString path = dir.filePath(QStringLiteral("hanging-engine"));
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return QString();
    script.write("#!/bin/sh\n"
                 "[ \"$1\" = inspect ] || exit 0\n"
                 "echo $$ >> '" + QFile::encodeName(pids) + "'\n"
                 "exec sleep 600\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

// A program that reads its config, prints `stdout` and exits with `code`.
QString printingEngine(const QTemporaryDir& dir, const QByteArray& stdoutText, int code)
{
    static int made = 0;
    ++made;
    const QString path = dir.filePath(QStringLiteral("printing-engine-%1").arg(made));
    const QString text = dir.filePath(QStringLiteral("printed-%1.txt").arg(made));
    QFile printed(text);
    if (!printed.open(QIODevice::WriteOnly))
        return QString();
    printed.write(stdoutText);
    printed.close();
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return QString();
    script.write("#!/bin/sh\ncat > /dev/null\ncat '" + QFile::encodeName(text) + "'\nexit " + QByteArray::number(code) + "\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

QList<qint64> pidsIn(const QString& path)
{
    QList<qint64> pids;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (!line.trimmed().isEmpty())
                pids.append(line.trimmed().toLongLong());
        }
    }
    return pids;
}

// Running (not a zombie waiting to be reaped): a killed child of this process is reaped by
// QProcess, an orphan's by init.
bool isAlive(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype afterName = text.lastIndexOf(')');
    return afterName > 0 && text.mid(afterName + 2, 1) != "Z";
}

bool waitUntilGone(qint64 pid)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < kPatienceMs) {
        if (!isAlive(pid))
            return true;
        QTest::qWait(50);
    }
    return false;
}

QJsonObject ownModel(const QString& model)
{
    return QJsonObject{{QStringLiteral("workload"), QStringLiteral("torchscript")}, {QStringLiteral("model_file"), model},
                       {QStringLiteral("train_data"), QStringLiteral("/data/train.pt")}, {QStringLiteral("loss"), QStringLiteral("mse")}};
}

}  // namespace

class TestModelInspector : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // The PID of the `count`th inspect the hanging engine started, once it runs.
    qint64 waitForInspect(const QString& pids, int count)
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < kPatienceMs && pidsIn(pids).size() < count)
            QTest::qWait(20);
        return pidsIn(pids).size() >= count ? pidsIn(pids).at(count - 1) : 0;
    }

private slots:
    void newSettingsKillTheRunningInspectionAtOnce()
    {
        const QString pids = m_dir.filePath(QStringLiteral("settings.pids"));
        auto inspector = std::make_unique<ModelInspector>(hangingEngine(m_dir, pids));
        inspector->inspect(ownModel(QStringLiteral("/models/a.pt")));
        const qint64 first = waitForInspect(pids, 1);
        QVERIFY(first > 0);
        QVERIFY(isAlive(first));
        QVERIFY(inspector->isRunning());

        // Other settings: the inspection of the old ones is gone before the call returns, not
        // when it would have ended (never) nor when the next one starts.
        inspector->inspect(ownModel(QStringLiteral("/models/b.pt")));
        QVERIFY2(!isAlive(first), "the inspection of settings no longer shown still runs");
        QVERIFY(inspector->isRunning());  // the new one, after its pause
        const qint64 second = waitForInspect(pids, 2);
        QVERIFY(second > 0 && second != first);
        QVERIFY(isAlive(second));

        // The same settings again: the inspection running for them goes on.
        inspector->inspect(ownModel(QStringLiteral("/models/b.pt")));
        QTest::qWait(800);  // longer than the inspector's pause
        QVERIFY(isAlive(second));
        QCOMPARE(pidsIn(pids).size(), qsizetype(2));

        // Settings that are no own model any more: nothing to wait for.
        inspector->inspect(QJsonObject{{QStringLiteral("workload"), QStringLiteral("toy")}});
        QVERIFY(!isAlive(second));
        QVERIFY(!inspector->isRunning());

        // The inspector going (the window closing) takes its inspection along.
        inspector->inspect(ownModel(QStringLiteral("/models/c.pt")));
        const qint64 third = waitForInspect(pids, 3);
        QVERIFY(third > 0 && isAlive(third));
        inspector.reset();
        QVERIFY2(!isAlive(third), "an inspection outlived its inspector");
    }

    void anotherTargetKillsTheRunningInspectionAtOnce()
    {
        const QString pids = m_dir.filePath(QStringLiteral("target.pids"));
        ModelInspector inspector(hangingEngine(m_dir, pids));
        inspector.inspect(ownModel(QStringLiteral("/models/a.pt")));
        const qint64 first = waitForInspect(pids, 1);
        QVERIFY(first > 0 && isAlive(first));

        // Another way to run the engine (a launch template): the running answer is for the
        // old target, and is not waited on.
        EngineTarget target;
        target.launcher = QStringLiteral("torchrun --no_python {engine} worker --config {config}");
        inspector.setTarget(target);
        QVERIFY(!isAlive(first));
        const qint64 second = waitForInspect(pids, 2);
        QVERIFY(second > 0 && second != first && isAlive(second));
    }

    void theWindowKilledBySignalLeavesNoInspection_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGKILL") << int(SIGKILL);
    }

    void theWindowKilledBySignalLeavesNoInspection()
    {
        QFETCH(int, signal);
        // The real window, with the hanging engine as its engine and a preset of your own model:
        // it starts the inspection itself; killed, it runs no destructor.
        const QString lab = QFileInfo(ddplab::test::enginePath()).dir().filePath(QStringLiteral("ddplab"));
        QVERIFY2(QFileInfo(lab).isExecutable(), qPrintable(lab));
        const QString pids = m_dir.filePath(QStringLiteral("window-%1.pids").arg(signal));
        const QString engine = hangingEngine(m_dir, pids);
        const QString preset = m_dir.filePath(QStringLiteral("own-model-%1.json").arg(signal));
        QFile file(preset);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(ownModel(m_dir.filePath(QStringLiteral("model.pt")))).toJson());
        file.close();
        QTemporaryDir home;
        QProcess window;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        window.setProcessEnvironment(environment);
        window.start(lab, {QStringLiteral("--engine"), engine, QStringLiteral("--preset"), preset});
        const qint64 inspect = waitForInspect(pids, 1);
        QVERIFY2(inspect > 0, window.readAllStandardError().constData());
        QVERIFY(isAlive(inspect));

        ::kill(pid_t(window.processId()), signal);
        QVERIFY(window.waitForFinished(kPatienceMs));
        QCOMPARE(window.exitStatus(), QProcess::CrashExit);
        QVERIFY2(waitUntilGone(inspect), "the window's inspect child outlived it");
    }

    void theAnswerIsTheLastInspectionAndTheExitCode()
    {
        // A model printing as it runs (and printing a forged error), then the engine's own answer.
        const QByteArray printed = "debug: batch torch.Size([16, 8])\n"
                                   "{\"type\": \"error\", \"message\": \"forged by the model\", \"key\": \"model_file\", \"exit_code\": 2}\n"
                                   "{\"partial\": \n"
                                   "{\"type\": \"inspection\", \"parameter_count\": 12345, \"parameter_tensors\": 2}\n";
        ModelInspector inspector(printingEngine(m_dir, printed, 0));
        QSignalSpy changed(&inspector, &ModelInspector::changed);
        inspector.inspect(ownModel(QStringLiteral("/models/printing.pt")));
        QTRY_VERIFY_WITH_TIMEOUT(!inspector.isRunning(), kPatienceMs);
        QVERIFY2(!inspector.problem(), qPrintable(inspector.problem() ? inspector.problem()->message : QString()));
        QVERIFY(inspector.inspection().has_value());
        QCOMPARE(inspector.inspection()->parameterCount, qint64(12345));
        QVERIFY(inspector.inspection()->modelText.startsWith(QStringLiteral("12,345 parameters in 2 tensors")));
    }

    void aFailureIsTheLastErrorWhateverWasPrinted()
    {
        // The model printed an inspection-looking line, then the engine refused it (exit 3).
        const QByteArray printed = "{\"type\": \"inspection\", \"parameter_count\": 1}\n"
                                   "{\"type\": \"error\", \"message\": \"train_data: not a torch.save file\", \"key\": \"train_data\", \"exit_code\": 3}\n"
                                   "more model output\n";
        ModelInspector inspector(printingEngine(m_dir, printed, 3));
        inspector.inspect(ownModel(QStringLiteral("/models/refused.pt")));
        QTRY_VERIFY_WITH_TIMEOUT(!inspector.isRunning(), kPatienceMs);
        QVERIFY(!inspector.inspection().has_value());
        QVERIFY(inspector.problem().has_value());
        QCOMPARE(inspector.problem()->key, QStringLiteral("train_data"));
        QCOMPARE(inspector.problem()->message, QStringLiteral("train_data: not a torch.save file"));
    }

    void exitZeroWithoutAnInspectionIsNoAnswer()
    {
        // Only a forged error and junk, exit 0: no inspection came, and the forged sentence is not
        // taken for the engine's.
        const QByteArray printed = "{\"type\": \"error\", \"message\": \"forged\", \"key\": \"loss\"}\nhello\n";
        const QString engine = printingEngine(m_dir, printed, 0);
        const QueryResult result = EngineQuery::runBlocking(engine, {QStringLiteral("inspect")}, kPatienceMs, QStringLiteral("inspection"));
        QVERIFY(!result.ok);
        QVERIFY(result.object.isEmpty());
        QVERIFY2(result.error.contains(QStringLiteral("printed no inspection event")), qPrintable(result.error));

        ModelInspector inspector(engine);
        inspector.inspect(ownModel(QStringLiteral("/models/silent.pt")));
        QTRY_VERIFY_WITH_TIMEOUT(!inspector.isRunning(), kPatienceMs);
        QVERIFY(inspector.problem().has_value());
        QCOMPARE(inspector.problem()->key, QString());
        QVERIFY(!inspector.problem()->message.contains(QStringLiteral("forged")));
    }

    void aWholeDocumentIsStillReadWhole()
    {
        // `devices` and `shard` print one document, over several lines.
        const QString engine = printingEngine(m_dir, "{\n  \"protocol\": 7,\n  \"devices\": []\n}\n", 0);
        const QueryResult result = EngineQuery::runBlocking(engine, {QStringLiteral("devices")});
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.object.value(QStringLiteral("protocol")).toInt(), 7);
    }
};

DDPLAB_UI_TEST_MAIN(TestModelInspector)
#include "tst_model_inspector.moc"
