// SPDX-License-Identifier: GPL-3.0-or-later
// Every lesson keeps its promise: each lesson in resources/lessons/ runs through the real engine
// exactly as the window starts it (its presets, through `ddplab-engine runs`), and what its
// "look for" tells a class is asserted with numbers. A change to the engine that breaks a lesson
// fails here instead of in front of a class.
//
// Every lesson runs at its real size but one: seed003-throughput's CNN runs are cut from 60
// steps to 5, since its claim about speed is no test's to assert (what each run is, is).
// All of it beside a busy process (a shell loop on one core, at the lowest priority), as on a
// teacher's laptop.
// With DDPLAB_LESSON_CLAIMS=<file> the checked claims, with the figures they were checked on,
// are written there as JSON: scripts/lessons-report.py puts them into docs/lessons.md.

#include "client/engine/shard_assignment.hpp"
#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/runs/throughput_model.hpp"
#include "client/session/lab_session.hpp"
#include "client/session/preset_resolver.hpp"
#include "core/derived.hpp"
#include "ui_test_main.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>

#include <algorithm>
#include <numeric>
#include <cmath>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = 600000;  // a safety net, not a check: a loaded CI machine is slow
const QString kLoss = QStringLiteral("loss");
const QString kValAccuracy = QStringLiteral("val_accuracy");

QString number(double value, int digits = 4)
{
    return QString::number(value, 'g', digits);
}

QString weight(double value)
{
    return QString::number(value, 'f', 4);
}

double summaryOf(const RunData& run, const char* field)
{
    const QJsonValue value = run.summary().value(QLatin1String(field));
    return value.isDouble() ? value.toDouble() : std::nan("");
}

QList<double> valuesOf(const RunData& run, const QString& metric)
{
    QList<double> values;
    for (const QPointF& point : run.series(metric))
        values.append(point.y());
    return values;
}

double lastOf(const RunData& run, const QString& metric)
{
    const QList<QPointF>& series = run.series(metric);
    return series.isEmpty() ? std::nan("") : series.last().y();
}

// The largest relative difference between two runs' values of `metric`, step by step; infinity
// when they do not have the same steps.
double largestDifference(const RunData& a, const RunData& b, const QString& metric)
{
    const QList<QPointF>& x = a.series(metric);
    const QList<QPointF>& y = b.series(metric);
    if (x.size() != y.size() || x.isEmpty())
        return std::numeric_limits<double>::infinity();
    double worst = 0.0;
    for (qsizetype i = 0; i < x.size(); ++i) {
        if (x[i].x() != y[i].x())
            return std::numeric_limits<double>::infinity();
        worst = std::max(worst, std::fabs(x[i].y() - y[i].y()) / std::max(1e-12, std::fabs(y[i].y())));
    }
    return worst;
}

bool within(double value, double expected, double relative)
{
    return std::fabs(value - expected) <= relative * std::fabs(expected);
}

}  // namespace

// Asserts `condition` and records `sentence` (with the figures it was checked on) as a claim of
// the lesson under test.
#define CLAIM(condition, sentence)                            \
    do {                                                      \
        const QString claimText = (sentence);                 \
        m_claims[m_lesson].append(claimText);                 \
        QVERIFY2((condition), qPrintable(claimText));         \
    } while (false)

class TestLessonClaims : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void seed000SingleVsMulti();
    void seed000VarianceEquivalence();
    void seed000LinearRule();
    void seed000UpdateVariance();
    void seed000FourWays();
    void seed002EffectiveBatch();
    void seed003Momentum();
    void seed003Warmup();
    void seed003Novograd();
    void seed003Throughput();
    void seed004SgdScaling();
    void seed004AdamInvariance();
    void seed004AdamLargerBatch();
    void seed004Sharding();
    void smithGrowTheBatch();
    void microBatchesStandForGpus();
    void criticalBatchBranches();
    void aRankFails();
    void runsOfUnlikeBatchesAreComparedPerSampleOrEpoch();
    void onlyTheRunMeantToFailDiverged();
    void everyLessonIsChecked();

private:
    // The lesson's runs, finished (each distinct config runs once per suite); `changes` are
    // set in every run's config (a reduced size).
    QList<QSharedPointer<RunData>> runLesson(const QString& id, const QJsonObject& changes = {});

    LessonLibrary m_lessons;
    PresetLibrary m_presets;
    std::unique_ptr<RunStore> m_store;
    QHash<QByteArray, QSharedPointer<RunData>> m_finished;  // by config
    QList<QPair<QSharedPointer<RunData>, bool>> m_branched;  // runs of lessons that branch, and whether meant to fail
    bool m_sequenceEnded = false;                           // the last branching lesson's sequence succeeded
    QString m_lesson;
    QMap<QString, QStringList> m_claims;
    QStringList m_checked;
    QProcess m_busy;  // another program keeping a core busy, as a teacher's browser does
};

