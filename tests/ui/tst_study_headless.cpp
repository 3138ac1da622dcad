// SPDX-License-Identifier: GPL-3.0-or-later
// Studies through the real `ddplab` binary, offscreen, as a script would run them: the seed 000
// curve end to end (its three slopes fitted from what the engine measured), issue 19's study
// whose findings must carry their cautions (and whose noise scale is never negative), a study
// killed mid-way and resumed (only the missing points run, none twice), a study over your own
// model files and data files, bad studies refused with exit code 2 before anything starts;
// issue 22's known answer (at one learning rate, steps to a noise-free target never fall as the
// batch shrinks, and McCandlish's fit lands near the measured B_simple) and its four built-in
// studies run at a reduced size.

#include "client/runs/run_record.hpp"
#include "client/runs/run_store.hpp"
#include "client/study/own_model_steps.hpp"
#include "client/study/study_estimate.hpp"
#include "client/study/study_file.hpp"
#include "client/study/study_library.hpp"
#include "client/study/study_plan.hpp"
#include "support/prerequisites.hpp"
#include "headless_lab.hpp"
#include "ui_test_main.hpp"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>

#include <QProcess>
#include <QRegularExpression>

#include <csignal>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = ddplab::test::kLabPatienceMs;

using ddplab::test::labEnvironment;
using ddplab::test::ddplabPath;
using ddplab::test::runLab;
using Outcome = ddplab::test::LabOutcome;

QString writeStudy(const QString& folder, const QString& name, const QByteArray& json)
{
    const QString path = folder + QLatin1Char('/') + name;
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(json);
    return path;
}

// study.csv's rows as column -> value.
QList<QHash<QString, QString>> csvRows(const QString& path)
{
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    const QList<QByteArray> header = lines.value(0).split(',');
    QList<QHash<QString, QString>> rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> cells = lines[i].split(',');
        QHash<QString, QString> row;
        for (qsizetype c = 0; c < header.size() && c < cells.size(); ++c)
            row.insert(QString::fromUtf8(header[c]), QString::fromUtf8(cells[c]));
        rows.append(row);
    }
    return rows;
}

// A built-in study at a reduced size: each axis's first two values, one repeat, short runs.
QByteArray reducedStudy(const StudySpec& study)
{
    QJsonObject json = study.toJson();
    QJsonArray axes;
    for (const QJsonValue& value : json.value(QStringLiteral("axes")).toArray()) {
        QJsonObject axis = value.toObject();
        const QJsonArray values = axis.value(QStringLiteral("values")).toArray();
        axis.insert(QStringLiteral("values"), QJsonArray{values.at(0), values.at(1)});
        axes.append(axis);
    }
    json.insert(QStringLiteral("axes"), axes);
    json.insert(QStringLiteral("repeats"), 1);
    QJsonObject base = json.value(QStringLiteral("base")).toObject();
    base.insert(QStringLiteral("epochs"), 1);
    if (base.value(QStringLiteral("workload")).toString() == QStringLiteral("fashion_mnist"))
        base.insert(QStringLiteral("train_subset"), 1024);
    json.insert(QStringLiteral("base"), base);
    return QJsonDocument(json).toJson();
}

QString labData(const QString& home)
{
    return home + QStringLiteral("/data/ddplab/ddplab");
}

}  // namespace

class TestStudyHeadless : public QObject {
    Q_OBJECT

    // tests/tools/make_own_model_case.py's models and data, made once for the cases that study
    // them (Python with LibTorch takes seconds to write them) and only read by those studies.
    QTemporaryDir m_models;
    QString m_modelsNotMade = QStringLiteral("not made yet");

