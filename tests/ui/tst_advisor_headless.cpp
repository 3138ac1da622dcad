// SPDX-License-Identifier: GPL-3.0-or-later
// `ddplab --advise ... --export DIR --quit` on linreg, as a person runs it: advice.json holds
// every field the issue names, consistent with itself and with the runs it lists; the
// recommended LR's loss at the recommended batch and horizon lies within 10 % of the best of a
// 4-point LR grid (2 seeds, the best inside it) run here at the same batch and samples; the batch per GPU grows past
// yours only to batches the branch test measured within its tolerance; every batch is judged over
// the same data orders and the LR is one the confirmation trained; a reduced Fashion-MNIST CNN's
// advice likewise against a 4-point grid of its validation loss, within its budget; the critical batch on linreg
// within 3x of a grid study's; Adam's betas follow the SDE rule; your own model is planned from
// its data; a stopped advice resumes (into a full --export disk: exit 6, stored as finished); bad input gets one
// sentence and exit code 2. The decision rules themselves are tested on recorded evidence
// (tst_advice_decision), the advice's truth on many models by bench/advisor_panel.py.
//
// Every advice here runs with its cost pinned (DDPLAB_ADVICE_PINNED_COST, advice_estimate.hpp):
// what a run costs is the estimator's, not what the base run measured, and the advice's clock
// counts those costs of the runs that ended, not wall time. So its plan, its budget's cuts and its
// answer are the same whatever else the machine runs, and the suite may share the CI's machine
// with another (it ran alone before: beside a suite at load 4.3-4.8 the Fashion CNN's advice came
// out over 20 steps where idle it had 64). No case here is about the budget in wall time: that is
// the window's (tst_advise_page) and the resumption's (tst_advice_resume), which run unpinned.

#include "client/advisor/advice_estimate.hpp"
#include "client/advisor/advice_progress.hpp"
#include "support/engine_process.hpp"
#include "support/full_disk.hpp"
#include "headless_lab.hpp"
#include "ui_test_main.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
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

// A recommendation's `measure` (a summary field) after `steps` at `gpus` x `batch` and `lr`, seed
// `seed`, from `base`: N GPUs as 2 ranks x N/2 micro-batches (accumulate_as_ranks, exactly what N
// GPUs compute), with a linear warmup over `warmupSteps` from `startFactor` x the LR when asked.
double measureAfter(QJsonObject config, const QString& measure, int gpus, qint64 batch, double lr, qint64 steps, qint64 seed,
                    qint64 warmupSteps, double startFactor)
{
    config.insert(QStringLiteral("world_size"), 2);
    config.insert(QStringLiteral("grad_accum"), gpus / 2);
    config.insert(QStringLiteral("accumulate_as_ranks"), gpus > 2);
    config.insert(QStringLiteral("batch_size"), batch);
    config.insert(QStringLiteral("lr"), lr);
    config.insert(QStringLiteral("max_steps"), steps);
    config.insert(QStringLiteral("epochs"), 100);
    config.insert(QStringLiteral("seed"), seed);
    if (warmupSteps > 0) {
        config.insert(QStringLiteral("warmup_steps"), warmupSteps);
        config.insert(QStringLiteral("warmup_start_factor"), startFactor);
    }
    const ddplab::test::EngineResult result = ddplab::test::runConfig(config);
    const QJsonValue value = result.last(QStringLiteral("summary")).value(measure);
    return value.isDouble() ? value.toDouble() : INFINITY;
}

// linreg's training loss at 8 GPUs x `batch`.
double lossAt(qint64 batch, double lr, qint64 steps, qint64 seed, qint64 warmupSteps = 0, double startFactor = 1.0)
{
    return measureAfter(kBase, QStringLiteral("train_loss"), 8, batch, lr, steps, seed, warmupSteps, startFactor);
}

// A reduced Fashion-MNIST CNN a person knows trains (1 GPU x 32, SGD with momentum at 0.05, one
// epoch of the first 2,048 images), its validation loss measured on the first 2,000 test images
// at the end, as the advisor's runs measure it.
const QJsonObject kFashionBase{{QStringLiteral("workload"), QStringLiteral("fashion_mnist")}, {QStringLiteral("model"), QStringLiteral("cnn")},
                               {QStringLiteral("train_subset"), 2048},  {QStringLiteral("epochs"), 1},
                               {QStringLiteral("batch_size"), 32},       {QStringLiteral("world_size"), 1},
                               {QStringLiteral("optimizer"), QStringLiteral("sgd")}, {QStringLiteral("momentum"), 0.9},
                               {QStringLiteral("lr"), 0.05}};

double fashionValidationLoss(int gpus, qint64 batch, double lr, qint64 steps, qint64 seed, qint64 warmupSteps = 0, double startFactor = 1.0)
{
    QJsonObject measured = kFashionBase;
    measured.insert(QStringLiteral("val_subset"), 2000);
    measured.insert(QStringLiteral("eval_every"), 0);
    return measureAfter(measured, QStringLiteral("val_loss"), gpus, batch, lr, steps, seed, warmupSteps, startFactor);
}

// `ddplab --advise` on `settings` (written as a preset file in `home`) for `gpus` GPUs within a
// budget of `minutes`, exported into home/`name`: how it ended, and its advice.json when written.
struct Advised {
    Outcome run;
    QJsonObject advice;
};

Advised adviseOn(const QString& home, const QJsonObject& settings, int gpus, double minutes, const QString& name)
{
    const QString folder = QDir(home).filePath(name);
    QFile preset(folder + QStringLiteral(".json"));
    if (preset.open(QIODevice::WriteOnly))
        preset.write(QJsonDocument(settings).toJson());
    preset.close();
    Advised advised;
    advised.run = runLab(home, {QStringLiteral("--advise"), QStringLiteral("--preset"), preset.fileName(), QStringLiteral("--gpus"), QString::number(gpus),
                                QStringLiteral("--budget-min"), QString::number(minutes), QStringLiteral("--export"), folder, QStringLiteral("--quit")});
    QFile written(folder + QStringLiteral("/advice.json"));
    if (written.open(QIODevice::ReadOnly))
        advised.advice = QJsonDocument::fromJson(written.readAll()).object();
    return advised;
}

