// `ddplab --advise ... --export DIR --quit` on linreg, as a person runs it: advice.json holds
// every field the issue names, consistent with itself and with the runs it lists; the
// recommended LR's loss at the recommended batch and horizon lies within 10 % of the best of a
// 7-point LR grid (2 seeds) run here at the same batch and samples; bad input gets one sentence
// and exit code 2.

#include "support/engine_process.hpp"
#include "headless_lab.hpp"
#include "ui_test_main.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>

namespace {

using ddplab::test::ddplabPath;
using ddplab::test::runLab;
using Outcome = ddplab::test::LabOutcome;

// The settings a person knows work: linreg at 1 GPU x 8, LR 2, 8 epochs of 512 examples.
const QJsonObject kBase{{QStringLiteral("workload"), QStringLiteral("linreg")}, {QStringLiteral("loss_reduction"), QStringLiteral("mean")},
                        {QStringLiteral("noise"), 0.01},  {QStringLiteral("num_examples"), 512}, {QStringLiteral("dim"), 16},
                        {QStringLiteral("batch_size"), 8}, {QStringLiteral("world_size"), 1},      {QStringLiteral("lr"), 2.0},
                        {QStringLiteral("epochs"), 8}};

// The training loss after `steps` at `gpus` x 8 and `lr`, seed `seed` (8 GPUs as 2 ranks x 4, exactly).
double lossAt(double lr, qint64 steps, qint64 seed)
{
    QJsonObject config = kBase;
    config.insert(QStringLiteral("world_size"), 2);
    config.insert(QStringLiteral("grad_accum"), 4);
    config.insert(QStringLiteral("accumulate_as_ranks"), true);
    config.insert(QStringLiteral("lr"), lr);
    config.insert(QStringLiteral("max_steps"), steps);
    config.insert(QStringLiteral("epochs"), 100);
    config.insert(QStringLiteral("seed"), seed);
    const ddplab::test::EngineResult result = ddplab::test::runConfig(config);
    const QJsonValue loss = result.last(QStringLiteral("summary")).value(QStringLiteral("train_loss"));
    return loss.isDouble() ? loss.toDouble() : INFINITY;
}

}  // namespace