    QString ownModels()
    {
        if (!m_modelsNotMade.isEmpty())
            m_modelsNotMade = ddplab::test::makeOwnModelCase(m_models.path());
        return m_modelsNotMade;
    }

private slots:
    void seed000CurveHasTheThreeSlopes()
    {
        QTemporaryDir home;
        const QString out = home.filePath(QStringLiteral("export"));
        const Outcome outcome = runLab(home.path(), {QStringLiteral("--study"), QStringLiteral("seed000-variance-curve"),
                                                     QStringLiteral("--export"), out, QStringLiteral("--quit")});
        QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.out + outcome.err));
        QVERIFY(outcome.out.contains(QStringLiteral("[21/21]")));
        QFile findings(out + QStringLiteral("/findings.txt"));
        QVERIFY(findings.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(findings.readAll());
        // Var(update) = lr^2 sigma^2 B^(2p - 1): slopes -1, +1 and 0 on log-log axes.
        const QList<QPair<QString, double>> expected{{QStringLiteral("none"), -1.0}, {QStringLiteral("linear"), 1.0}, {QStringLiteral("sqrt"), 0.0}};
        for (const auto& [rule, slope] : expected) {
            // Findings name the axis by Setup's label ("LR rule"), not its key.
            const QRegularExpression line(QStringLiteral("LR rule %1: log-log slope (\\S+)").arg(rule));
            const QRegularExpressionMatch match = line.match(text);
            QVERIFY2(match.hasMatch(), qPrintable(text));
            const double measured = match.captured(1).toDouble();
            QVERIFY2(std::abs(measured - slope) <= 0.15, qPrintable(QStringLiteral("%1: %2").arg(rule).arg(measured)));
        }
        QFile csv(out + QStringLiteral("/study.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().trimmed().split('\n').size(), 22);  // the header and 21 runs
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/figure-vs-effective_batch.svg")));
    }

    void issue19sStudyWarnsAndHasNoNegativeNoiseScale()
    {
        // Batches 16, 64, 256 x LR 0.001 to 0.016 on the toy problem, target loss <= 1.2: the
        // top LR is best everywhere and the fitted critical batch (0.005) lies far below the
        // batches studied. Its findings printed both as laws; its study.csv held B_simple -9748.
        QTemporaryDir home;
        const QString out = home.filePath(QStringLiteral("export"));
        const Outcome outcome = runLab(home.path(), {QStringLiteral("--study"), QStringLiteral(DDPLAB_SOURCE_DIR "/tests/ui/data/toy-grid-study.json"),
                                                     QStringLiteral("--export"), out, QStringLiteral("--quit")});
        QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.out + outcome.err));
        QFile findings(out + QStringLiteral("/findings.txt"));
        QVERIFY(findings.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(findings.readAll());
        const QRegularExpression critical(QStringLiteral("critical batch (\\S+) from the fit.*\\[caution: extrapolated, not measured: it lies "
                                                         "below the effective batches 16 to 256"));
        const QRegularExpressionMatch match = critical.match(text);
        QVERIFY2(match.hasMatch(), qPrintable(text));
        QVERIFY(match.captured(1).toDouble() < 16);
        QVERIFY2(text.contains(QStringLiteral("the best learning rate grows as batch^0  [caution: at the edge of the grid: the largest lr "
                                              "tried was the best at effective batch 16, 64 and 256")),
                 qPrintable(text));
        QVERIFY(outcome.out.contains(QStringLiteral("[caution: extrapolated")));  // the same lines on stdout
        QFile csv(out + QStringLiteral("/study.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 10);
        const qsizetype column = rows.first().split(',').indexOf("noise_scale");
        QVERIFY(column > 0);
        int measured = 0;
        for (const QByteArray& row : rows.mid(1)) {
            const QByteArray cell = row.split(',').at(column);
            // An empty cell: not measurable at the end of that run; never a negative batch.
            QVERIFY2(cell.isEmpty() || cell.toDouble() >= 0, row.constData());
            measured += cell.isEmpty() ? 0 : 1;
        }
        QVERIFY(measured >= 5);
    }

    void aKilledStudyResumesWithOnlyTheMissingRuns()
    {
        QTemporaryDir home;
        const QString file = writeStudy(home.path(), QStringLiteral("resume.json"), R"({
            "id": "resume-test", "title": "resume",
            "base": {"workload": "toy", "num_examples": 256, "experiments": 100, "batch_size": 16, "epochs": 2, "noise": 1},
            "axes": [{"key": "world_size", "values": [1, 2]}, {"key": "lr", "values": [0.001, 0.002, 0.004, 0.008]}]})");
        QProcess first;
        first.setProcessEnvironment(labEnvironment(home.path()));
        first.start(ddplabPath(), {QStringLiteral("--study"), file, QStringLiteral("--quit")});
        QString printed;
        // Killed outright once three runs have ended: no chance to tidy up.
        while (printed.count(QStringLiteral("finished")) < 3 && first.state() != QProcess::NotRunning) {
            first.waitForReadyRead(1000);
            printed += QString::fromUtf8(first.readAllStandardOutput());
        }
        QVERIFY2(printed.count(QStringLiteral("finished")) >= 3, qPrintable(printed));
        // "…, stored in FOLDER, about N s": the folder ends at the comma before the estimate.
        const QRegularExpression storedIn(QStringLiteral("stored in (\\S+), about "));
        const QString folder = storedIn.match(printed).captured(1);
        QVERIFY2(QFileInfo(folder).isDir(), qPrintable(printed));

        // A second runner of the same study while the first runs is refused, naming the first:
        // two resumes at once ran points 3-11 twice each.
        const Outcome second = runLab(home.path(), {QStringLiteral("--resume"), folder, QStringLiteral("--quit")});
        QCOMPARE(second.exitCode, 2);
        // ddplab handed the study to ddplab-headless in the same process (exec): that is the holder.
        const QString holder = QStringLiteral("is being run by another ddplab-headless (process %1 on ").arg(first.processId());
        QVERIFY2(second.err.contains(holder), qPrintable(second.err));
        QVERIFY2(!second.out.contains(QStringLiteral("[1/8]")), qPrintable(second.out));
        QVERIFY(first.state() == QProcess::Running);

        ::kill(pid_t(first.processId()), SIGKILL);
        first.waitForFinished(kPatienceMs);

        const RunStore store(labData(home.path()) + QStringLiteral("/runs"));
        QHash<int, int> finishedBefore;
        for (const RunRecord& run : store.listRuns()) {
            if (run.status == RunStatus::Finished)
                ++finishedBefore[run.studyPoint];
        }
        QVERIFY(finishedBefore.size() >= 3 && finishedBefore.size() < 8);

        // Its lock is left behind with it; a dead holder's lock is taken over.
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/runner.lock")));
        const Outcome resumed = runLab(home.path(), {QStringLiteral("--resume"), folder, QStringLiteral("--quit")});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.out + resumed.err));
        QVERIFY2(resumed.out.contains(QStringLiteral("[8/8]")), qPrintable(resumed.out));
        QHash<int, int> finishedAfter;
        for (const RunRecord& run : store.listRuns()) {
            if (run.status != RunStatus::Finished)
                continue;
            ++finishedAfter[run.studyPoint];
            // Its training steps' seconds kept apart from its evaluations' (the summary's train_s):
            // what the estimator measures this machine's steps by.
            QVERIFY2(run.stepsSeconds > 0 && run.stepsSeconds <= run.trainSeconds,
                     qPrintable(QStringLiteral("%1: steps %2 s of %3 s").arg(run.id).arg(run.stepsSeconds).arg(run.trainSeconds)));
        }
        QCOMPARE(finishedAfter.size(), 8);
        for (auto point = finishedAfter.begin(); point != finishedAfter.end(); ++point)
            QVERIFY2(point.value() == 1, qPrintable(QStringLiteral("point %1 finished %2 times").arg(point.key()).arg(point.value())));
        // Resuming a finished study runs nothing.
        const Outcome again = runLab(home.path(), {QStringLiteral("--resume"), folder, QStringLiteral("--quit")});
        QCOMPARE(again.exitCode, 0);
        QVERIFY(again.out.contains(QStringLiteral("finished already")));
    }

    void aStudyOverModelFilesAndDataSets()
    {
        // Your own models (workload torchscript): two architectures, each on the same data saved
        // two ways (a torch.save file, a folder of .npy files).
        QTemporaryDir home;
        const QString notMade = ownModels();
        QVERIFY2(notMade.isEmpty(), qPrintable(notMade));
        const QString models = m_models.path();
        const QString file = writeStudy(home.path(), QStringLiteral("models.json"), QStringLiteral(R"({
            "id": "two-models", "title": "two models, two data files",
            "base": {"workload": "torchscript", "val_data": "%1/val.pt", "batch_size": 16, "epochs": 2, "lr": 0.05,
                     "momentum": 0.9, "threads": 1},
            "axes": [{"key": "model_file", "values": ["%1/bn_cnn.pt", "%1/mlp.pt"]},
                     {"key": "train_data", "values": ["%1/train.pt", "%1/train_npy"]}],
            "show": {"figure": "val_loss"}})").arg(models).toUtf8());
        const QString out = home.filePath(QStringLiteral("export"));
        const Outcome outcome = runLab(home.path(), {QStringLiteral("--study"), file, QStringLiteral("--export"), out, QStringLiteral("--quit")});
        QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.out + outcome.err));
        QVERIFY(outcome.out.contains(QStringLiteral("[4/4]")));

        QFile csv(out + QStringLiteral("/study.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 5);
        const QList<QByteArray> header = rows.first().split(',');
        const qsizetype model = header.indexOf("model_file"), data = header.indexOf("train_data");
        const qsizetype status = header.indexOf("status"), valLoss = header.indexOf("val_loss");
        QVERIFY(model >= 0 && data >= 0 && status >= 0 && valLoss >= 0);
        QHash<QString, double> lossOf;  // "model|data" -> val_loss
        for (const QByteArray& row : rows.mid(1)) {
            const QList<QByteArray> cells = row.split(',');
            QCOMPARE(cells[status], QByteArray("finished"));
            lossOf.insert(QFileInfo(QString::fromUtf8(cells[model])).fileName() + QLatin1Char('|') +
                              QFileInfo(QString::fromUtf8(cells[data])).fileName(), cells[valLoss].toDouble());
        }
        QCOMPARE(lossOf.size(), 4);
        for (const QString& name : {QStringLiteral("bn_cnn.pt"), QStringLiteral("mlp.pt")}) {
            // The same numbers read from either file train the same model to the same loss.
            QCOMPARE(lossOf.value(name + QStringLiteral("|train_npy")), lossOf.value(name + QStringLiteral("|train.pt")));
        }
        // The two architectures learn differently.
        QVERIFY(lossOf.value(QStringLiteral("bn_cnn.pt|train.pt")) != lossOf.value(QStringLiteral("mlp.pt|train.pt")));
    }

    // A study of your own models is estimated from a training step the engine times for each
    // model (issue 28 §4: a constant for "a CNN" was 20-100x off for torchscript studies): both
    // models are measured, the estimate uses their seconds per sample, and it lands within 3x of
    // the time the study then takes.
    void aStudyOfYourOwnModelsIsEstimatedFromATimedStep()
    {
        QTemporaryDir home;
        const QString notMade = ownModels();
        QVERIFY2(notMade.isEmpty(), qPrintable(notMade));
        const QString models = m_models.path();
        const QString file = writeStudy(home.path(), QStringLiteral("timed.json"), QStringLiteral(R"({
            "id": "timed-models", "title": "two models, timed",
            "base": {"workload": "torchscript", "train_data": "%1/train.pt", "batch_size": 10, "epochs": 30, "lr": 0.05,
                     "momentum": 0.9},
            "axes": [{"key": "model_file", "values": ["%1/bn_cnn.pt", "%1/mlp.pt"]}]})").arg(models).toUtf8());
        const StudyReadResult read = readStudyFile(file);
        QVERIFY2(read.spec, qPrintable(read.error));
        const StudyPlan plan = planStudy(*read.spec);
        QCOMPARE(plan.points.size(), 2);

        OwnModelSteps steps(ddplab::test::enginePath());
        steps.measure(plan);
        QTRY_VERIFY_WITH_TIMEOUT(!steps.isMeasuring(), kPatienceMs);
        QCOMPARE(steps.steps().size(), 2);
        for (const StudyPoint& point : plan.points) {
            const MeasuredModel measured = steps.steps().value(measuredStepKey(point.config));
            QVERIFY2(measured.secondsPerSample > 0 && measured.secondsPerSample < 1.0, qPrintable(measuredStepKey(point.config)));
            QCOMPARE(measured.trainSamples, qint64(100));  // the data's real size, not a guess
            QCOMPARE(measured.valSamples, qint64(0));
        }
        const double estimate = estimatedSeconds(plan, 1.0, steps.steps());
        QVERIFY(estimate != estimatedSeconds(plan, 1.0));  // the measured steps replace the constant

        QElapsedTimer clock;
        clock.start();
        const Outcome outcome = runLab(home.path(), {QStringLiteral("--study"), file, QStringLiteral("--export"), home.filePath(QStringLiteral("out")),
                                                     QStringLiteral("--quit")});
        const double took = clock.elapsed() / 1000.0;
        QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.out + outcome.err));
        qInfo("estimated %.1f s from the timed steps (%.1f s from the constants), took %.1f s", estimate, estimatedSeconds(plan, 1.0), took);
        QVERIFY2(estimate > took / 3.0 && estimate < took * 3.0, qPrintable(QStringLiteral("estimated %1 s, took %2 s").arg(estimate).arg(took)));
    }

    // Issue 22's known answer, through the engine: linreg at one learning rate (20), the target
    // judged on the exact training-set loss. A smaller batch never gets there in fewer steps
    // (within the repeats' standard errors; batch 8 never does: its noise floor lies above the
    // target), and McCandlish's fit lands within a factor of 3 of the B_simple the engine
    // measured when the runs met the target (measured: 11.9 against 12.3).
    void stepsToANoiseFreeTargetNeverFallAsTheBatchShrinks()
    {
        QTemporaryDir home;
        const QString out = home.filePath(QStringLiteral("export"));
        const Outcome outcome = runLab(home.path(), {QStringLiteral("--study"), QStringLiteral(DDPLAB_SOURCE_DIR "/tests/ui/data/linreg-fixed-lr-study.json"),
                                                     QStringLiteral("--export"), out, QStringLiteral("--quit")});
        QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.out + outcome.err));
        QMap<int, QList<double>> steps;  // by batch; never reached: infinite
        for (const QHash<QString, QString>& row : csvRows(out + QStringLiteral("/study.csv"))) {
            const QString reached = row.value(QStringLiteral("steps_to_target"));
            steps[row.value(QStringLiteral("effective_batch")).toInt()].append(reached.isEmpty() ? qInf() : reached.toDouble());
        }
        QCOMPARE(steps.size(), 6);
        const auto meanAndError = [](const QList<double>& values) {
            double mean = 0.0, squares = 0.0;
            for (double value : values)
                mean += value / values.size();
            for (double value : values)
                squares += (value - mean) * (value - mean);
            return std::pair{mean, std::isfinite(mean) ? std::sqrt(squares / (values.size() - 1) / values.size()) : 0.0};
        };
        int reachedBatches = 0;
        for (auto larger = std::next(steps.begin()); larger != steps.end(); ++larger) {
            const auto [small, smallError] = meanAndError(std::prev(larger).value());
            const auto [large, largeError] = meanAndError(larger.value());
            QVERIFY2(small + smallError + largeError >= large,
                     qPrintable(QStringLiteral("batch %1: %2 steps, batch %3: %4").arg(std::prev(larger).key()).arg(small).arg(larger.key()).arg(large)));
            reachedBatches += std::isfinite(large) ? 1 : 0;
        }
        QVERIFY(reachedBatches >= 4);
        QFile findings(out + QStringLiteral("/findings.txt"));
        QVERIFY(findings.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(findings.readAll());
        const QRegularExpressionMatch fit =
            QRegularExpression(QStringLiteral("critical batch (\\S+) from the fit .*B_simple measured at the target (\\S+), a ratio")).match(text);
        QVERIFY2(fit.hasMatch(), qPrintable(text));
        const double ratio = fit.captured(1).toDouble() / fit.captured(2).toDouble();
        QVERIFY2(ratio > 1.0 / 3.0 && ratio < 3.0, qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("(Zhang et al. 2024)")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("judged on")), qPrintable(text));  // no noisy-measure caution
    }

    // Issue 22's built-in studies plan as described and run end to end at a reduced size, with
    // the charts each one is for.
    void issue22sStudiesRunAtAReducedSize_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("planned");
        QTest::addColumn<QStringList>("charts");
        QTest::newRow("adam-sde-growing-batch") << QStringLiteral("adam-sde-growing-batch") << 16
                                                << QStringList{QStringLiteral("curves-lr_rule-none"), QStringLiteral("curves-lr_rule-sqrt"),
                                                               QStringLiteral("figure-vs-effective_batch")};
        QTest::newRow("adamw-timescale") << QStringLiteral("adamw-timescale") << 12
                                         << QStringList{QStringLiteral("figure-vs-weight_decay_timescale_epochs"), QStringLiteral("best-weight_decay")};
        QTest::newRow("adam-surge") << QStringLiteral("adam-surge") << 7 * 2 * 23
                                    << QStringList{QStringLiteral("best-lr"), QStringLiteral("steps-to-target")};
        QTest::newRow("adam-bsi-vs-adam") << QStringLiteral("adam-bsi-vs-adam") << 6
                                          << QStringList{QStringLiteral("curves-optimizer-adam"), QStringLiteral("curves-optimizer-adam_bsi")};
    }

    void issue22sStudiesRunAtAReducedSize()
    {
        QFETCH(QString, id);
        QFETCH(int, planned);
        QFETCH(QStringList, charts);
        const StudyLibrary library = StudyLibrary::load();
        const StudySpec* study = library.find(id);
        QVERIFY2(study, qPrintable(id));
        QCOMPARE(planStudy(*study).points.size(), planned);
        QTemporaryDir home;
        const QString file = writeStudy(home.path(), id + QStringLiteral(".json"), reducedStudy(*study));
        const QString out = home.filePath(QStringLiteral("export"));
        const Outcome outcome = runLab(home.path(), {QStringLiteral("--study"), file, QStringLiteral("--export"), out, QStringLiteral("--quit")});
        QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.out + outcome.err));
        const QList<QHash<QString, QString>> rows = csvRows(out + QStringLiteral("/study.csv"));
        QCOMPARE(rows.size(), planStudy(*readStudyFile(file).spec).points.size());
        for (const QHash<QString, QString>& row : rows)
            QVERIFY2(row.value(QStringLiteral("status")) == QStringLiteral("finished"), qPrintable(outcome.out));
        for (const QString& chart : charts)
            QVERIFY2(QFileInfo::exists(out + QLatin1Char('/') + chart + QStringLiteral(".png")), qPrintable(chart + QLatin1Char('\n') + outcome.out));
    }

    void badStudiesAreRefusedBeforeAnythingStarts_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown key") << QByteArray(R"({"id": "a", "base": {}, "axes": [{"key": "batchsize", "values": [1, 2]}]})")
                                     << QStringList() << QStringLiteral("batchsize");
        QTest::newRow("empty axis") << QByteArray(R"({"id": "a", "base": {}, "axes": [{"key": "lr", "values": []}]})") << QStringList()
                                    << QStringLiteral("lr");
        QTest::newRow("refused value") << QByteArray(R"({"id": "a", "base": {}, "axes": [{"key": "world_size", "values": [1, 0]}]})")
                                       << QStringList() << QStringLiteral("world_size");
        QTest::newRow("not json") << QByteArray("{\"id\": ") << QStringList() << QStringLiteral("bad.json");
        QTest::newRow("over 500 runs without --yes")
            << QByteArray(R"({"id": "a", "base": {}, "axes": [{"key": "seed", "from": 0, "to": 600, "step": 1}]})") << QStringList()
            << QStringLiteral("--yes");
    }

    void badStudiesAreRefusedBeforeAnythingStarts()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, extra);
        QFETCH(QString, expected);
        QTemporaryDir home;
        const QString file = writeStudy(home.path(), QStringLiteral("bad.json"), json);
        const Outcome outcome = runLab(home.path(), QStringList{QStringLiteral("--study"), file, QStringLiteral("--quit")} + extra);
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY2(outcome.err.contains(expected), qPrintable(outcome.err));
        QVERIFY(!QFileInfo::exists(labData(home.path()) + QStringLiteral("/runs")) ||
                QDir(labData(home.path()) + QStringLiteral("/runs")).isEmpty(QDir::Dirs | QDir::NoDotAndDotDot));
        QVERIFY(!QFileInfo::exists(labData(home.path()) + QStringLiteral("/studies")) ||
                QDir(labData(home.path()) + QStringLiteral("/studies")).isEmpty(QDir::Dirs | QDir::NoDotAndDotDot));
    }
};

DDPLAB_UI_TEST_MAIN(TestStudyHeadless)
#include "tst_study_headless.moc"