void TestLessonClaims::initTestCase()
{
    m_lessons = LessonLibrary::load();
    m_presets = PresetLibrary::load();
    QVERIFY2(m_lessons.problems().isEmpty(), qPrintable(m_lessons.problems().join(QLatin1Char('\n'))));
    m_store = std::make_unique<RunStore>();
    // Every claim is checked while another program keeps a core busy: a class runs on a laptop
    // with a browser open, and a lesson must keep its point there (the runs' threads take the
    // free cores' share, engine/launch/thread_share).
    // It spins only while this suite lives: a suite killed by a timeout leaves nothing behind.
    // At the lowest priority: an engine starting counts its core as busy all the same (it reads
    // the cores' busy time, nice included) and gives its ranks the free cores' share, but the
    // loop takes no CPU that a program wants, so beside another suite (ctest runs two at once)
    // it no longer takes a third of the machine from both (docs/ci.md). Below nice 19 too
    // (SCHED_IDLE, still counted as nice time): CI builds its later legs at nice 19 beside the
    // suites, and a loop of equal weight took half of what they were given.
    m_busy.start(QStringLiteral("chrt"),
                 {QStringLiteral("--idle"), QStringLiteral("0"), QStringLiteral("nice"), QStringLiteral("-n"), QStringLiteral("19"),
                  QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                  QStringLiteral("while kill -0 %1 2>/dev/null; do :; done").arg(QCoreApplication::applicationPid())});
    QVERIFY(m_busy.waitForStarted());
}

