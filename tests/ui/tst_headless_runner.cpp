// SPDX-License-Identifier: GPL-3.0-or-later
// `ddplab --preset NAME --run --export DIR --quit`: a lesson or preset runs with no window,
// every chart is written as PNG and SVG and every run as CSV, a summary is printed, and the
// exit code says whether it worked; also through the real ddplab binary, offscreen. --launch
// chooses the window's launch templates; hostile paths go through torchrun's as mere words.

#include "command_line.hpp"
#include "export/headless_runner.hpp"
#include "ui_test_main.hpp"

#include <QDirIterator>
#include <QImage>
#include <QRegularExpression>
#include <QSvgRenderer>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = 300000;

struct Outcome {
    int exitCode = -1;
    QString out;
    QString err;
};

Outcome runHeadless(const QStringList& arguments)
{
    const LaunchOptions options = parseLaunchOptions(QStringList{QStringLiteral("ddplab")} + arguments);
    Outcome outcome;
    QTextStream out(&outcome.out);
    QTextStream err(&outcome.err);
    if (!options.error.isEmpty()) {
        outcome.err = options.error;
        return outcome;
    }
    HeadlessRunner runner(options, out, err);
    outcome.exitCode = runner.exec();
    return outcome;
}

void writeScript(const QString& path, const QByteArray& text)
{
    QFile script(path);
    if (script.open(QIODevice::WriteOnly))
        script.write(text);
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

// Every file under `path`, hidden ones and those in hidden folders (~/.ddplab) included.
QStringList filesUnder(const QString& path)
{
    QStringList files;
    QDirIterator it(path, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next());
    return files;
}

int csvRows(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    return int(file.readAll().trimmed().split('\n').size()) - 1;
}

}  // namespace