// The machine as the advice sees it here: the estimator's development machine this many times
// slower (DDPLAB_ADVICE_PINNED_COST). At 1 the advices give what they gave alone on the idle
// machine (the Fashion CNN's 4 GPUs x 8 over 64 steps, linreg's 8 x 32), measured at load 5-7.5.
constexpr char kPinnedSlowdown[] = "1";

// On the pinned clock an advice ends within its budget (the 10 % over it is for concluding,
// which the pinned clock does not count) and says nothing of overrunning it; an advice that went
// past its budget by a tenth would say so in `trimmed`.
bool honoursItsBudget(const QJsonObject& advice, double budgetSeconds)
{
    const double took = advice.value(QStringLiteral("took_s")).toDouble();
    const bool said = QJsonDocument(advice.value(QStringLiteral("trimmed")).toArray()).toJson().contains("against a budget of");
    return took > 0 && took <= budgetSeconds && !said;
}

// The best of an LR grid by its mean loss over two seeds, each point logged.
struct GridBest {
    double lr = 0.0;
    double loss = INFINITY;
};

template <typename MeanLoss>
GridBest bestOfGrid(const QList<double>& rates, MeanLoss meanLoss)
{
    GridBest best;
    for (double rate : rates) {
        const double loss = meanLoss(rate);
        qInfo("the grid at LR %g: loss %.6g", rate, loss);
        if (loss < best.loss)
            best = {rate, loss};
    }
    return best;
}

}  // namespace