void TestLessonClaims::cleanupTestCase()
{
    m_busy.kill();
    m_busy.waitForFinished();
    const QString path = qEnvironmentVariable("DDPLAB_LESSON_CLAIMS");
    if (path.isEmpty())
        return;
    QJsonObject claims;
    for (auto it = m_claims.begin(); it != m_claims.end(); ++it)
        claims.insert(it.key(), QJsonArray::fromStringList(it.value()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(claims).toJson());
}

QList<QSharedPointer<RunData>> TestLessonClaims::runLesson(const QString& id, const QJsonObject& changes)
{
    m_lesson = id;
    m_checked.append(id);
    const ResolvedPreset lesson = resolvePreset(id, m_lessons, m_presets);
    if (!lesson.error.isEmpty() || lesson.lessonId != id) {
        qWarning("%s: %s", qPrintable(id), qPrintable(lesson.error));
        return {};
    }
    QList<RunRequest> requests = lesson.runs;
    // A lesson whose runs branch from another's checkpoints runs whole, in its order, in one session.
    const bool branches = std::any_of(requests.begin(), requests.end(), [](const RunRequest& request) {
        return request.resumeFromRun >= 0 || request.checkpointsInRunFolder;
    });
    if (branches) {
        LabSession session(*m_store, ddplab::test::enginePath());
        QSignalSpy done(&session, &LabSession::sequenceFinished);
        session.start(requests);
        if (!done.wait(kPatienceMs))
            qWarning("%s: the runs did not end in time", qPrintable(id));
        m_sequenceEnded = done.isEmpty() ? false : done.first().first().toBool();
        for (qsizetype i = 0; i < session.runs().size() && i < requests.size(); ++i)
            m_branched.append({session.runs().at(i), requests.at(i).meantToFail});
        return session.runs().size() == requests.size() ? session.runs() : QList<QSharedPointer<RunData>>{};
    }
    QList<QByteArray> keys;
    QList<RunRequest> toRun;
    // A run is known by its settings as the session hands them to RunData (requestedConfig).
    const auto keyOf = [](const RunRequest& request) { return QJsonDocument(presetFromCoreConfig(request.config)).toJson(QJsonDocument::Compact); };
    for (RunRequest& request : requests) {
        QString error;
        const std::optional<ddplab::Config> changed = withSettings(request.config, changes, &error);
        if (!changed) {
            qWarning("%s: %s", qPrintable(id), qPrintable(error));
            return {};
        }
        request.config = *changed;
        keys.append(keyOf(request));
        if (!m_finished.contains(keys.last()) &&
            std::none_of(toRun.begin(), toRun.end(), [&](const RunRequest& other) { return keyOf(other) == keys.last(); }))
            toRun.append(request);
    }
    if (!toRun.isEmpty()) {
        LabSession session(*m_store, ddplab::test::enginePath());
        QSignalSpy done(&session, &LabSession::sequenceFinished);
        session.start(toRun);
        if (!done.wait(kPatienceMs))
            qWarning("%s: the runs did not end in time", qPrintable(id));
        for (const QSharedPointer<RunData>& run : session.runs())
            m_finished.insert(QJsonDocument(run->requestedConfig()).toJson(QJsonDocument::Compact), run);
    }
    QList<QSharedPointer<RunData>> runs;
    for (const QByteArray& key : keys) {
        if (!m_finished.contains(key)) {
            qWarning("%s: a run did not start", qPrintable(id));
            return {};
        }
        runs.append(m_finished.value(key));
    }
    return runs;
}

// ---------------------------------------------------------------------------------------
// Seed 000: one neuron, 1 x 128 against 8 x 16, and how the LR should follow the batch
// ---------------------------------------------------------------------------------------

void TestLessonClaims::seed000SingleVsMulti()
{
    const auto runs = runLesson(QStringLiteral("seed000-single-vs-multi"));
    QCOMPARE(runs.size(), 2);
    for (const auto& run : runs) {
        const double w = summaryOf(*run, "w_mean");
        CLAIM(run->stepCount() == 2 && std::fabs(w - 0.9980) < 5e-5,
              QStringLiteral("%1 ends at w = %2 after %3 steps (the seed: 0.9980 after 2)").arg(run->label(), weight(w)).arg(run->stepCount()));
    }
    const double apart = largestDifference(*runs[0], *runs[1], QStringLiteral("w_mean"));
    CLAIM(apart < 1e-6, QStringLiteral("their weight curves lie on top of each other: at most %1 apart, relative").arg(number(apart, 2)));
}

void TestLessonClaims::seed000VarianceEquivalence()
{
    const auto runs = runLesson(QStringLiteral("seed000-variance-equivalence"));
    QCOMPARE(runs.size(), 2);
    // lr^2 Var(g) / 128 for the noisy toy problem at w near 1 (tst_seed000 derives it): 8.43e-09.
    for (const auto& run : runs) {
        const double variance = summaryOf(*run, "update_var");
        CLAIM(within(variance, 8.4e-9, 0.05),
              QStringLiteral("%1: update variance %2, within 5 % of the analytic 8.4e-09 (the seed printed 8.37e-09 and 8.40e-09)")
                  .arg(run->label(), number(variance, 4)));
    }
    const double a = summaryOf(*runs[0], "update_var"), b = summaryOf(*runs[1], "update_var");
    CLAIM(within(b, a, 0.01), QStringLiteral("1 x 128 and 8 x 16 agree within 1 %: %1 and %2").arg(number(a, 5), number(b, 5)));
}

void TestLessonClaims::seed000LinearRule()
{
    const auto runs = runLesson(QStringLiteral("seed000-linear-rule"));
    QCOMPARE(runs.size(), 2);
    const double single = summaryOf(*runs[0], "w_mean"), multi = summaryOf(*runs[1], "w_mean");
    CLAIM(runs[0]->stepCount() == 16 && runs[1]->stepCount() == 2,
          QStringLiteral("1 x 16 takes %1 steps, 8 x 16 with the linear rule %2").arg(runs[0]->stepCount()).arg(runs[1]->stepCount()));
    CLAIM(std::fabs(single - 0.9840) < 5e-5 && std::fabs(multi - 0.9840) < 5e-5,
          QStringLiteral("both end at w = 0.9840: %1 and %2").arg(weight(single), weight(multi)));
}

void TestLessonClaims::seed000UpdateVariance()
{
    const auto runs = runLesson(QStringLiteral("seed000-update-variance"));
    QCOMPARE(runs.size(), 3);
    // The seed's 1000-experiment figures; a run of 1000 experiments is good to a few percent.
    const double expected[] = {6.7e-8, 5.4e-7, 6.7e-8};
    for (int i = 0; i < 3; ++i) {
        const double variance = summaryOf(*runs[i], "update_var");
        CLAIM(within(variance, expected[i], 0.15),
              QStringLiteral("%1: update variance %2, within 15 % of %3").arg(runs[i]->label(), number(variance, 3), number(expected[i], 2)));
    }
    const double ratio = summaryOf(*runs[1], "update_var") / summaryOf(*runs[0], "update_var");
    CLAIM(within(ratio, 8.0, 0.15), QStringLiteral("the linear rule multiplies the variance by %1 (8 x the LR, 8 x the batch: 64 / 8 = 8)").arg(number(ratio, 3)));
    const double linearW = summaryOf(*runs[1], "w_mean"), sqrtW = summaryOf(*runs[2], "w_mean");
    CLAIM(std::fabs(linearW - summaryOf(*runs[0], "w_mean")) < 5e-4 && std::fabs(sqrtW - 0.9946) < 5e-4,
          QStringLiteral("linear keeps the weight on track (w = %1 against %2); sqrt moves it only to %3 (the seed: 0.9946)")
              .arg(weight(linearW), weight(summaryOf(*runs[0], "w_mean")), weight(sqrtW)));
}

void TestLessonClaims::seed000FourWays()
{
    const auto runs = runLesson(QStringLiteral("seed000-four-ways"));
    QCOMPARE(runs.size(), 5);
    const double apart = largestDifference(*runs[0], *runs[1], kLoss);
    CLAIM(apart < 1e-6, QStringLiteral("8 x 16 equals 1 x 128: losses at most %1 apart, relative").arg(number(apart, 2)));
    // The reference is in the lesson: 1 x 16 with lr 1e-3 on the same noisy data.
    const double tunedW = summaryOf(*runs[4], "w_mean");
    const double tunedVariance = summaryOf(*runs[4], "update_var");
    CLAIM(std::fabs(tunedW - 0.9847) < 5e-4 && within(tunedVariance, 6.7e-8, 0.15),
          QStringLiteral("1 x 16, the LR's own batch, is in the lesson: w = %1, update variance %2").arg(weight(tunedW), number(tunedVariance, 3)));
    const double linearW = summaryOf(*runs[2], "w_mean");
    CLAIM(std::fabs(linearW - tunedW) < 5e-4, QStringLiteral("linear follows the weight of 1 x 16: w = %1 (1 x 16: %2)").arg(weight(linearW), weight(tunedW)));
    const double sqrtVariance = summaryOf(*runs[3], "update_var");
    CLAIM(within(sqrtVariance, tunedVariance, 0.15),
          QStringLiteral("sqrt keeps the variance of 1 x 16: %1 (1 x 16: %2; linear: %3)")
              .arg(number(sqrtVariance, 3), number(tunedVariance, 3), number(summaryOf(*runs[2], "update_var"), 3)));
}

// ---------------------------------------------------------------------------------------
// Seed 002: effective batch, steps per epoch and Adam's LR
// ---------------------------------------------------------------------------------------

void TestLessonClaims::seed002EffectiveBatch()
{
    const auto runs = runLesson(QStringLiteral("seed002-effective-batch"));
    QCOMPARE(runs.size(), 3);
    CLAIM(runs[0]->stepCount() == 376 && runs[1]->stepCount() == 188 && runs[2]->stepCount() == 188,
          QStringLiteral("steps for 2 epochs: %1 on 1 rank, %2 and %3 on 2 ranks")
              .arg(runs[0]->stepCount())
              .arg(runs[1]->stepCount())
              .arg(runs[2]->stepCount()));
    QList<double> accuracies;
    for (const auto& run : runs)
        accuracies.append(lastOf(*run, kValAccuracy));
    const auto [low, high] = std::minmax_element(accuracies.begin(), accuracies.end());
    CLAIM(*high - *low <= 0.02 && *low > 0.75,
          QStringLiteral("doubling Adam's LR gains little: final validation accuracies %1, %2, %3 lie within %4 (at most 0.02)")
              .arg(number(accuracies[0], 3), number(accuracies[1], 3), number(accuracies[2], 3), number(*high - *low, 2)));
}

// ---------------------------------------------------------------------------------------
// Seed 003: Fashion-MNIST, momentum, warmup, NovoGrad, throughput
// ---------------------------------------------------------------------------------------

void TestLessonClaims::seed003Momentum()
{
    const auto runs = runLesson(QStringLiteral("seed003-momentum"));
    QCOMPARE(runs.size(), 2);
    const QList<QPointF>& plain = runs[0]->series(kValAccuracy);
    const QList<QPointF>& momentum = runs[1]->series(kValAccuracy);
    QCOMPARE(plain.size(), momentum.size());
    const qint64 firstEpoch = runs[0]->stepsPerEpoch();
    double smallestLead = std::numeric_limits<double>::infinity();
    for (qsizetype i = 0; i < plain.size(); ++i) {
        if (plain[i].x() >= firstEpoch)
            smallestLead = std::min(smallestLead, momentum[i].y() - plain[i].y());
    }
    CLAIM(smallestLead > 0.02 && std::isfinite(smallestLead),
          QStringLiteral("momentum is ahead at every evaluation from the first epoch on, by %1 at least (final: %2 against %3)")
              .arg(number(smallestLead, 2), number(momentum.last().y(), 3), number(plain.last().y(), 3)));
}

void TestLessonClaims::seed003Warmup()
{
    const auto runs = runLesson(QStringLiteral("seed003-warmup"));
    QCOMPARE(runs.size(), 2);
    const RunData& cold = *runs[0];
    const RunData& warm = *runs[1];
    const qint64 epoch = cold.stepsPerEpoch();
    const QList<double> coldLoss = valuesOf(cold, kLoss);
    double peak = 0.0;
    for (qsizetype i = 0; i < coldLoss.size() && i < epoch; ++i)
        peak = std::max(peak, coldLoss[i]);
    CLAIM(cold.record().status == RunStatus::Diverged && cold.divergence() && cold.divergence()->step <= epoch,
          QStringLiteral("without warmup the run is %1 (the first epoch has %2 steps); its loss peaks at %3 in the first epoch, from %4")
              .arg(cold.record().statusLine())
              .arg(epoch)
              .arg(number(peak, 3), number(coldLoss.value(0), 3)));
    double bestCold = 0.0;
    for (const QPointF& point : cold.series(kValAccuracy)) {
        if (point.x() >= epoch)
            bestCold = std::max(bestCold, point.y());
    }
    CLAIM(bestCold <= 0.15, QStringLiteral("without warmup accuracy stays at chance: at most %1 at any evaluation after the first epoch").arg(number(bestCold, 3)));
    const QList<double> lr = valuesOf(warm, QStringLiteral("lr"));
    CLAIM(!lr.isEmpty() && within(lr.first(), 0.125, 0.01) && within(lr.last(), 0.5, 1e-6),
          QStringLiteral("with warmup the LR ramps from %1 (lr / 4) to %2").arg(number(lr.value(0), 3), number(lr.value(lr.size() - 1), 3)));
    const double finalAccuracy = lastOf(warm, kValAccuracy);
    CLAIM(warm.record().status == RunStatus::Finished && finalAccuracy > 0.8,
          QStringLiteral("with warmup it converges: %1, final validation accuracy %2 (above 0.8)").arg(warm.record().statusLine(), number(finalAccuracy, 3)));
}

void TestLessonClaims::seed003Novograd()
{
    const auto runs = runLesson(QStringLiteral("seed003-novograd"));
    QCOMPARE(runs.size(), 3);
    const double sgd = lastOf(*runs[0], kValAccuracy);
    CLAIM(sgd <= 0.15 && runs[0]->record().status == RunStatus::Diverged,
          QStringLiteral("SGD with momentum, no warmup: %1, final validation accuracy %2 (chance)").arg(runs[0]->record().statusLine(), number(sgd, 3)));
    for (int i = 1; i < 3; ++i) {
        const double accuracy = lastOf(*runs[i], kValAccuracy);
        CLAIM(accuracy > 0.8 && runs[i]->record().status == RunStatus::Finished,
              QStringLiteral("%1: final validation accuracy %2 (above 0.8)").arg(runs[i]->label(), number(accuracy, 3)));
    }
}

void TestLessonClaims::seed003Throughput()
{
    const auto runs = runLesson(QStringLiteral("seed003-throughput"), {{QStringLiteral("max_steps"), 5}});
    QCOMPARE(runs.size(), 3);
    // The model of GPUs beside what this computer measured: compute per image from the one-rank
    // run, a ring all-reduce of the CNN's gradients at the lesson's stated bandwidth.
    const ResolvedPreset resolved = resolvePreset(QStringLiteral("seed003-throughput"), m_lessons, m_presets);
    QVERIFY(resolved.throughputModel);
    const ThroughputModel& model = *resolved.throughputModel;
    const double compute = computeSecondsPerSample(*runs[0]);
    const double bytes = gradientBytes(*runs[0]);
    QCOMPARE(bytes, 421642.0 * 4);
    const double one = modelledSamplesPerSecond(1, 64, compute, bytes, model.bandwidthBytesPerSecond);
    const double four = modelledSamplesPerSecond(4, 64, compute, bytes, model.bandwidthBytesPerSecond);
    const double ring = ringAllReduceSeconds(4, bytes, model.bandwidthBytesPerSecond);
    CLAIM(model.bandwidthText() == QStringLiteral("10 GB/s") && std::fabs(one - 1.0 / compute) < 1e-9 / compute &&
              std::fabs(ring - 1.5 * bytes / 1e10) < 1e-15 && four / one > 3.5 && four / one <= 4.0,
          QStringLiteral("the model of GPUs: %1 ms of compute an image (measured on one rank here), a ring all-reduce of %2 MB at %3 "
                         "in %4 ms: %5 images/s on 1 GPU, %6 on 4 (%7x)")
              .arg(number(compute * 1000, 3), number(bytes / 1e6, 3), model.bandwidthText(), number(ring * 1000, 3), number(one, 4),
                   number(four, 4), number(four / one, 3)));
    const int ranks[] = {1, 2, 4};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject config = runs[i]->config();
        const double perStep = valuesOf(*runs[i], QStringLiteral("samples")).value(0);
        const double rate = summaryOf(*runs[i], "samples_per_sec");
        CLAIM(config.value(QStringLiteral("effective_batch_size")).toInt() == 64 * ranks[i] && perStep == 64 * ranks[i] && rate > 0,
              QStringLiteral("%1: each step takes %2 images (64 per rank), and the run reports its images per second (%3 here)")
                  .arg(runs[i]->label(), number(perStep), number(rate, 3)));
    }
}