class TestHeadlessRunner : public QObject {
    Q_OBJECT

private slots:
    void lessonRunsAndEverythingIsExported()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("export"));
        const Outcome outcome = runHeadless({QStringLiteral("--preset"), QStringLiteral("seed000-single-vs-multi"), QStringLiteral("--run"),
                                             QStringLiteral("--export"), out, QStringLiteral("--image-size"), QStringLiteral("1000x640"),
                                             QStringLiteral("--quit")});
        QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.out + outcome.err));
        // The lesson's own charts (its slides), not every chart the runs have data for.
        const QStringList charts{QStringLiteral("loss"), QStringLiteral("lr"), QStringLiteral("weight")};
        for (const QString& chart : charts) {
            const QString base = QDir(out).filePath(chart);
            // What was written and said, should the image not be there as asked.
            const QString written = QDir(out).entryList(QDir::Files).join(QLatin1Char(' '));
            QVERIFY2(QImage(base + QStringLiteral(".png")).size() == QSize(1000, 640),
                     qPrintable(chart + QStringLiteral(".png: ") + written + QLatin1Char('\n') + outcome.out + outcome.err));
            QVERIFY(QSvgRenderer(base + QStringLiteral(".svg")).isValid());
        }
        QStringList pngs = QDir(out).entryList({QStringLiteral("*.png")});
        for (QString& name : pngs)
            name.chop(4);
        QCOMPARE(pngs, charts);
        QCOMPARE(csvRows(QDir(out).filePath(QStringLiteral("01-1-gpu-x-128-lr-1e-3.csv"))), 2);
        QCOMPARE(csvRows(QDir(out).filePath(QStringLiteral("02-8-gpus-x-16-lr-1e-3.csv"))), 2);
        QVERIFY(outcome.out.contains(QStringLiteral("[1/2] 1 GPU x 128, lr 1e-3: finished, 2 steps")));
        QVERIFY(outcome.out.contains(QStringLiteral("[2/2] 8 GPUs x 16, lr 1e-3: finished, 2 steps")));
        QVERIFY(outcome.out.contains(QStringLiteral("Wrote 10 files")));  // 3 charts twice, 2 CSVs with their settings
        // The first line says how long it will take here; the summary table: a header, a rule, one
        // line per run with its final weight; the last line what it took against that estimate.
        const QStringList lines = outcome.out.trimmed().split(QLatin1Char('\n'));
        QVERIFY2(QRegularExpression(QStringLiteral("^DDP Lab: .*, about \\d+ s$")).match(lines.first()).hasMatch(), qPrintable(lines.first()));
        QVERIFY2(QRegularExpression(QStringLiteral("^The runs took \\d+\\.\\d s \\(estimated \\d+\\.\\d s, \\d+\\.\\d\\dx\\)$")).match(lines.last()).hasMatch(),
                 qPrintable(lines.last()));
        QVERIFY(lines.at(lines.size() - 6).startsWith(QStringLiteral("run ")));
        QVERIFY(lines.at(lines.size() - 5).startsWith(QStringLiteral("----")));
        QVERIFY(lines.at(lines.size() - 3).startsWith(QStringLiteral("8 GPUs x 16, lr 1e-3")));
        QVERIFY(lines.at(lines.size() - 3).contains(QStringLiteral("0.998")));
    }

    void unknownNameFailsWithAClearMessage()
    {
        const Outcome outcome = runHeadless({QStringLiteral("--preset"), QStringLiteral("no-such-lesson"), QStringLiteral("--run"),
                                             QStringLiteral("--quit")});
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY(outcome.err.contains(QStringLiteral("Unknown preset \"no-such-lesson\"")));
    }

    void aFailingRunGivesItsExitCode()
    {
        QTemporaryDir dir;
        const QString preset = dir.filePath(QStringLiteral("doomed.json"));
        QFile file(preset);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"world_size": 2, "batch_size": 4, "num_examples": 64, "fail_at": "1:2"})");
        file.close();
        const Outcome outcome = runHeadless({QStringLiteral("--preset"), preset, QStringLiteral("--run"), QStringLiteral("--quit")});
        QCOMPARE(outcome.exitCode, 4);
        QVERIFY2(outcome.out.contains(QStringLiteral("[1/1] doomed: failed, ")), qPrintable(outcome.out));
        // The engine's own sentence, naming the rank that failed.
        QVERIFY2(outcome.out.contains(QStringLiteral(" — rank 1 failed: injected failure at step 2")), qPrintable(outcome.out));
        QVERIFY(outcome.err.contains(QStringLiteral("not every run succeeded")));
    }

    void commandLineMistakesAreExplained_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("run without preset") << QStringList{QStringLiteral("--run")} << QStringLiteral("--run needs --preset");
        QTest::newRow("quit without run") << QStringList{QStringLiteral("--preset"), QStringLiteral("x"), QStringLiteral("--quit")}
                                          << QStringLiteral("needs --preset NAME --run");
        QTest::newRow("bad size") << QStringList{QStringLiteral("--image-size"), QStringLiteral("big")} << QStringLiteral("--image-size must look like");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")} << QStringLiteral("frobnicate");
        QTest::newRow("present and quit") << QStringList{QStringLiteral("--preset"), QStringLiteral("x"), QStringLiteral("--run"),
                                                         QStringLiteral("--present"), QStringLiteral("--quit")}
                                          << QStringLiteral("--present shows the window and --quit runs without one");
        QTest::newRow("unknown launch") << QStringList{QStringLiteral("--preset"), QStringLiteral("x"), QStringLiteral("--run"),
                                                       QStringLiteral("--quit"), QStringLiteral("--launch"), QStringLiteral("mpirun")}
                                        << QStringLiteral("--launch must be one of one-node, torchrun, slurm (got \"mpirun\")");
        // Each value's mistake under its own option: a bad engine path was said to be --run-on's.
        QTest::newRow("shell in remote engine") << QStringList{QStringLiteral("--run-on"), QStringLiteral("gpu1"), QStringLiteral("--remote-engine"),
                                                               QStringLiteral("ddplab-engine; rm -rf ~")}
                                                << QStringLiteral("--remote-engine: \"ddplab-engine; rm -rf ~\" is not an engine path");
        QTest::newRow("option as remote engine") << QStringList{QStringLiteral("--run-on"), QStringLiteral("gpu1"),
                                                                QStringLiteral("--remote-engine=-oProxyCommand=x")}
                                                 << QStringLiteral("--remote-engine: \"-oProxyCommand=x\" is not an engine path");
        QTest::newRow("shell in host") << QStringList{QStringLiteral("--run-on"), QStringLiteral("gpu1;reboot"), QStringLiteral("--remote-engine"),
                                                      QStringLiteral("/opt/ddplab-engine")}
                                       << QStringLiteral("--run-on: \"gpu1;reboot\" is not a host");
    }
    void commandLineMistakesAreExplained()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const LaunchOptions options = parseLaunchOptions(QStringList{QStringLiteral("ddplab")} + arguments);
        QVERIFY2(options.error.contains(expected), qPrintable(options.error));
    }

    void launchChoosesATemplate_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("templateIndex");
        QTest::addColumn<QString>("host");
        QTest::newRow("default") << QStringList{} << 0 << QString();
        QTest::newRow("one-node") << QStringList{QStringLiteral("--launch"), QStringLiteral("one-node")} << 0 << QString();
        QTest::newRow("torchrun here") << QStringList{QStringLiteral("--launch"), QStringLiteral("torchrun")} << 1 << QString();
        QTest::newRow("slurm there") << QStringList{QStringLiteral("--run-on"), QStringLiteral("me@login1"), QStringLiteral("--launch"),
                                                    QStringLiteral("slurm")}
                                     << 2 << QStringLiteral("me@login1");
    }

    void launchChoosesATemplate()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, templateIndex);
        QFETCH(QString, host);
        const LaunchOptions options = parseLaunchOptions(QStringList{QStringLiteral("ddplab"), QStringLiteral("--preset"), QStringLiteral("x"),
                                                                     QStringLiteral("--run"), QStringLiteral("--quit")} +
                                                         arguments);
        QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
        const LaunchTemplate& chosen = launchTemplates().at(templateIndex);
        QCOMPARE(options.runOn.host, host);
        QCOMPARE(options.runOn.launcher, chosen.command);
        QCOMPARE(options.runOn.runDirectory, chosen.runDirectory);
        // What `ddplab-engine runs` is then given.
        const QStringList runs = runsArguments(options.runOn);
        QCOMPARE(runs.contains(QStringLiteral("--launcher")), templateIndex != 0);
        if (templateIndex == 2)
            QCOMPARE(runs.mid(runs.indexOf(QStringLiteral("--run-dir")) + 1, 1), QStringList{QStringLiteral("~/.ddplab/runs")});
        QVERIFY(options.helpText.contains(QStringLiteral("--launch <TEMPLATE>")));
    }

    void hostilePathsThroughTheTemplatesAreOnlyWords_data()
    {
        QTest::addColumn<QString>("launch");
        QTest::addColumn<QString>("launcher");
        QTest::newRow("torchrun") << QStringLiteral("torchrun") << QStringLiteral("torchrun ");
        QTest::newRow("slurm") << QStringLiteral("slurm") << QStringLiteral("srun ");
    }

    void hostilePathsThroughTheTemplatesAreOnlyWords()
    {
        // A launch template is run by sh: the engine's path ({engine}) and the run's config
        // ({config}: the run's folder in the lab's store, or over SSH under TMPDIR or, for Slurm,
        // ~/.ddplab/runs: those hostile too) are put in it. Folders
        // named to break out of quotes, to run commands ($(...), backticks, ;), across a line and
        // starting with "-" must reach the launcher and the engine as the words they are, and
        // nothing in them may be run.
        QFETCH(QString, launch);
        QFETCH(QString, launcher);
        if (launch == QStringLiteral("torchrun") && !QFileInfo(QStringLiteral("/usr/bin/torchrun")).isExecutable())
            QSKIP("no torchrun here (Debian's python3-torch has it)");
        const QString ddplab = QFileInfo(ddplab::test::enginePath()).dir().filePath(QStringLiteral("ddplab"));
        QTemporaryDir dir;
        const QString hostile = QStringLiteral("-it's \"q\" $(touch pwned-subst) `touch pwned-tick`; touch pwned-semi\n-x ");
        for (const char* folder : {"engine/", "tmp/", "home/", "data/", "work", "bin"})
            QVERIFY(QDir(dir.path()).mkpath(QLatin1String(folder) + (QLatin1String(folder).endsWith(QLatin1Char('/')) ? hostile : QString())));
        // A copy, not a link: the engine names itself by /proc/self/exe, which a link would resolve.
        const QString engine = dir.filePath(QStringLiteral("engine/") + hostile + QStringLiteral("/ddplab-engine"));
        QVERIFY(QFile::copy(ddplab::test::enginePath(), engine));
        QVERIFY(QFile::setPermissions(engine, QFile::ReadOwner | QFile::ExeOwner));
        // Slurm on one node, one task, without Slurm: srun's options skipped, the task run with
        // the variables srun gives it; scontrol names this node.
        writeScript(dir.filePath(QStringLiteral("bin/srun")),
                    "#!/bin/sh\n"
                    "while [ $# -gt 0 ]; do case \"$1\" in --ntasks|--gpus-per-task) shift 2;; --*) shift;; *) break;; esac; done\n"
                    "export SLURM_JOB_ID=4242 SLURM_JOB_NODELIST=localhost SLURM_PROCID=0 SLURM_NTASKS=1 SLURM_LOCALID=0 SLURM_NODEID=0 "
                    "SLURM_TASKS_PER_NODE=1\n"
                    "exec \"$@\"\n");
        writeScript(dir.filePath(QStringLiteral("bin/scontrol")), "#!/bin/sh\necho localhost\n");
        const QString preset = dir.filePath(QStringLiteral("work/hostile.json"));
        QFile file(preset);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(launch == QStringLiteral("slurm")
                       ? R"({"workload": "toy", "world_size": 1, "batch_size": 8, "num_examples": 64, "experiments": 4, "epochs": 1})"
                       : R"({"workload": "toy", "world_size": 2, "batch_size": 4, "num_examples": 64, "experiments": 4, "epochs": 1})");
        file.close();

        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("TMPDIR"), dir.filePath(QStringLiteral("tmp/") + hostile));
        environment.insert(QStringLiteral("HOME"), dir.filePath(QStringLiteral("home/") + hostile));
        environment.insert(QStringLiteral("PATH"), dir.filePath(QStringLiteral("bin:")) + environment.value(QStringLiteral("PATH")));
        environment.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data/") + hostile));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(dir.filePath(QStringLiteral("work")));
        process.start(ddplab, {QStringLiteral("--engine"), engine, QStringLiteral("--preset"), preset, QStringLiteral("--run"),
                               QStringLiteral("--quit"), QStringLiteral("--launch"), launch});
        QVERIFY(process.waitForFinished(kPatienceMs));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0, qPrintable(out + QString::fromUtf8(process.readAllStandardError())));
        QVERIFY2(out.contains(QStringLiteral("[1/1] hostile: finished, 8 steps")), qPrintable(out));  // 64 / (ranks x batch) x 1 epoch

        // The template started it (not the built-in launcher), with the engine's and the
        // config's hostile paths each one single-quoted word of sh's command.
        const QStringList files = filesUnder(dir.path());
        const QStringList logs = files.filter(QRegularExpression(QStringLiteral("/runs/[^/]+/stderr\\.log$")));  // not torchrun's own
        QVERIFY2(logs.size() == 1, qPrintable(files.join(QStringLiteral(" | "))));
        QFile log(logs.first());
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QString said = QString::fromUtf8(log.readAll());
        const auto word = [](QString path) { return QLatin1Char('\'') + path.replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QLatin1Char('\''); };
        const QString config = QFileInfo(logs.first()).dir().filePath(QStringLiteral("config.json"));
        QVERIFY2(config.contains(hostile), qPrintable(config));
        QVERIFY2(said.contains(QStringLiteral("launching: ") + launcher), qPrintable(said));
        QVERIFY2(said.contains(word(engine) + QStringLiteral(" worker --config ") + word(config)) ||
                     said.contains(word(engine) + QLatin1Char(' ') + word(config)),
                 qPrintable(said));
        // The stored run has its events, written by the template's rank 0 (DDPLAB_RUN_EVENTS).
        QFile events(QFileInfo(logs.first()).dir().filePath(QStringLiteral("events.jsonl")));
        QVERIFY2(events.open(QIODevice::ReadOnly), qPrintable(events.fileName()));
        const QByteArray stored = events.readAll();
        QCOMPARE(stored.count("\"type\":\"step\""), 8);
        QVERIFY2(stored.trimmed().endsWith("}") && stored.contains("\"type\":\"summary\""), stored.right(300).constData());
        // Nothing of the names was run, anywhere sh could have run it.
        QStringList ran;
        for (const QString& file : files) {
            if (QFileInfo(file).fileName().startsWith(QStringLiteral("pwned")))
                ran.append(file);
        }
        QVERIFY2(ran.isEmpty(), qPrintable(ran.join(QStringLiteral(" | "))));
    }

    // --slides: 1920 x 1080 with the lesson's title and each run's settings in the image.
    void slidesCarryTheLessonAndTheRunsSettings()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("slides"));
        const Outcome outcome = runHeadless({QStringLiteral("--preset"), QStringLiteral("seed000-linear-rule"), QStringLiteral("--run"),
                                             QStringLiteral("--export"), out, QStringLiteral("--slides"), QStringLiteral("--quit")});
        QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.out + outcome.err));
        QCOMPARE(QImage(QDir(out).filePath(QStringLiteral("weight.png"))).size(), QSize(1920, 1080));
        QFile svg(QDir(out).filePath(QStringLiteral("weight.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(svg.readAll());
        QVERIFY2(text.contains(QStringLiteral("Tuned at 16 on 1 GPU: the linear rule on 8")), "no lesson title in the slide");
        QVERIFY2(text.contains(QStringLiteral("8 × 16 · lr 0.008")), "no run settings in the slide");
        QVERIFY(text.contains(QStringLiteral("1 × 16 · lr 0.001")));
        QVERIFY(!QFileInfo::exists(QDir(out).filePath(QStringLiteral("throughput.png"))));  // not a chart of the lesson
    }

    void theRealBinaryRunsHeadlessOffscreen()
    {
        const QString ddplab = QFileInfo(ddplab::test::enginePath()).dir().filePath(QStringLiteral("ddplab"));
        QVERIFY2(QFileInfo(ddplab).isExecutable(), qPrintable(ddplab));
        QTemporaryDir dir;
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(environment);
        process.start(ddplab, {QStringLiteral("--preset"), QStringLiteral("seed004-sgd-scaling"), QStringLiteral("--run"),
                               QStringLiteral("--export"), dir.path(), QStringLiteral("--quit")});
        QVERIFY(process.waitForFinished(kPatienceMs));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0, qPrintable(out + QString::fromUtf8(process.readAllStandardError())));
        QCOMPARE(QImage(dir.filePath(QStringLiteral("loss.png"))).size(), QSize(1200, 800));
        QCOMPARE(csvRows(dir.filePath(QStringLiteral("01-1-process-x-10-sgd-lr-1.csv"))), 30);  // 100 / 10 x 3 epochs
        QVERIFY(out.contains(QStringLiteral("[3/3]")));

        QProcess unknown;
        unknown.setProcessEnvironment(environment);
        unknown.start(ddplab, {QStringLiteral("--preset"), QStringLiteral("nope"), QStringLiteral("--run"), QStringLiteral("--quit")});
        QVERIFY(unknown.waitForFinished(kPatienceMs));
        QCOMPARE(unknown.exitCode(), 2);
        QVERIFY(unknown.readAllStandardError().contains("Unknown preset \"nope\""));
    }

    void aHomeThatIsNoneIsRefused_data()
    {
        QTest::addColumn<QString>("home");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QString() << QStringLiteral("HOME is empty");
        QTest::newRow("no folder") << QStringLiteral("/nonexistent/home") << QStringLiteral("HOME (\"/nonexistent/home\") is no folder");
        QTest::newRow("relative") << QStringLiteral("home") << QStringLiteral("HOME (\"home\") is not an absolute path");
    }

    void aHomeThatIsNoneIsRefused()
    {
        // The lab wrote under /.local (HOME empty) or created the folder HOME named.
        QFETCH(QString, home);
        QFETCH(QString, expected);
        const QString ddplab = QFileInfo(ddplab::test::enginePath()).dir().filePath(QStringLiteral("ddplab"));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("HOME"), home);
        environment.remove(QStringLiteral("XDG_DATA_HOME"));
        environment.remove(QStringLiteral("XDG_CONFIG_HOME"));
        QProcess process;
        process.setProcessEnvironment(environment);
        process.start(ddplab, {QStringLiteral("--preset"), QStringLiteral("first-run"), QStringLiteral("--run"), QStringLiteral("--quit")});
        QVERIFY(process.waitForFinished(kPatienceMs));
        QCOMPARE(process.exitCode(), 2);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.startsWith(QStringLiteral("ddplab: ") + expected + QStringLiteral(", and the lab keeps its runs")), qPrintable(err));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/nonexistent/home")));

        // With its folders named instead, it goes on (here to the unknown preset's own message).
        QTemporaryDir dir;
        environment.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(environment);
        process.start(ddplab, {QStringLiteral("--preset"), QStringLiteral("nope"), QStringLiteral("--run"), QStringLiteral("--quit")});
        QVERIFY(process.waitForFinished(kPatienceMs));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(process.readAllStandardError().contains("Unknown preset \"nope\""));
    }
};

DDPLAB_UI_TEST_MAIN(TestHeadlessRunner)
#include "tst_headless_runner.moc"