class TestAdvisorHeadless : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv(ddplab::ui::kPinnedCostVariable, kPinnedSlowdown);  // every ddplab this suite starts inherits it
        QFile preset(m_home.filePath(QStringLiteral("linreg.json")));
        QVERIFY(preset.open(QIODevice::WriteOnly));
        preset.write(QJsonDocument(kBase).toJson());
    }

    void adviceHoldsEveryFieldAndTheRecommendationIsNearTheGridsBest()
    {
        const QString folder = m_home.filePath(QStringLiteral("advice"));
        const Outcome run = runLab(m_home.path(), {QStringLiteral("--advise"), QStringLiteral("--preset"), m_home.filePath(QStringLiteral("linreg.json")),
                                                   QStringLiteral("--gpus"), QStringLiteral("8"), QStringLiteral("--budget-min"), QStringLiteral("3"),
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
        // The most batch per GPU it was asked with is kept (the console alone said it).
        QVERIFY(advice.value(QStringLiteral("max_batch_per_gpu")).toInteger() >= kBase.value(QStringLiteral("batch_size")).toInteger());
        QCOMPARE(advice.value(QStringLiteral("effective_batch")).toInteger(),
                 advice.value(QStringLiteral("gpus")).toInteger() * advice.value(QStringLiteral("batch_per_gpu")).toInteger() *
                     advice.value(QStringLiteral("grad_accum")).toInteger());
        const double lr = advice.value(QStringLiteral("lr")).toDouble();
        const QJsonArray safe = advice.value(QStringLiteral("lr_safe_range")).toArray();
        QVERIFY(safe[0].toDouble() <= lr && lr <= safe[1].toDouble() * 1.0000001);
        QVERIFY(!advice.value(QStringLiteral("noise_scale")).toArray().isEmpty());  // one base GPU: a 2-GPU run measured it
        // On this computer's CPU the times do not transfer to GPUs: no batch was timed, and advice.md says so.
        QVERIFY(advice.value(QStringLiteral("goodput")).isNull());
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray())
            QVERIFY(item.toObject().value(QStringLiteral("phase")).toString() != QStringLiteral("throughput"));
        QFile markdown(folder + QStringLiteral("/advice.md"));
        QVERIFY(markdown.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(markdown.readAll()).contains(QStringLiteral("Speed: not chosen by speed: the runs were timed on this computer's CPU")));
        QVERIFY2(run.out.contains(QStringLiteral("Stored as ")), qPrintable(run.out));  // for the Advise page's Past advice
        // The branch test's two data orders (one when the machine is too slow for the budget, and
        // then said): each batch's best LR per order, and the exponent's interval from them,
        // holding the exponent; with one order no interval is made up.
        const int orders = advice.value(QStringLiteral("branch_seeds")).toInt();
        const QString trimmed = QString::fromUtf8(QJsonDocument(advice.value(QStringLiteral("trimmed")).toArray()).toJson());
        QVERIFY(orders == 2 || (orders == 1 && trimmed.contains(QStringLiteral("one data order, not two"))));
        // The branch batches: 1, 2, 4 and 8 GPUs x 8, then 8 GPUs x 16 and x 32 (the most batch per
        // GPU is the data set's 64) unless the budget could not hold those two, said in `trimmed`.
        const bool wider = !trimmed.contains(QStringLiteral("batches per GPU above yours"));
        const int batches = wider ? 6 : 4;
        // And half your batch, 1 x 4, unless the budget left it out (said).
        const bool half = !trimmed.contains(QStringLiteral("the branch at half your batch"));
        // Each has its best LR in every order, except a batch with a branch that diverged (by its
        // status, whatever loss it ended on): there an order's optimum is not measured.
        const QJsonArray optima = advice.value(QStringLiteral("lr_optima")).toArray();
        QSet<int> divergedAt, optimumAt;
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray()) {
            const QJsonObject run = item.toObject();
            if (run.value(QStringLiteral("phase")).toString() == QStringLiteral("branch") && run.value(QStringLiteral("status")).toString() == QStringLiteral("diverged"))
                divergedAt.insert(run.value(QStringLiteral("gpus")).toInt() * run.value(QStringLiteral("batch_per_gpu")).toInt());
        }
        for (const QJsonValue& optimum : optima)
            optimumAt.insert(optimum.toObject().value(QStringLiteral("batch")).toInt());
        QCOMPARE(optimumAt.size(), optima.size());
        QList<int> branchBatches = wider ? QList<int>{8, 16, 32, 64, 128, 256} : QList<int>{8, 16, 32, 64};
        if (half)
            branchBatches.prepend(4);
        for (int batch : branchBatches)
            QVERIFY2(optimumAt.contains(batch) || divergedAt.contains(batch), qPrintable(QStringLiteral("batch %1 has no optimum").arg(batch)));
        for (int batch : optimumAt)
            QVERIFY(branchBatches.contains(batch));
        for (const QJsonValue& optimum : optima)
            QCOMPARE(optimum.toObject().value(QStringLiteral("per_seed")).toArray().size(), orders);
        const QJsonArray interval = advice.value(QStringLiteral("lr_exponent_interval")).toArray();
        const double exponent = advice.value(QStringLiteral("lr_exponent")).toDouble();
        if (orders == 2)
            QVERIFY2(interval[0].isDouble() && interval[0].toDouble() <= exponent + 1e-9 && exponent <= interval[1].toDouble() + 1e-9,
                     QJsonDocument(interval).toJson(QJsonDocument::Compact).constData());
        else
            QVERIFY(interval[0].isNull() && interval[1].isNull());
        // McCandlish's fit beside the branch test and the noise scale, with its doubts in words.
        const QJsonObject critical = advice.value(QStringLiteral("critical_batch")).toObject();
        const QJsonObject fit = critical.value(QStringLiteral("fit")).toObject();
        QCOMPARE(fit.value(QStringLiteral("points")).toArray().size(), (batches + (half ? 1 : 0)) * orders);  // each batch and data order
        QCOMPARE(fit.value(QStringLiteral("trusted")).toBool(), fit.value(QStringLiteral("doubts")).toArray().isEmpty());
        QVERIFY(critical.value(QStringLiteral("finding")).toString().contains(QStringLiteral("McCandlish")));
        // A range test at every branch batch, each a curve (at N GPUs' batch alone when the budget
        // did not hold them, said).
        const QJsonArray ranges = advice.value(QStringLiteral("range_tests")).toArray();
        QCOMPARE(ranges.size(), trimmed.contains(QStringLiteral("range test ran only")) ? 1 : batches);
        for (const QJsonValue& range : ranges)
            QVERIFY(range.toObject().value(QStringLiteral("points")).toArray().size() >= 10);
        // The warmup arm: run when the LR was raised well above the base's, and its verdict.
        const QJsonObject warmup = advice.value(QStringLiteral("warmup")).toObject();
        const double baseLr = 2.0;
        const bool raised = warmup.value(QStringLiteral("tested")).toBool();
        QVERIFY(!warmup.value(QStringLiteral("verdict")).toString().isEmpty());
        int armRuns = 0;
        double armSum = 0.0;
        int armAtBest = 0;
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray()) {
            const QJsonObject run = item.toObject();
            if (run.value(QStringLiteral("phase")).toString() != QStringLiteral("warmup"))
                continue;
            ++armRuns;
            if (run.value(QStringLiteral("lr")).toDouble() == warmup.value(QStringLiteral("lr_with")).toDouble()) {
                armSum += run.value(QStringLiteral("measure")).toDouble();
                ++armAtBest;
            }
        }
        QCOMPARE(armRuns, raised ? 4 : 0);
        if (raised) {
            QVERIFY(warmup.value(QStringLiteral("lrs")).toArray().first().toDouble() >= 2.0 * baseLr);
            const bool helped = warmup.value(QStringLiteral("helped")).toBool();
            QCOMPARE(advice.value(QStringLiteral("warmup_steps")).toInt(), helped ? warmup.value(QStringLiteral("steps")).toInt() : 0);
            QVERIFY(warmup.value(QStringLiteral("verdict")).toString().contains(helped ? QStringLiteral("helped") : QStringLiteral("the advice adds none")));
            // Its figure is its own runs': the mean of its best LR's two seeds.
            QCOMPARE(armAtBest, 2);
            QVERIFY(std::abs(warmup.value(QStringLiteral("measure_with")).toDouble() - armSum / 2.0) <= 1e-12 * armSum);
        }
        const QString level = advice.value(QStringLiteral("confidence")).toObject().value(QStringLiteral("level")).toString();
        QVERIFY(level == QStringLiteral("high") || level == QStringLiteral("moderate") || level == QStringLiteral("low"));
        const QJsonArray evidence = advice.value(QStringLiteral("evidence")).toArray();
        QVERIFY(evidence.size() >= 1 + ranges.size() + (batches + (half ? 1 : 0)) * 3 * orders + 1 + 10);  // base, the range tests, each batch's 3 LRs x the orders, noise scale, 5 LRs x 2 seeds
        // Every batch judged against yours over the same orders; the advised LR one the
        // confirmation trained in both seeds, with a two-ended safe range around it.
        const QJsonArray verdicts = advice.value(QStringLiteral("batch_verdicts")).toArray();
        QCOMPARE(verdicts.size(), batches + (half ? 1 : 0));
        for (const QJsonValue& verdict : verdicts)
            QVERIFY(verdict.toObject().value(QStringLiteral("orders")).toInt() >= 2);
        QCOMPARE(verdicts[half ? 1 : 0].toObject().value(QStringLiteral("batch")).toInt(), 8);  // yours, after half of it
        QVERIFY(verdicts[half ? 1 : 0].toObject().value(QStringLiteral("yours")).toBool());
        int trainedAtTheLr = 0;
        for (const QJsonValue& item : evidence) {
            const QJsonObject run = item.toObject();
            if (run.value(QStringLiteral("phase")).toString() == QStringLiteral("confirmation") && run.value(QStringLiteral("lr")).toDouble() == lr &&
                run.value(QStringLiteral("measure")).isDouble())
                ++trainedAtTheLr;
        }
        QVERIFY2(trainedAtTheLr >= 2 || warmup.value(QStringLiteral("helped")).toBool(), qPrintable(QString::number(trainedAtTheLr)));
        QVERIFY(safe[0].toDouble() < safe[1].toDouble() && safe[0].toDouble() <= lr && lr <= safe[1].toDouble() * 1.0000001);
        QVERIFY(honoursItsBudget(advice, 180.0));
        QFile words(folder + QStringLiteral("/advice.md"));
        QVERIFY(words.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(words.readAll()).contains(QStringLiteral("torchrun")));
        // The evidence charts, as the page saves them: the measure against the LR, the branch
        // test's means, each batch against yours, the best LR against the batch, the steps to the
        // target, the noise scale (measured here) and the range tests, each as PNG and SVG.
        const QStringList images = QDir(folder).entryList({QStringLiteral("*.png"), QStringLiteral("*.svg")}, QDir::Files);
        QCOMPARE(images.size(), 14);
        for (const QString& image : images)
            QVERIFY2(QFileInfo(QDir(folder).filePath(image)).size() > 1000, qPrintable(image));

        // The batch is the critical batch the branch test found (the largest batch within its
        // tolerance, every one a branch batch): past N x yours only where it measured it.
        const qint64 batch = advice.value(QStringLiteral("batch_per_gpu")).toInteger();
        QCOMPARE(8 * batch, qint64(critical.value(QStringLiteral("value")).toDouble()));
        // The grid at the recommended batch and horizon: 4 LRs a factor 2 apart, 2 seeds, the best
        // inside it. 4, not the 8 from 0.5 it was: at 0.5 to 4 the loss was 0.108, 0.074, 0.035 and
        // 0.0082 where the best (at 32) was 0.000101 (8 GPUs x 32 over 16 steps, 2026-11-30), so
        // they are never the best and cost 8 runs.
        const qint64 steps = qRound64(advice.value(QStringLiteral("horizon_samples")).toDouble() / double(8 * batch));
        auto meanLoss = [&](double rate) { return (lossAt(batch, rate, steps, 0) + lossAt(batch, rate, steps, 1)) / 2.0; };
        const QList<double> rates{8.0, 16.0, 32.0, 64.0};
        const GridBest grid = bestOfGrid(rates, meanLoss);
        const double best = grid.loss;
        QVERIFY2(grid.lr > rates.front() && grid.lr < rates.back(), qPrintable(QStringLiteral("the grid's best LR %1 is at its edge").arg(grid.lr)));
        // The recommendation as the advice gives it: with its warmup when the arm found one helped.
        const qint64 warmupSteps = advice.value(QStringLiteral("warmup_steps")).toInteger();
        const double startFactor = warmup.value(QStringLiteral("warmup_start_factor")).toDouble();
        const double recommended = warmupSteps > 0 ? (lossAt(batch, lr, steps, 0, warmupSteps, startFactor) + lossAt(batch, lr, steps, 1, warmupSteps, startFactor)) / 2.0
                                                   : meanLoss(lr);
        qInfo("8 GPUs x %lld, %lld steps: advised LR %g, loss %.6g; the grid's best %.6g", batch, steps, lr, recommended, best);
        QVERIFY2(recommended <= 1.10 * best, qPrintable(QStringLiteral("recommended LR %1: loss %2; the grid's best %3").arg(lr).arg(recommended).arg(best)));
    }

    // Issue 28's known answer on a reduced Fashion CNN: the recommended LR's validation loss at
    // the recommended batch and horizon within 10 % of the best of a 4-point grid (2 seeds) run
    // here at the same batch and samples (the best inside it), the advice within its budget of 90 s.
    void aReducedFashionCnnIsAdvisedNearTheGridsBest()
    {
        QFile preset(m_home.filePath(QStringLiteral("fashion.json")));
        QVERIFY(preset.open(QIODevice::WriteOnly));
        preset.write(QJsonDocument(kFashionBase).toJson());
        preset.close();
        const QString folder = m_home.filePath(QStringLiteral("fashion-advice"));
        const Outcome run = runLab(m_home.path(), {QStringLiteral("--advise"), QStringLiteral("--preset"), preset.fileName(),
                                                   QStringLiteral("--gpus"), QStringLiteral("4"), QStringLiteral("--budget-min"), QStringLiteral("1.5"),
                                                   QStringLiteral("--export"), folder, QStringLiteral("--quit")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QFile file(folder + QStringLiteral("/advice.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject advice = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(advice.value(QStringLiteral("gpus")).toInt(), 4);
        QVERIFY(honoursItsBudget(advice, 90.0));
        // The measure is the validation loss, on a subset said as such.
        QVERIFY2(advice.value(QStringLiteral("objective")).toString().contains(QStringLiteral("validation loss")),
                 qPrintable(advice.value(QStringLiteral("objective")).toString()));
        const QString trimmed = QString::fromUtf8(QJsonDocument(advice.value(QStringLiteral("trimmed")).toArray()).toJson());
        QVERIFY2(trimmed.contains(QStringLiteral("first 2,000 samples of the validation set")), qPrintable(trimmed));
        const qint64 batch = advice.value(QStringLiteral("batch_per_gpu")).toInteger();
        const double lr = advice.value(QStringLiteral("lr")).toDouble();
        QCOMPARE(advice.value(QStringLiteral("grad_accum")).toInt(), 1);
        const qint64 steps = qRound64(advice.value(QStringLiteral("horizon_samples")).toDouble() / double(4 * batch));
        QVERIFY2(steps >= 20, qPrintable(QString::number(steps)));
        // The LR is one the confirmation trained from the start at that batch in both seeds (the
        // branch test's share of the budget was cut, if need be, to leave it room).
        int trainedAtTheLr = 0;
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray()) {
            const QJsonObject run = item.toObject();
            trainedAtTheLr += run.value(QStringLiteral("phase")).toString() == QStringLiteral("confirmation") && run.value(QStringLiteral("lr")).toDouble() == lr &&
                              run.value(QStringLiteral("batch_per_gpu")).toInteger() == batch && run.value(QStringLiteral("measure")).isDouble();
        }
        QVERIFY2(trainedAtTheLr >= 2 || advice.value(QStringLiteral("warmup")).toObject().value(QStringLiteral("helped")).toBool(),
                 qPrintable(QString::number(trainedAtTheLr) + QString::fromUtf8(QJsonDocument(advice.value(QStringLiteral("trimmed")).toArray()).toJson())));
        auto meanLoss = [&](double rate) { return (fashionValidationLoss(4, batch, rate, steps, 0) + fashionValidationLoss(4, batch, rate, steps, 1)) / 2.0; };
        // 4 points, not 6: at 0.4 and 0.8 this CNN diverged within 20 steps at 4 GPUs x 8 (a loss
        // of 7.6e13, and infinite; 2026-11-30, the advice at a budget of 1 minute), so they are
        // never the grid's best and cost 4 runs of its 64 steps; the best is checked to lie inside.
        const QList<double> rates{0.025, 0.05, 0.1, 0.2};
        const GridBest grid = bestOfGrid(rates, meanLoss);
        const double best = grid.loss;
        QVERIFY2(grid.lr > rates.front() && grid.lr < rates.back(), qPrintable(QStringLiteral("the grid's best LR %1 is at its edge").arg(grid.lr)));
        // The recommendation as the advice gives it: with its warmup when the arm found one helped.
        const qint64 warmupSteps = advice.value(QStringLiteral("warmup_steps")).toInteger();
        const double startFactor = advice.value(QStringLiteral("warmup")).toObject().value(QStringLiteral("warmup_start_factor")).toDouble(1.0);
        const double recommended = warmupSteps > 0 ? (fashionValidationLoss(4, batch, lr, steps, 0, warmupSteps, startFactor) +
                                                      fashionValidationLoss(4, batch, lr, steps, 1, warmupSteps, startFactor)) / 2.0
                                                   : meanLoss(lr);
        qInfo("4 GPUs x %lld, %lld steps: advised LR %g, loss %.4f; the grid's best LR %g, loss %.4f", batch, steps, lr, recommended, grid.lr, best);
        QVERIFY2(recommended <= 1.10 * best, qPrintable(QStringLiteral("recommended LR %1: loss %2; the grid's best %3 at %4").arg(lr).arg(recommended).arg(best).arg(grid.lr)));
    }

    // Issue 28's known answer for the critical batch: on linreg (8 weights, label noise 0.1,
    // 4,096 examples, 1 GPU x 4 at LR 5 known to train), the critical batch the advice reports for
    // 64 GPUs lies within 3x of the one a grid study finds by hand: steps to the exact
    // training-set loss 0.012 at effective batches 4 to 256, 5 LRs each, 2 seeds, McCandlish's fit
    // (measured: the advice 64 or 32 over three runs, the grid 34.9). A critical batch the advice
    // gives only as a lower bound ("at or above") must not lie above 3x the grid's.
    void theCriticalBatchLiesWithinThreeTimesAGridStudys()
    {
        QTemporaryDir home;
        const QJsonObject base{{QStringLiteral("workload"), QStringLiteral("linreg")}, {QStringLiteral("loss_reduction"), QStringLiteral("mean")},
                               {QStringLiteral("dim"), 8},          {QStringLiteral("noise"), 0.1},
                               {QStringLiteral("num_examples"), 4096}, {QStringLiteral("batch_size"), 4},
                               {QStringLiteral("world_size"), 1},    {QStringLiteral("lr"), 5.0},
                               {QStringLiteral("epochs"), 1},        {QStringLiteral("shuffle"), true}};
        const Advised advised = adviseOn(home.path(), base, 64, 1, QStringLiteral("advice"));
        QVERIFY2(advised.run.exitCode == 0, qPrintable(advised.run.out + advised.run.err));
        QVERIFY(honoursItsBudget(advised.advice, 60.0));
        const QJsonObject critical = advised.advice.value(QStringLiteral("critical_batch")).toObject();
        const double recommended = critical.value(QStringLiteral("value")).toDouble();
        const bool lowerBound = critical.value(QStringLiteral("at_least")).toBool();
        QVERIFY2(recommended > 0, qPrintable(critical.value(QStringLiteral("finding")).toString()));

        const QString grid = home.filePath(QStringLiteral("grid"));
        const Outcome study = runLab(home.path(), {QStringLiteral("--study"), QStringLiteral(DDPLAB_SOURCE_DIR "/tests/ui/data/linreg-critical-batch-grid.json"),
                                                   QStringLiteral("--export"), grid, QStringLiteral("--yes"), QStringLiteral("--quit")});
        QVERIFY2(study.exitCode == 0, qPrintable(study.out + study.err));
        QFile findings(grid + QStringLiteral("/findings.txt"));
        QVERIFY(findings.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(findings.readAll());
        const QRegularExpressionMatch fit = QRegularExpression(QStringLiteral("critical batch (\\S+) from the fit")).match(text);
        QVERIFY2(fit.hasMatch(), qPrintable(text));
        const double byHand = fit.captured(1).toDouble();
        const QString both = QStringLiteral("the advice %1%2, the grid study %3").arg(lowerBound ? QStringLiteral("at or above ") : QString()).arg(recommended).arg(byHand);
        QVERIFY2(recommended <= 3.0 * byHand, qPrintable(both));
        if (!lowerBound)
            QVERIFY2(recommended >= byHand / 3.0, qPrintable(both));
    }

    // Adam at 4 GPUs (k = 4 over the base's 1 x 8): the advice recommends beta1, beta2 and eps
    // scaled by the SDE rule, and every run that measured the LR at that batch used exactly
    // those; each other batch its own k's, the base's own from k = 10 where the rule refuses
    // (the wider branches' 4 x 32) and below the base's batch (issue 46) (issue 28 §3h: the LR
    // confirmed with the betas it is recommended with).
    void anAdamAdviceMeasuresWithTheBetasItRecommends()
    {
        QTemporaryDir home;
        QJsonObject adam = kBase;
        adam.insert(QStringLiteral("optimizer"), QStringLiteral("adam"));
        adam.insert(QStringLiteral("lr"), 0.05);
        const Advised advised = adviseOn(home.path(), adam, 4, 1, QStringLiteral("advice"));
        QVERIFY2(advised.run.exitCode == 0, qPrintable(advised.run.out + advised.run.err));
        const QJsonObject& advice = advised.advice;
        QVERIFY(honoursItsBudget(advice, 60.0));
        // Adam's 0.9, 0.999 and 1e-8 at k times the base's batch by the SDE rule: 1 - beta by k, eps
        // by 1/sqrt(k); from k = 10 on beta1 would be 0 or less, and the rule keeps the base's;
        // below the base's batch (k < 1: the branch test's half) the base's own (issue 46).
        const auto moments = [](double k) {
            return k >= 1.0 && k * 0.1 < 1.0 ? std::array<double, 3>{1.0 - k * 0.1, 1.0 - k * 0.001, 1e-8 / std::sqrt(k)} : std::array<double, 3>{0.9, 0.999, 1e-8};
        };
        // The recommendation (4 GPUs x 8, k = 4: 0.6, 0.996 and 5e-9; or a wider batch the branch
        // test measured within its tolerance).
        const double recommended = advice.value(QStringLiteral("effective_batch")).toDouble() / 8.0;
        QCOMPARE(advice.value(QStringLiteral("betas_rule")).toString(), recommended > 1 && recommended < 10 ? QStringLiteral("sde") : QStringLiteral("none"));
        QVERIFY(std::abs(advice.value(QStringLiteral("beta1")).toDouble() - moments(recommended)[0]) < 1e-12);
        QVERIFY(std::abs(advice.value(QStringLiteral("beta2")).toDouble() - moments(recommended)[1]) < 1e-12);
        QVERIFY(std::abs(advice.value(QStringLiteral("eps")).toDouble() - moments(recommended)[2]) < 1e-20);
        const QDir runs(home.filePath(QStringLiteral("data/ddplab/ddplab/runs")));
        int atTheRecommendation = 0;
        QList<double> batches;  // each run's k
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray()) {
            const QJsonObject evidence = item.toObject();
            QFile stored(runs.filePath(evidence.value(QStringLiteral("run_id")).toString() + QStringLiteral("/config.json")));
            QVERIFY2(stored.open(QIODevice::ReadOnly), qPrintable(stored.fileName()));
            const QJsonObject config = QJsonDocument::fromJson(stored.readAll()).object();
            const double k = evidence.value(QStringLiteral("gpus")).toDouble() * evidence.value(QStringLiteral("batch_per_gpu")).toDouble() / 8.0;
            const QString label = evidence.value(QStringLiteral("phase")).toString() + QStringLiteral(" at k = ") + QString::number(k);
            if (!batches.contains(k))
                batches.append(k);
            QVERIFY2(std::abs(config.value(QStringLiteral("beta1")).toDouble() - moments(k)[0]) < 1e-12, qPrintable(label));
            QVERIFY2(std::abs(config.value(QStringLiteral("beta2")).toDouble() - moments(k)[1]) < 1e-12, qPrintable(label));
            QVERIFY2(std::abs(config.value(QStringLiteral("eps")).toDouble() - moments(k)[2]) < 1e-20, qPrintable(label));
            if (evidence.value(QStringLiteral("phase")).toString() == QStringLiteral("confirmation")) {
                QCOMPARE(config.value(QStringLiteral("beta1")).toDouble(), advice.value(QStringLiteral("beta1")).toDouble());
                QCOMPARE(config.value(QStringLiteral("eps")).toDouble(), advice.value(QStringLiteral("eps")).toDouble());
                ++atTheRecommendation;
            }
        }
        QVERIFY(atTheRecommendation >= 10);  // 5 LRs x 2 seeds at least
        std::sort(batches.begin(), batches.end());
        QStringList said;
        for (double k : batches)
            said.append(QString::number(k));
        qInfo("k measured: %s", qPrintable(said.join(QStringLiteral(", "))));
    }

    // Your own model (workload torchscript) given by epochs: `--advise` has inspect read the data
    // first, so the planned training is its epochs of the real training set (2 x 100 samples), not
    // the 2 steps an unknown size left it; data the engine refuses stops it with inspect's
    // sentence, naming the file's key, and exit 2.
    void anAdviceOnYourOwnModelPlansFromItsData()
    {
        QTemporaryDir home;
        const QString models = home.filePath(QStringLiteral("models"));
        const QString notMade = ddplab::test::makeOwnModelCase(models);
        QVERIFY2(notMade.isEmpty(), qPrintable(notMade));
        QJsonObject own{{QStringLiteral("workload"), QStringLiteral("torchscript")}, {QStringLiteral("model_file"), models + QStringLiteral("/mlp.pt")},
                        {QStringLiteral("train_data"), models + QStringLiteral("/train.pt")}, {QStringLiteral("batch_size"), 10},
                        {QStringLiteral("world_size"), 1}, {QStringLiteral("lr"), 0.05}, {QStringLiteral("momentum"), 0.9},
                        {QStringLiteral("epochs"), 2}, {QStringLiteral("threads"), 1}};
        const Advised advised = adviseOn(home.path(), own, 2, 1, QStringLiteral("advice"));
        const Outcome& run = advised.run;
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        // inspect's measured step gave the memory per sample, and the data set caps the batch:
        // 100 samples over 2 GPUs, 32 as a power of two.
        QVERIFY2(run.out.contains(QStringLiteral("Most batch per GPU 32: 32 samples per GPU: the training set's 50 samples per GPU")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("by inspect's measured training step")), qPrintable(run.out));
        const QJsonObject& advice = advised.advice;
        QVERIFY(honoursItsBudget(advice, 60.0));
        QCOMPARE(advice.value(QStringLiteral("planned_samples")).toDouble(), 200.0);  // 2 epochs of 100
        qint64 baseSteps = 0;
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray()) {
            if (item.toObject().value(QStringLiteral("phase")).toString() == QStringLiteral("base"))
                baseSteps = qRound64(item.toObject().value(QStringLiteral("samples")).toDouble() / 10.0);
        }
        QCOMPARE(baseSteps, qint64(20));  // the base run trained its 2 epochs of 10 steps

        own.insert(QStringLiteral("train_data"), models + QStringLiteral("/short_targets.pt"));
        const Outcome refused = adviseOn(home.path(), own, 2, 1, QStringLiteral("refused")).run;
        QCOMPARE(refused.exitCode, 2);
        // Named once: the engine's sentence starts with the key ("model_file: model_file /x does not exist" before).
        QVERIFY2(refused.err.startsWith(QStringLiteral("ddplab: train_data ") + models + QStringLiteral("/short_targets.pt holds 100 samples")),
                 qPrintable(refused.err));
        QCOMPARE(refused.err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFileInfo::exists(home.filePath(QStringLiteral("refused/advice.json"))));
    }

    // A headless advice stopped part way (killed) goes on from the command line, taking the runs
    // it had finished; a finished advice, a folder that is none, and settings given again are
    // refused with one sentence. Within half a minute, not one: it is stopped once 6 runs have
    // ended, and what the rest of its plan concludes is the other cases' (the case 46 s, now 32).
    void aStoppedAdviceResumesFromTheCommandLine()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString presetFile = home.filePath(QStringLiteral("linreg.json"));
        QFile preset(presetFile);
        QVERIFY(preset.open(QIODevice::WriteOnly));
        preset.write(QJsonDocument(kBase).toJson());
        preset.close();
        const QString folder = home.filePath(QStringLiteral("advice"));
        QProcess first;
        first.setProcessEnvironment(ddplab::test::labEnvironment(home.path()));
        first.start(ddplabPath(), {QStringLiteral("--advise"), QStringLiteral("--preset"), presetFile, QStringLiteral("--gpus"), QStringLiteral("2"),
                                   QStringLiteral("--budget-min"), QStringLiteral("0.5"), QStringLiteral("--export"), folder, QStringLiteral("--quit")});
        QVERIFY(first.waitForStarted());
        // Stopped once its branch test has runs finished: the progress file lists them.
        const QString store = home.filePath(QStringLiteral("data/ddplab/ddplab/advice"));
        QString stopped;
        QElapsedTimer waited;
        waited.start();
        int finished = 0;
        while (finished < 6 && waited.elapsed() < 120000 && first.state() == QProcess::Running) {
            QTest::qWait(200);
            const QStringList folders = QDir(store).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
            if (folders.isEmpty())
                continue;
            stopped = QDir(store).filePath(folders.first());
            QFile progress(stopped + QStringLiteral("/progress.json"));
            if (!progress.open(QIODevice::ReadOnly))
                continue;
            finished = 0;
            using namespace ddplab::ui::advice_progress;
            for (const QJsonValue& phase : QJsonDocument::fromJson(progress.readAll()).object().value(kPhases).toArray())
                for (const QJsonValue& run : phase.toObject().value(kRuns).toArray())
                    finished += run.toObject().value(kRunId).toString().isEmpty() ? 0 : 1;
        }
        QVERIFY2(first.state() == QProcess::Running, "the advice ended before it could be stopped");
        // Issue 41: a second advisor on a running advice ran beside it; it is refused, naming the first.
        const Outcome beside = runLab(home.path(), {QStringLiteral("--advise"), QStringLiteral("--resume"), stopped, QStringLiteral("--export"), folder,
                                                    QStringLiteral("--quit")});
        QCOMPARE(beside.exitCode, 2);
        QVERIFY2(beside.err.contains(QStringLiteral("is running now (process %1 runs it)").arg(first.processId())), qPrintable(beside.err));
        // SIGTERM ended it with 143 and not a word: it stops as Stop does, says how to resume, exit 5.
        first.terminate();
        QVERIFY(first.waitForFinished(30000));
        const QString said = QString::fromLocal8Bit(first.readAllStandardError());
        QCOMPARE(first.exitStatus(), QProcess::NormalExit);
        QCOMPARE(first.exitCode(), 5);
        QVERIFY2(said.contains(QStringLiteral("SIGTERM: stopping the advice")) && said.contains(QStringLiteral("kept as stopped in ") + stopped),
                 qPrintable(said));
        QVERIFY2(finished >= 6, qPrintable(QString::number(finished)));
        QVERIFY(!QFileInfo::exists(stopped + QStringLiteral("/advice.json")));

        // Resumed into a full --export disk (issue 41: the finished advice was left stored as
        // "stopped"): exit 6 naming the folder, and the advice stored as finished where it was kept.
        const QString fullFolder = home.filePath(QStringLiteral("full"));
        QVERIFY(QDir().mkpath(fullFolder));
        // Only a mounted disk can be full for the export alone (a size limit would stop the runs too).
        ddplab::test::FullDisk fullDisk(fullFolder);
        const bool full = fullDisk.mounted();
        if (full)
            fullDisk.fill();
        const Outcome resumed = runLab(home.path(), {QStringLiteral("--advise"), QStringLiteral("--resume"), stopped, QStringLiteral("--export"), fullFolder,
                                                     QStringLiteral("--quit")});
        fullDisk.release();
        QVERIFY2(resumed.exitCode == (full ? 6 : 0), qPrintable(resumed.out + resumed.err));
        QVERIFY2(resumed.out.contains(QStringLiteral("of them from the stopped advice")), qPrintable(resumed.out));
        // How long, before and after, as a new advice says it: its plan less the runs it finished.
        QVERIFY2(QRegularExpression(QStringLiteral("^DDP Lab advisor: resuming .* runs finished\\), about \\d+ (s|min)(, up to [\\d.]+ (s|min))?\n")).match(resumed.out).hasMatch(),
                 qPrintable(resumed.out));
        QVERIFY2(full || resumed.out.contains(QStringLiteral("The advice's resumption took ")), qPrintable(resumed.out));
        QVERIFY2(!full || (resumed.err.contains(QStringLiteral("cannot write the advice to ") + fullFolder) &&
                           resumed.err.contains(QStringLiteral("it is stored as ") + stopped)),
                 qPrintable(resumed.err));
        QVERIFY(QFileInfo::exists(stopped + QStringLiteral("/advice.json")));  // stored where it was kept

        const Outcome again = runLab(home.path(), {QStringLiteral("--advise"), QStringLiteral("--resume"), stopped, QStringLiteral("--export"), folder,
                                                   QStringLiteral("--quit")});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains(QStringLiteral("is not a stopped advice: it has finished")), qPrintable(again.err));
        const Outcome nowhere = runLab(home.path(), {QStringLiteral("--advise"), QStringLiteral("--resume"), QStringLiteral("no-such-advice"),
                                                     QStringLiteral("--export"), folder, QStringLiteral("--quit")});
        QCOMPARE(nowhere.exitCode, 2);
        QVERIFY2(nowhere.err.contains(QStringLiteral("no advice at")), qPrintable(nowhere.err));
        // A folder that is no advice's says so (it said "advice.json cannot be opened").
        const Outcome notAdvice = runLab(home.path(), {QStringLiteral("--advise"), QStringLiteral("--resume"), home.path(),
                                                       QStringLiteral("--export"), folder, QStringLiteral("--quit")});
        QCOMPARE(notAdvice.exitCode, 2);
        QVERIFY2(notAdvice.err.contains(QStringLiteral("it holds neither advice.json (a finished advice) nor progress.json (a stopped one)")),
                 qPrintable(notAdvice.err));
        // A name that would leave the store is refused as one.
        const Outcome outside = runLab(home.path(), {QStringLiteral("--advise"), QStringLiteral("--resume"), QStringLiteral("../elsewhere"),
                                                     QStringLiteral("--export"), folder, QStringLiteral("--quit")});
        QCOMPARE(outside.exitCode, 2);
        QVERIFY2(outside.err.contains(QStringLiteral("\"../elsewhere\" is no advice's name under")), qPrintable(outside.err));
        const Outcome twice = runLab(home.path(), {QStringLiteral("--advise"), QStringLiteral("--resume"), stopped, QStringLiteral("--preset"), presetFile,
                                                   QStringLiteral("--export"), folder, QStringLiteral("--quit")});
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(twice.err.contains(QStringLiteral("give it no --preset")), qPrintable(twice.err));
    }

    void badInputGetsOneSentenceAndExitCode2_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("said");
        const QString out = m_home.filePath(QStringLiteral("bad"));
        const QString linreg = m_home.filePath(QStringLiteral("linreg.json"));  // batch_size 8 on 1 GPU
        QTest::newRow("no GPUs") << QStringList{QStringLiteral("--advise"), QStringLiteral("--gpus"), QStringLiteral("0"), QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                 << QStringLiteral("--gpus must be a whole number from 1 to 4096");
        QTest::newRow("no folder") << QStringList{QStringLiteral("--advise"), QStringLiteral("--quit")} << QStringLiteral("--advise needs --export DIR");
        QTest::newRow("no budget") << QStringList{QStringLiteral("--advise"), QStringLiteral("--budget-min"), QStringLiteral("0"), QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                   << QStringLiteral("--budget-min must be a number of minutes");
        QTest::newRow("a window") << QStringList{QStringLiteral("--advise"), QStringLiteral("--export"), out} << QStringLiteral("add --quit");
        QTest::newRow("most batch below yours") << QStringList{QStringLiteral("--advise"), QStringLiteral("--preset"), linreg, QStringLiteral("--max-batch-per-gpu"), QStringLiteral("4"),
                                                               QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                                << QStringLiteral("--max-batch-per-gpu 4 is less than your batch per GPU (batch_size 8)");
        QTest::newRow("horizon under two steps") << QStringList{QStringLiteral("--advise"), QStringLiteral("--preset"), linreg, QStringLiteral("--gpus"), QStringLiteral("4"),
                                                                QStringLiteral("--horizon-samples"), QStringLiteral("3"), QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                                 << QStringLiteral("--horizon-samples 3 is under 2 steps of your batch per GPU on 4 GPUs (32 samples a step): "
                                                                   "the batches cannot be compared over it; give at least 64");
        // Past what a whole number holds, and past the training: each says what is allowed.
        QTest::newRow("horizon past any count") << QStringList{QStringLiteral("--advise"), QStringLiteral("--preset"), linreg, QStringLiteral("--horizon-samples"),
                                                               QStringLiteral("99999999999999999999"), QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                                << QStringLiteral("--horizon-samples must be a whole number of samples from 1 up to your whole training (got \"99999999999999999999\")");
        QTest::newRow("horizon past your training") << QStringList{QStringLiteral("--advise"), QStringLiteral("--preset"), linreg, QStringLiteral("--horizon-samples"),
                                                                   QStringLiteral("1000000000000"), QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                                    << QStringLiteral("--horizon-samples 1000000000000 is longer than your whole training");
        QTest::newRow("a resume asked another question") << QStringList{QStringLiteral("--advise"), QStringLiteral("--resume"), QStringLiteral("some-advice"), QStringLiteral("--gpus"), QStringLiteral("2"),
                                                                        QStringLiteral("--export"), out, QStringLiteral("--quit")}
                                                         << QStringLiteral("give it no --gpus, --budget-min");
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