// ---------------------------------------------------------------------------------------
// Seed 004: DDP averages gradients; Adam is scale-invariant; how the sampler shards
// ---------------------------------------------------------------------------------------

void TestLessonClaims::seed004SgdScaling()
{
    const auto runs = runLesson(QStringLiteral("seed004-sgd-scaling"));
    QCOMPARE(runs.size(), 3);
    const double same = largestDifference(*runs[1], *runs[0], kLoss);
    const double other = largestDifference(*runs[2], *runs[0], kLoss);
    CLAIM(same < 1e-5, QStringLiteral("2 x 5 with lr 2 retraces 1 x 10 with lr 1: losses at most %1 apart, relative").arg(number(same, 2)));
    CLAIM(other > 0.1 && lastOf(*runs[2], kLoss) > lastOf(*runs[0], kLoss),
          QStringLiteral("2 x 5 with lr 1 is slower: up to %1 apart, final loss %2 against %3")
              .arg(number(other, 2), number(lastOf(*runs[2], kLoss), 4), number(lastOf(*runs[0], kLoss), 4)));
}

// The second question: the effective batch doubled. Per epoch (the training-set loss at each
// epoch's end), the same LR falls behind the run it was tuned on; the SDE rule closes most of it.
void TestLessonClaims::seed004AdamLargerBatch()
{
    const auto runs = runLesson(QStringLiteral("seed004-adam-larger-batch"));
    QCOMPARE(runs.size(), 3);
    const QList<double> tuned = valuesOf(*runs[0], QStringLiteral("train_loss"));
    const QList<double> same = valuesOf(*runs[1], QStringLiteral("train_loss"));
    const QList<double> sde = valuesOf(*runs[2], QStringLiteral("train_loss"));
    QCOMPARE(tuned.size(), 6);
    QCOMPARE(same.size(), 6);
    QCOMPARE(sde.size(), 6);
    bool behind = true, closes = true;
    QStringList gaps;
    for (int epoch = 0; epoch < 6; ++epoch) {
        behind = behind && same[epoch] > tuned[epoch];
        closes = closes && sde[epoch] - tuned[epoch] < 0.5 * (same[epoch] - tuned[epoch]);
        gaps.append(QStringLiteral("%1 / %2").arg(number(sde[epoch] - tuned[epoch], 2), number(same[epoch] - tuned[epoch], 2)));
    }
    CLAIM(behind, QStringLiteral("2 x 10 at the same LR is behind 1 x 10 after every epoch: %1 against %2 after the first")
                      .arg(number(same[0]), number(tuned[0])));
    CLAIM(closes, QStringLiteral("the SDE rule closes more than half of that gap at every epoch (its gap / the same LR's: %1)")
                      .arg(gaps.join(QStringLiteral(", "))));
    const double sdeLr = valuesOf(*runs[2], QStringLiteral("lr")).value(0);
    CLAIM(std::fabs(sdeLr - 0.02 * std::sqrt(2.0)) < 1e-12, QStringLiteral("its LR is 0.02 x sqrt(2) = %1").arg(number(sdeLr)));
}