class TestAdvisorHeadless : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QFile preset(m_home.filePath(QStringLiteral("linreg.json")));
        QVERIFY(preset.open(QIODevice::WriteOnly));
        preset.write(QJsonDocument(kBase).toJson());
    }

    void adviceHoldsEveryFieldAndTheRecommendationIsNearTheGridsBest()
    {
        const QString folder = m_home.filePath(QStringLiteral("advice"));
        const Outcome run = runLab(m_home.path(), {QStringLiteral("--advise"), QStringLiteral("--preset"), m_home.filePath(QStringLiteral("linreg.json")),
                                                   QStringLiteral("--gpus"), QStringLiteral("8"), QStringLiteral("--budget-min"), QStringLiteral("1"),
                                                   QStringLiteral("--export"), folder, QStringLiteral("--quit")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains(QStringLiteral("Advice for 8 GPUs")));
        QFile file(folder + QStringLiteral("/advice.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject advice = QJsonDocument::fromJson(file.readAll()).object();
        for (const char* field : {"gpus", "batch_per_gpu", "grad_accum", "effective_batch", "lr", "lr_rule", "lr_exponent",
                                  "lr_exponent_interval", "warmup_steps", "noise_scale", "critical_batch", "steps_to_match", "confidence",
                                  "cautions", "evidence", "took_s", "objective", "horizon_samples", "schedule", "lr_safe_range"})
            QVERIFY2(advice.contains(QLatin1String(field)), field);
        QCOMPARE(advice.value(QStringLiteral("gpus")).toInt(), 8);
        QCOMPARE(advice.value(QStringLiteral("effective_batch")).toInteger(),
                 advice.value(QStringLiteral("gpus")).toInteger() * advice.value(QStringLiteral("batch_per_gpu")).toInteger() *
                     advice.value(QStringLiteral("grad_accum")).toInteger());
        const double lr = advice.value(QStringLiteral("lr")).toDouble();
        const QJsonArray safe = advice.value(QStringLiteral("lr_safe_range")).toArray();
        QVERIFY(safe[0].toDouble() <= lr && lr <= safe[1].toDouble() * 1.0000001);
        QVERIFY(!advice.value(QStringLiteral("noise_scale")).toArray().isEmpty());  // one base GPU: a 2-GPU run measured it
        const QString level = advice.value(QStringLiteral("confidence")).toObject().value(QStringLiteral("level")).toString();
        QVERIFY(level == QStringLiteral("high") || level == QStringLiteral("moderate") || level == QStringLiteral("low"));
        const QJsonArray evidence = advice.value(QStringLiteral("evidence")).toArray();
        QVERIFY(evidence.size() >= 1 + 1 + 3 * 4 + 1 + 10);  // base, range test, 4 batches x 3 LRs, repeat, 5 LRs x 2 seeds
        QFile words(folder + QStringLiteral("/advice.md"));
        QVERIFY(words.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(words.readAll()).contains(QStringLiteral("torchrun")));
        // The evidence charts, as the page saves them: the measure against the LR, the branch
        // test, the noise scale (measured here) and the range test, each as PNG and SVG.
        const QStringList images = QDir(folder).entryList({QStringLiteral("*.png"), QStringLiteral("*.svg")}, QDir::Files);
        QCOMPARE(images.size(), 8);
        for (const QString& image : images)
            QVERIFY2(QFileInfo(QDir(folder).filePath(image)).size() > 1000, qPrintable(image));

        // The grid at the recommended batch and horizon: 7 LRs a factor 2 apart, 2 seeds.
        QCOMPARE(advice.value(QStringLiteral("batch_per_gpu")).toInt(), 8);
        const qint64 steps = qRound64(advice.value(QStringLiteral("horizon_samples")).toDouble() / 64.0);
        auto meanLoss = [&](double rate) { return (lossAt(rate, steps, 0) + lossAt(rate, steps, 1)) / 2.0; };
        double best = INFINITY;
        for (double rate : {0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0})
            best = std::min(best, meanLoss(rate));
        const double recommended = meanLoss(lr);
        QVERIFY2(recommended <= 1.10 * best, qPrintable(QStringLiteral("recommended LR %1: loss %2; the grid's best %3").arg(lr).arg(recommended).arg(best)));
    }

    void badInputGetsOneSentenceAndExitCode2_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("said");
        const QString out = m_home.filePath(QStringLiteral("bad"));
        QTest::newRow("no GPUs") << QStringList{QStringLiteral("--advise"), QStringLiteral("--gpus"), QStringLiteral("0"), QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                 << QStringLiteral("--gpus must be a whole number from 1 to 4096");
        QTest::newRow("no folder") << QStringList{QStringLiteral("--advise"), QStringLiteral("--quit")} << QStringLiteral("--advise needs --export DIR");
        QTest::newRow("no budget") << QStringList{QStringLiteral("--advise"), QStringLiteral("--budget-min"), QStringLiteral("0"), QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                   << QStringLiteral("--budget-min must be a number of minutes");
        QTest::newRow("a window") << QStringList{QStringLiteral("--advise"), QStringLiteral("--export"), out} << QStringLiteral("add --quit");
        QTest::newRow("a lesson of many runs") << QStringList{QStringLiteral("--advise"), QStringLiteral("--preset"), QStringLiteral("seed000-four-ways"), QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                               << QStringLiteral("settings of one run");
    }

    void badInputGetsOneSentenceAndExitCode2()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, said);
        const Outcome run = runLab(m_home.path(), arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(said), qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count(QLatin1Char('\n')), 0);  // one sentence, one line
    }

private:
    QTemporaryDir m_home;
};

DDPLAB_UI_TEST_MAIN(TestAdvisorHeadless)
#include "tst_advisor_headless.moc"