void TestLessonClaims::seed004AdamInvariance()
{
    const auto runs = runLesson(QStringLiteral("seed004-adam-invariance"));
    QCOMPARE(runs.size(), 3);
    const double same = largestDifference(*runs[1], *runs[0], kLoss);
    const double other = largestDifference(*runs[2], *runs[0], kLoss);
    CLAIM(same < 1e-5, QStringLiteral("2 x 5 with lr 1 retraces 1 x 10 with lr 1: losses at most %1 apart, relative").arg(number(same, 2)));
    CLAIM(other > 0.1, QStringLiteral("2 x 5 with lr 2 does not: up to %1 apart, relative").arg(number(other, 2)));
}

void TestLessonClaims::seed004Sharding()
{
    const auto runs = runLesson(QStringLiteral("seed004-sharding"));
    QCOMPARE(runs.size(), 2);
    const Lesson* lesson = m_lessons.find(QStringLiteral("seed004-sharding"));
    QVERIFY(lesson && lesson->sharding);
    // The lesson's own request, as the Sharding page is set to it: padded, since it keeps drop_last off.
    ShardRequest request = *lesson->sharding;
    QVERIFY(!request.dropLast);
    QString error;
    const ddplab::test::EngineResult padded = ddplab::test::runEngine(shardArguments(request));
    const std::optional<ShardAssignment> withPadding = ShardAssignment::fromJson(padded.events.value(0), &error);
    QVERIFY2(withPadding, qPrintable(error));
    // x1 is index 0; process 2 is rank 1; iteration 2 is index 1.
    CLAIM(withPadding->ranks[1][1] == QList<int>({7, 0}) && withPadding->isPadding(1, 1, 1),
          QStringLiteral("padded: process 2 gets x8 x1 in iteration 2, x1 a repeat (padding)"));
    request.dropLast = true;
    const ddplab::test::EngineResult dropping = ddplab::test::runEngine(shardArguments(request));
    const std::optional<ShardAssignment> withDrop = ShardAssignment::fromJson(dropping.events.value(0), &error);
    QVERIFY2(withDrop, qPrintable(error));
    CLAIM(withDrop->dropped == QList<int>({8}) && withDrop->ranks[1][1] == QList<int>({7}),
          QStringLiteral("drop_last: x9 is dropped, process 2 gets x8 alone in iteration 2"));
    const QList<double> paddedSamples = valuesOf(*runs[0], QStringLiteral("samples"));
    const QList<double> droppedSamples = valuesOf(*runs[1], QStringLiteral("samples"));
    CLAIM(paddedSamples == QList<double>({6, 4}) && droppedSamples == QList<double>({6, 2}),
          QStringLiteral("the runs train on what the sampler gives: 6 then 4 samples padded, 6 then 2 with drop_last"));
}

// ---------------------------------------------------------------------------------------
// What every lesson owes its charts, and that none goes unchecked
// ---------------------------------------------------------------------------------------

void TestLessonClaims::runsOfUnlikeBatchesAreComparedPerSampleOrEpoch()
{
    // On the step axis runs of unlike batches are stubs of different lengths: seed 000's 8 x 16
    // runs are 2 steps at the left edge of 1 x 16's 16.
    for (const Lesson& lesson : m_lessons.lessons()) {
        const ResolvedPreset resolved = resolvePreset(lesson.id, m_lessons, m_presets);
        QVERIFY2(resolved.error.isEmpty(), qPrintable(resolved.error));  // each run's settings read as the engine reads them
        QSet<qint64> batches;
        for (const RunRequest& run : resolved.runs)
            batches.insert(ddplab::effectiveBatchSize(run.config));
        if (batches.size() > 1 && lesson.xAxis != XAxis::WallTime)
            QVERIFY2(lesson.xAxis == XAxis::SamplesSeen || lesson.xAxis == XAxis::Epoch,
                     qPrintable(QStringLiteral("%1 compares effective batches %2 on the step axis").arg(lesson.id).arg(batches.size())));
    }
}

void TestLessonClaims::onlyTheRunMeantToFailDiverged()
{
    // A diverged status that came too easily would mark a lesson's healthy runs (Adam at twice
    // its LR, the noisy toy runs) as failures.
    const QString meantToFail = QStringLiteral("seed003-sgd-momentum-b256-lr05-no-warmup");
    const BuiltInPreset* failing = m_presets.find(meantToFail);
    QVERIFY(failing);
    QVERIFY(m_finished.size() > 30);
    // The preset's settings as the session hands them to RunData: typed, then every key as JSON.
    const std::optional<ddplab::Config> failingConfig = coreConfigOf(failing->config);
    QVERIFY(failingConfig);
    const QJsonObject failingRequest = presetFromCoreConfig(*failingConfig);
    for (const QSharedPointer<RunData>& run : std::as_const(m_finished)) {
        const RunStatus expected = run->requestedConfig() == failingRequest ? RunStatus::Diverged : RunStatus::Finished;
        QVERIFY2(run->record().status == expected, qPrintable(run->label() + QStringLiteral(": ") + run->record().statusLine()));
    }
    // The lessons whose runs branch: only the run meant to fail (a rank killed on purpose) failed.
    for (const auto& [run, meantToFail] : std::as_const(m_branched)) {
        const RunStatus expected = meantToFail ? RunStatus::Failed : RunStatus::Finished;
        QVERIFY2(run->record().status == expected, qPrintable(run->label() + QStringLiteral(": ") + run->record().statusLine()));
    }
}

// ---------------------------------------------------------------------------------------
// Smith et al. 2018: grow the batch instead of decaying the LR
// ---------------------------------------------------------------------------------------

void TestLessonClaims::smithGrowTheBatch()
{
    const auto runs = runLesson(QStringLiteral("smith-grow-the-batch"));
    QCOMPARE(runs.size(), 2);
    const RunData& decayed = *runs[0];
    const RunData& grown = *runs[1];
    const double decayedLoss = lastOf(decayed, QStringLiteral("train_loss"));
    const double grownLoss = lastOf(grown, QStringLiteral("train_loss"));
    CLAIM(within(grownLoss, decayedLoss, 1e-4),
          QStringLiteral("both end at the same training loss: %1 and %2").arg(number(decayedLoss, 7), number(grownLoss, 7)));
    CLAIM(decayed.stepCount() == 512 && grown.stepCount() == 240,
          QStringLiteral("%1 optimizer steps against %2 on the same %3 samples")
              .arg(decayed.stepCount())
              .arg(grown.stepCount())
              .arg(summaryOf(grown, "samples")));
    const QList<double> grownLr = valuesOf(grown, QStringLiteral("lr"));
    const QList<double> decayedLr = valuesOf(decayed, QStringLiteral("lr"));
    CLAIM(std::all_of(grownLr.begin(), grownLr.end(), [](double lr) { return lr == 0.05; }) && decayedLr.last() == 0.05 / 8,
          QStringLiteral("the growing run keeps lr 0.05; the decayed one ends at %1").arg(number(decayedLr.last())));
    QList<double> batches = valuesOf(grown, QStringLiteral("effective_batch"));
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    CLAIM(batches == (QList<double>{4, 8, 16, 32}),
          QStringLiteral("its effective batch goes %1, one doubling an epoch").arg([&] {
              QStringList text;
              for (double batch : batches)
                  text.append(number(batch));
              return text.join(QStringLiteral(", "));
          }()));
}

// ---------------------------------------------------------------------------------------
// Issue 43: the critical batch by branching, a rank that fails
// ---------------------------------------------------------------------------------------

// 8 GPUs of 16 and 2 ranks x 4 micro-batches of 16 with accumulate_as_ranks: the same losses, bit
// for bit, on a model with BatchNorm; plain accumulation, the same 128 images a step grouped into
// other batches of 16, trains differently from its first step.
void TestLessonClaims::microBatchesStandForGpus()
{
    const auto runs = runLesson(QStringLiteral("micro-batches-stand-for-gpus"));
    QCOMPARE(runs.size(), 3);
    const QList<double> gpus = valuesOf(*runs[0], kLoss);
    const QList<double> emulated = valuesOf(*runs[1], kLoss);
    const QList<double> plain = valuesOf(*runs[2], kLoss);
    QVERIFY(!gpus.isEmpty());
    // A float's last bits: the additions come in another order (8 ranks' all-reduce against 4
    // micro-batches on each of 2 ranks), which moves a sum by a unit in its last place.
    constexpr double kFloatRounding = 2e-6;
    const double apartEmulated = largestDifference(*runs[1], *runs[0], kLoss);
    qsizetype identical = 0;
    for (qsizetype i = 0; i < gpus.size() && i < emulated.size(); ++i)
        identical += gpus[i] == emulated[i];
    CLAIM(apartEmulated < kFloatRounding && runs[0]->config().value(QStringLiteral("effective_batch_size")).toInt() == 128 &&
              runs[1]->config().value(QStringLiteral("effective_batch_size")).toInt() == 128,
          QStringLiteral("8 x 16 and 2 x 4 micro-batches x 16 as GPUs: the same loss at each of %1 steps to a float's last bits "
                         "(at most %2 apart, relative; %3 steps bit for bit)")
              .arg(gpus.size())
              .arg(number(apartEmulated, 2))
              .arg(identical));
    const double apart = std::fabs(plain.value(0) - gpus.value(0)) / gpus.value(0);
    CLAIM(plain.size() == gpus.size() && apart > 1e-4,
          QStringLiteral("plain accumulation differs from the first step: %1 against %2 (BatchNorm over other groups of 16)")
              .arg(QString::number(plain.value(0), 'g', 6), QString::number(gpus.value(0), 'g', 6)));
}

// Branches from one checkpoint at batches 4 to 128, each on the same 256 samples with the LR
// scaled linearly: level (within 2.5 % of batch 4's training loss) up to the critical batch, 16
// here, behind from 32 on.
void TestLessonClaims::criticalBatchBranches()
{
    const auto runs = runLesson(QStringLiteral("critical-batch-branches"));
    QCOMPARE(runs.size(), 7);
    QCOMPARE(runs[0]->checkpoints().size(), 1);
    constexpr double kLevel = 0.025;  // relative to the smallest batch's loss: "equal loss"
    QList<qint64> batches;
    QList<double> losses;
    bool fromTheCheckpoint = true;
    for (qsizetype i = 1; i < runs.size(); ++i) {
        batches.append(runs[i]->config().value(QStringLiteral("effective_batch_size")).toInteger());
        losses.append(lastOf(*runs[i], QStringLiteral("train_loss")));
        // The summary counts from the first run's start (the checkpoint's 80 samples too): the
        // branch's own steps say what it trained on.
        const QList<double> samples = valuesOf(*runs[i], QStringLiteral("samples"));
        fromTheCheckpoint = fromTheCheckpoint && runs[i]->steps().value(0) == 21 &&
                            std::accumulate(samples.begin(), samples.end(), 0.0) == 256.0 && summaryOf(*runs[i], "samples") == 336.0;
    }
    CLAIM(fromTheCheckpoint && batches == (QList<qint64>{4, 8, 16, 32, 64, 128}),
          QStringLiteral("every branch starts at step 21 from the checkpoint after step 20 and trains on 256 samples"));
    qint64 critical = 0;
    QStringList said;
    for (qsizetype i = 0; i < losses.size(); ++i) {
        const bool level = losses[i] <= (1 + kLevel) * losses[0];
        if (level && critical == batches[i] / 2)
            critical = batches[i];
        if (i == 0)
            critical = batches[0];
        said.append(QStringLiteral("%1: %2 (%3%4 %)").arg(batches[i]).arg(number(losses[i], 4)).arg(losses[i] >= losses[0] ? QStringLiteral("+") : QString())
                        .arg(number(100 * (losses[i] / losses[0] - 1), 2)));
    }
    CLAIM(critical == 16 && losses[3] > (1 + kLevel) * losses[0] && losses[4] > losses[3] && losses[5] > losses[4],
          QStringLiteral("the training loss after 256 samples stays within 2.5 % of batch 4's up to batch %1, the critical batch, "
                         "and falls behind beyond it: %2")
              .arg(critical)
              .arg(said.join(QStringLiteral(", "))));
}

// Rank 2 of 4 killed at step 30: the run stops within seconds, names rank 2, keeps its 29 steps
// and its checkpoints; resumed from the checkpoint after step 20 it trains what the run that
// never failed trained, bit for bit. The failure was meant: the lesson's sequence succeeds.
void TestLessonClaims::aRankFails()
{
    const auto runs = runLesson(QStringLiteral("a-rank-fails"));
    QCOMPARE(runs.size(), 3);
    const RunData& killed = *runs[0];
    const RunData& resumed = *runs[1];
    const RunData& straight = *runs[2];
    const qint64 last = killed.stepCount();
    const double afterLastStep = double(killed.record().started.msecsTo(killed.record().finished)) / 1000.0 -
                                 killed.xAt(last, XAxis::WallTime);
    const int rank = killed.error().value(QStringLiteral("rank")).toInt(-1);
    CLAIM(killed.record().status == RunStatus::Failed && rank == 2 && killed.record().error.contains(QStringLiteral("rank 2")),
          QStringLiteral("the run is %1, the error names rank %2: \"%3\"").arg(statusText(killed.record().status)).arg(rank).arg(killed.record().error));
    // "Within seconds" as the lesson says it: the figure is the run's whole time less its last
    // step's wall clock, which counts from training's start, so the engine's start-up (loading
    // LibTorch, four ranks meeting) is in it too. 5 s held on the Xeon the bound was set on; a
    // slower 2-core machine (an EPYC, this suite beside another) took 6.6 s, start-up mostly.
    // tst_faults bounds the engine's own stops (a cancel, a stuck rank) in milliseconds.
    CLAIM(afterLastStep < 10.0, QStringLiteral("it ended %1 s after its last step's wall clock (its start-up included)").arg(number(afterLastStep, 2)));
    CLAIM(last == 29 && killed.checkpoints().size() == 2 && QFileInfo::exists(RunStore::eventsPath(killed.record())),
          QStringLiteral("nothing it did is lost: %1 steps stored, checkpoints after steps 10 and 20 (%2 written)")
              .arg(last)
              .arg(killed.checkpoints().size()));
    const QList<QPointF>& resumedLoss = resumed.series(kLoss);
    const QList<QPointF>& straightLoss = straight.series(kLoss);
    bool same = !resumedLoss.isEmpty() && resumedLoss.first().x() == 21 && straightLoss.size() == 48;
    for (const QPointF& point : resumedLoss)
        same = same && point.y() == straightLoss.value(qsizetype(point.x()) - 1).y();
    CLAIM(same && resumed.record().status == RunStatus::Finished,
          QStringLiteral("resumed from the checkpoint after step 20, steps %1 to %2 have the losses of the run never killed, bit for bit")
              .arg(resumedLoss.value(0).x())
              .arg(resumedLoss.isEmpty() ? 0 : resumedLoss.last().x()));
    CLAIM(m_sequenceEnded, QStringLiteral("the failure was the lesson's: its sequence ends as succeeded (headless exit code 0)"));
}

void TestLessonClaims::everyLessonIsChecked()
{
    QStringList checked = m_checked;
    checked.sort();
    checked.removeDuplicates();
    QCOMPARE(checked, m_lessons.ids());
}

DDPLAB_UI_TEST_MAIN(TestLessonClaims)
#include "tst_lesson_claims.moc"
