// SPDX-License-Identifier: GPL-3.0-or-later
// bench/advisor_panel.py, the advisor's ground-truth panel (issue 46 §2): on runs whose answer is
// known, its right batch set, LR band, batch verdict and regret are the ones worked out by hand;
// its reduced panel (two small models, a tiny grid, a 0.2-minute advice, three Optuna trials) says
// what its own runs and the advice it asked for say, recomputed here from the numbers it wrote; one
// of its runs trained again by the engine gives the number it kept; after the engine changed, a
// second panel trains one run of each model again and, its number the same, keeps the rest and says
// the same; with its runs gone (a wiped machine) it judges a new advice against the truth it recorded
// and says what it said with every run kept; the recorded truth of the eight models is what
// docs/benchmarks.md's tables say, and judges rows worked out by hand as by hand; a model it does not
// have gets one sentence and exit code 2. The first reduced panel runs as a user runs it; the
// later ones, the record's check and the unknown model are forks of one python3 that has imported
// torch (tests/support/forked_python.hpp), as `python3 bench/advisor_panel.py ...` would run them.

#include "client/advisor/advice_estimate.hpp"
#include "support/engine_process.hpp"
#include "support/forked_python.hpp"
#include "support/prerequisites.hpp"
#include "ui_test_main.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <vector>

namespace {

constexpr int kPanelPatienceMs = 600000;
constexpr double kTolerance = 0.02;  // the advisor's stated tolerance, as the panel judges the batch

struct PanelOutcome {
    int exitCode = -1;
    QString out, err;
};

// The panel started by itself, as a user starts it.
PanelOutcome runPanel(const QStringList& arguments)
{
    QProcess panel;
    panel.start(ddplab::test::debianPython(), QStringList{QStringLiteral(DDPLAB_SOURCE_DIR "/bench/advisor_panel.py")} + arguments);
    PanelOutcome outcome;
    if (!panel.waitForFinished(kPanelPatienceMs))
        return outcome;
    outcome.exitCode = panel.exitStatus() == QProcess::NormalExit ? panel.exitCode() : -1;
    outcome.out = QString::fromUtf8(panel.readAllStandardOutput());
    outcome.err = QString::fromUtf8(panel.readAllStandardError());
    return outcome;
}

// The panel forked from `python`, which has imported torch (the panel's models need it): about
// 2 s of CPU less than its own start. A panel past kPanelPatienceMs is killed (exit -9).
PanelOutcome forkPanel(ddplab::test::ForkedPython& python, const QStringList& arguments)
{
    const ddplab::test::PythonExit exit =
        python.run(QStringList{QStringLiteral(DDPLAB_SOURCE_DIR "/bench/advisor_panel.py")} + arguments, kPanelPatienceMs / 1000);
    return {exit.code, exit.out, exit.err};
}

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

double measureOf(const QJsonValue& value)
{
    return value.isDouble() ? value.toDouble() : INFINITY;  // null: the run diverged
}

// seed -> measure
using Seeds = std::map<QString, double>;
// lr -> seeds, at one batch
using Ladder = std::map<double, Seeds>;

Seeds seedsOf(const QJsonObject& object)
{
    Seeds seeds;
    for (auto it = object.begin(); it != object.end(); ++it)
        seeds[it.key()] = measureOf(it.value());
    return seeds;
}

double meanOf(const Seeds& seeds)
{
    double sum = 0;
    for (const auto& [seed, value] : seeds)
        sum += value;
    return sum / double(seeds.size());
}

// The LR of the lowest mean at a batch, and that mean.
std::pair<double, double> bestOf(const Ladder& ladder)
{
    std::pair<double, double> best{0.0, INFINITY};
    for (const auto& [lr, seeds] : ladder) {
        if (meanOf(seeds) < best.second)
            best = {lr, meanOf(seeds)};
    }
    return best;
}

std::map<int, Ladder> gridOf(const QJsonObject& recorded)
{
    std::map<int, Ladder> grid;
    for (auto batch = recorded.begin(); batch != recorded.end(); ++batch) {
        const QJsonObject ladder = batch.value().toObject();
        for (auto lr = ladder.begin(); lr != ladder.end(); ++lr)
            grid[batch.key().toInt()][lr.key().toDouble()] = seedsOf(lr.value().toObject());
    }
    return grid;
}

QList<int> intsOf(const QJsonValue& array)
{
    QList<int> values;
    for (const QJsonValue& value : array.toArray())
        values.append(value.toInt());
    return values;
}

// Runs whose answer is worked out by hand (two seeds each; the best LR at each batch is interior
// unless said): batch 64 is the best (mean 1.00 at LR 0.2; 0.4 is within 2 % of it, 0.1 is not);
// batch 128's best is 1 % above batch 64's in both seeds (right); 256's 5 % in both (wrong); 512's
// 0 % and 6 % (mean 3 %, standard error 3 %: outside 2 %, but by less than two standard errors).
const char* const kKnownGrid = R"({"grid": {
  "64":  {"0.1": {"1": 1.02, "2": 1.04}, "0.2": {"1": 0.99, "2": 1.01}, "0.4": {"1": 1.01, "2": 1.01}, "0.8": {"1": 1.10, "2": 1.12}},
  "128": {"0.2": {"1": 1.05, "2": 1.07}, "0.4": {"1": 0.9999, "2": 1.0201}, "0.8": {"1": 1.2, "2": 1.2}},
  "256": {"0.4": {"1": 1.2, "2": 1.2}, "0.8": {"1": 1.0395, "2": 1.0605}, "1.6": {"1": 1.3, "2": 1.3}},
  "512": {"0.8": {"1": 1.3, "2": 1.3}, "1.6": {"1": 0.99, "2": 1.0706}, "3.2": {"1": null, "2": Infinity}}},
  "advised_batch": ADVISED, "advised": {"1": 1.0403, "2": 1.0403}})";

}  // namespace

class TestAdvisorPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void knownRunsGiveTheRightSetTheBandAndTheVerdict_data();
    void knownRunsGiveTheRightSetTheBandAndTheVerdict();
    void theReducedPanelSaysWhatItsRunsAndItsAdviceSay();
    void afterTheEngineChangedOneRunAModelIsTrainedAgainAndTheRestStands();
    void withItsRunsGoneItJudgesAgainstTheTruthItRecorded();
    void theRecordedTruthIsTheDocsTablesAndJudgesByHand();
    void aModelItDoesNotHaveGetsOneSentence();

private:
    QTemporaryDir m_folder;
    QJsonObject m_first;  // the reduced panel's first answer
    ddplab::test::ForkedPython m_python;
};

void TestAdvisorPanel::initTestCase()
{
    QVERIFY(m_folder.isValid());
    if (const QString missing = ddplab::test::missingPythonOptuna(); !missing.isEmpty())
        QFAIL(qPrintable(missing));
    // The reduced panel's 0.2-minute advice with its cost pinned (advice_estimate.hpp; the panel
    // passes its environment to ddplab): beside other suites at load 5 its measured plan held no
    // confirmation and it ended with "no LR trained" (exit 1); this suite is about the panel's
    // bookkeeping, not the advisor's timing. Pinned at F = 1 logreg's 12 s held no confirmation
    // either, at 0.5 tabular_adamw's; at 0.25 both do, whatever the load (2026-11-30).
    qputenv(ddplab::ui::kPinnedCostVariable, "0.25");
    // Started after that: the panels forked from it have the same environment. It imports torch
    // and numpy, or says what installs them.
    if (const QString missing = m_python.start(QStringLiteral(DDPLAB_SOURCE_DIR "/tests/tools/forked_python.py")); !missing.isEmpty())
        QFAIL(qPrintable(missing));
}

void TestAdvisorPanel::knownRunsGiveTheRightSetTheBandAndTheVerdict_data()
{
    QTest::addColumn<int>("advised");
    QTest::addColumn<QString>("verdict");
    QTest::newRow("in the right set") << 128 << QStringLiteral("right");
    QTest::newRow("outside within noise") << 512 << QStringLiteral("within noise");
    QTest::newRow("outside") << 256 << QStringLiteral("wrong");
}

void TestAdvisorPanel::knownRunsGiveTheRightSetTheBandAndTheVerdict()
{
    QFETCH(int, advised);
    QFETCH(QString, verdict);
    const QString path = m_folder.filePath(QStringLiteral("known.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QByteArray(kKnownGrid).replace("ADVISED", QByteArray::number(advised)));
    file.close();
    const PanelOutcome outcome = runPanel({QStringLiteral("--analyse"), path});
    QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.err));
    const QJsonObject answer = QJsonDocument::fromJson(outcome.out.toUtf8()).object();
    const QJsonObject truth = answer.value(QStringLiteral("truth")).toObject();
    QCOMPARE(truth.value(QStringLiteral("best_batch")).toInt(), 64);
    QCOMPARE(intsOf(truth.value(QStringLiteral("right_set"))), (QList<int>{64, 128}));
    QCOMPARE(truth.value(QStringLiteral("largest_right")).toInt(), 128);
    const QJsonArray rows = truth.value(QStringLiteral("rows")).toArray();
    QCOMPARE(rows.size(), 4);
    const QJsonObject at64 = rows.at(0).toObject(), at128 = rows.at(1).toObject(), at256 = rows.at(2).toObject(),
                      at512 = rows.at(3).toObject();
    // The band at 64: 0.2 (the best) and 0.4 (1 % above it); 0.1 is 3 % above.
    QCOMPARE(at64.value(QStringLiteral("best_lr")).toDouble(), 0.2);
    QCOMPARE(at64.value(QStringLiteral("band")).toObject().value(QStringLiteral("low")).toDouble(), 0.2);
    QCOMPARE(at64.value(QStringLiteral("band")).toObject().value(QStringLiteral("high")).toDouble(), 0.4);
    QVERIFY(!at64.value(QStringLiteral("band")).toObject().value(QStringLiteral("at_edge")).toBool());
    QVERIFY(qAbs(at128.value(QStringLiteral("excess")).toDouble() - 0.01) < 1e-12);
    QVERIFY(qAbs(at128.value(QStringLiteral("excess_se")).toDouble()) < 1e-12);
    QVERIFY(qAbs(at256.value(QStringLiteral("excess")).toDouble() - 0.05) < 1e-12);
    QVERIFY(!at256.value(QStringLiteral("within_noise")).toBool());
    QVERIFY(qAbs(at512.value(QStringLiteral("excess")).toDouble() - 0.03) < 1e-12);
    QVERIFY(qAbs(at512.value(QStringLiteral("excess_se")).toDouble() - 0.03) < 1e-12);
    QVERIFY(at512.value(QStringLiteral("within_noise")).toBool());
    QCOMPARE(at512.value(QStringLiteral("best_lr")).toDouble(), 1.6);  // not the diverged 3.2
    QCOMPARE(answer.value(QStringLiteral("verdict")).toString(), verdict);
    // The advised settings' mean (1.0403) against the best mean at their batch.
    const double best = advised == 128 ? 1.01 : advised == 256 ? 1.05 : (0.99 + 1.0706) / 2;
    const QJsonObject regret = answer.value(QStringLiteral("lr_regret")).toObject();
    QVERIFY2(qAbs(regret.value(QStringLiteral("regret")).toDouble() - (1.0403 / best - 1)) < 1e-12,
             qPrintable(QString::number(regret.value(QStringLiteral("regret")).toDouble())));
}

void TestAdvisorPanel::theReducedPanelSaysWhatItsRunsAndItsAdviceSay()
{
    const QString cache = m_folder.filePath(QStringLiteral("cache"));
    const QString out = m_folder.filePath(QStringLiteral("panel.json"));
    const PanelOutcome outcome = runPanel({QStringLiteral("--reduced"), QStringLiteral("--cache"), cache, QStringLiteral("--out"), out});
    QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.err.right(3000)));
    m_first = readJson(out);
    const QJsonArray results = m_first.value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 2);
    QVERIFY(m_first.value(QStringLiteral("trained")).toInt() > 0);
    for (const QJsonValue& value : results) {
        const QJsonObject result = value.toObject();
        const QString model = result.value(QStringLiteral("model")).toString();
        const std::map<int, Ladder> grid = gridOf(result.value(QStringLiteral("grid")).toObject());
        QVERIFY2(grid.size() >= 2, qPrintable(model));
        // The right batch set again from the runs: each batch's best mean, paired over the seeds
        // with the best batch's, within 2 %.
        int top = 0;
        double topMean = INFINITY;
        for (const auto& [batch, ladder] : grid) {
            QVERIFY2(ladder.size() >= 3, qPrintable(model));
            for (const auto& [lr, seeds] : ladder) {
                QCOMPARE(int(seeds.size()), 2);
                for (const auto& [seed, measure] : seeds)
                    QVERIFY2(measure > 0, qPrintable(model));  // a loss, or infinite where the run diverged
            }
            if (bestOf(ladder).second < topMean)
                std::tie(top, topMean) = std::make_pair(batch, bestOf(ladder).second);
        }
        const QJsonObject truth = result.value(QStringLiteral("truth")).toObject();
        QCOMPARE(truth.value(QStringLiteral("best_batch")).toInt(), top);
        const Seeds& topSeeds = grid.at(top).at(bestOf(grid.at(top)).first);
        QList<int> right;
        for (const auto& [batch, ladder] : grid) {
            const Seeds& seeds = ladder.at(bestOf(ladder).first);
            double excess = 0;
            for (const auto& [seed, measure] : seeds)
                excess += (measure / topSeeds.at(seed) - 1) / double(seeds.size());
            if (excess <= kTolerance)
                right.append(batch);
        }
        QCOMPARE(intsOf(truth.value(QStringLiteral("right_set"))), right);

        // The advice the panel asked for, as the advisor wrote it.
        const QJsonObject advice = result.value(QStringLiteral("advice")).toObject();
        const QStringList kept = QDir(cache + QStringLiteral("/advice")).entryList({model + QStringLiteral("-0.2-*.json")});
        QCOMPARE(kept.size(), 1);
        const QJsonObject written = readJson(cache + QStringLiteral("/advice/") + kept.first());
        const int advisedBatch = written.value(QStringLiteral("gpus")).toInt() * written.value(QStringLiteral("batch_per_gpu")).toInt();
        QCOMPARE(advice.value(QStringLiteral("batch")).toInt(), advisedBatch);
        QCOMPARE(advice.value(QStringLiteral("lr")).toDouble(),
                 written.value(QStringLiteral("recommended_settings")).toObject().value(QStringLiteral("lr")).toDouble());
        QCOMPARE(advice.value(QStringLiteral("confidence")).toString(),
                 written.value(QStringLiteral("confidence")).toObject().value(QStringLiteral("level")).toString());
        // The held-out seeds are none the advisor used.
        const QList<int> heldOut = intsOf(result.value(QStringLiteral("seeds")));
        for (const QJsonValue& run : written.value(QStringLiteral("evidence")).toArray())
            QVERIFY2(!heldOut.contains(run.toObject().value(QStringLiteral("seed")).toInt()), qPrintable(model));
        QVERIFY(advice.value(QStringLiteral("held_out")).toBool());
        QCOMPARE(result.value(QStringLiteral("verdict")).toString() == QStringLiteral("right"), right.contains(advisedBatch));
        // The regret: the advised settings' mean over the held-out seeds against the best mean at its batch.
        QVERIFY2(grid.count(advisedBatch), qPrintable(model));
        const Seeds advised = seedsOf(advice.value(QStringLiteral("measures")).toObject());
        QCOMPARE(int(advised.size()), heldOut.size());
        const double regret = meanOf(advised) / bestOf(grid.at(advisedBatch)).second - 1;
        const double said = result.value(QStringLiteral("lr_regret")).toObject().value(QStringLiteral("regret")).toDouble();
        QVERIFY2(qAbs(said - regret) < 1e-12, qPrintable(QStringLiteral("%1: %2 against %3").arg(model).arg(said).arg(regret)));

        // Where the decision is made, more held-out seeds (four here, 16 in the full panel): the whole
        // ladder at the advised batch, at the truth's best batch and at Optuna's, the advice and
        // Optuna's best on the same seeds; the regret, its paired standard error, the band and the
        // batch verdict (against the best of those batches on these seeds) from them.
        const QJsonObject decisive = result.value(QStringLiteral("decisive")).toObject();
        const QList<int> more = intsOf(decisive.value(QStringLiteral("seeds")));
        QCOMPARE(more, (QList<int>{1001, 1002, 1003, 1004}));
        const std::map<int, Ladder> rows = gridOf(decisive.value(QStringLiteral("rows")).toObject());
        const int optunaBatch = result.value(QStringLiteral("optuna")).toObject().value(QStringLiteral("batch")).toInt();
        const std::set<int> asked{advisedBatch, top, optunaBatch};
        QCOMPARE(int(rows.size()), int(asked.size()));
        for (const int batch : asked)
            QVERIFY2(rows.count(batch), qPrintable(QStringLiteral("%1: no ladder at %2").arg(model).arg(batch)));
        for (const auto& [batch, ladder] : rows) {
            QVERIFY2(ladder.size() >= grid.at(batch).size(), qPrintable(model));  // the whole row, every LR the truth has
            for (const auto& [lr, seeds] : ladder) {
                QCOMPARE(int(seeds.size()), more.size());
                // The truth's seeds are the same runs (kept), the two more new.
                if (grid.at(batch).count(lr))
                    for (const auto& [seed, measure] : grid.at(batch).at(lr))
                        QCOMPARE(seeds.at(seed), measure);
            }
        }
        const Seeds advisedMore = seedsOf(decisive.value(QStringLiteral("measures")).toObject().value(QStringLiteral("advice")).toObject());
        QCOMPARE(int(advisedMore.size()), more.size());
        for (const auto& [seed, measure] : advised)
            QCOMPARE(advisedMore.at(seed), measure);
        const auto [moreLr, moreBest] = bestOf(rows.at(advisedBatch));
        QVERIFY2(qAbs(decisive.value(QStringLiteral("regret")).toDouble() - (meanOf(advisedMore) / moreBest - 1)) < 1e-12,
                 qPrintable(model));
        std::vector<double> ratios;
        for (const auto& [seed, measure] : advisedMore)
            ratios.push_back(measure / rows.at(advisedBatch).at(moreLr).at(seed) - 1);
        const double ratioMean = std::accumulate(ratios.begin(), ratios.end(), 0.0) / double(ratios.size());
        double squares = 0;
        for (const double r : ratios)
            squares += (r - ratioMean) * (r - ratioMean);
        const double pairedSe = std::sqrt(squares / double(ratios.size() - 1) / double(ratios.size()));
        QVERIFY2(qAbs(decisive.value(QStringLiteral("regret_se")).toDouble() - pairedSe) < 1e-12, qPrintable(model));
        int moreTop = 0;
        double moreTopMean = INFINITY;
        for (const auto& [batch, ladder] : rows)
            if (bestOf(ladder).second < moreTopMean)
                std::tie(moreTop, moreTopMean) = std::make_pair(batch, bestOf(ladder).second);
        QCOMPARE(decisive.value(QStringLiteral("best_batch")).toInt(), moreTop);
        QCOMPARE(decisive.value(QStringLiteral("truth_best_batch")).toInt(), top);
        if (advisedBatch == moreTop) {
            QCOMPARE(decisive.value(QStringLiteral("verdict")).toString(), QStringLiteral("right"));
        } else {
            // The advised batch's best against that batch's, paired over the seeds.
            const Seeds& mine = rows.at(advisedBatch).at(moreLr);
            const Seeds& theirs = rows.at(moreTop).at(bestOf(rows.at(moreTop)).first);
            double excess = 0;
            for (const auto& [seed, measure] : mine)
                excess += (measure / theirs.at(seed) - 1) / double(mine.size());
            QVERIFY2(qAbs(decisive.value(QStringLiteral("excess")).toDouble() - excess) < 1e-12, qPrintable(model));
            QCOMPARE(decisive.value(QStringLiteral("verdict")).toString() == QStringLiteral("right"), excess <= kTolerance);
        }

        // Optuna's answer: its best trial within the advice's time, re-measured on the held-out seeds.
        const QJsonObject optuna = result.value(QStringLiteral("optuna")).toObject();
        const QJsonArray trials = optuna.value(QStringLiteral("trial_log")).toArray();
        QVERIFY(!trials.isEmpty() && trials.size() <= 3);
        QJsonArray best = trials.first().toArray();
        for (const QJsonValue& trial : trials) {
            const QJsonArray t = trial.toArray();
            if (t.at(3).toDouble() <= optuna.value(QStringLiteral("seconds")).toDouble() && t.at(2).toDouble() < best.at(2).toDouble())
                best = t;
        }
        QCOMPARE(optuna.value(QStringLiteral("batch")).toInt(), 8 * best.at(0).toInt());
        QCOMPARE(optuna.value(QStringLiteral("lr")).toDouble(), best.at(1).toDouble());
        const double optunaHeldOut = meanOf(seedsOf(optuna.value(QStringLiteral("measures")).toObject()));
        QVERIFY(qAbs(optuna.value(QStringLiteral("held_out")).toDouble() - optunaHeldOut) < 1e-12);
        QCOMPARE(result.value(QStringLiteral("advice_wins")).toBool(), meanOf(advised) <= optunaHeldOut);
        const Seeds optunaMore = seedsOf(decisive.value(QStringLiteral("measures")).toObject().value(QStringLiteral("optuna")).toObject());
        QCOMPARE(int(optunaMore.size()), more.size());
        QVERIFY(qAbs(decisive.value(QStringLiteral("optuna_held_out")).toDouble() - meanOf(optunaMore)) < 1e-12);
        QCOMPARE(decisive.value(QStringLiteral("advice_wins")).toBool(), meanOf(advisedMore) <= meanOf(optunaMore));

        // One of its runs trained again here gives the number it kept.
        const QJsonObject witness = result.value(QStringLiteral("witness")).toObject();
        const ddplab::test::EngineResult again = ddplab::test::runConfig(witness.value(QStringLiteral("config")).toObject());
        REQUIRE_OK(again);
        const double measure = again.last(QStringLiteral("summary")).value(QStringLiteral("val_loss")).toDouble();
        QVERIFY2(qAbs(measure / witness.value(QStringLiteral("measure")).toDouble() - 1) < 1e-5,
                 qPrintable(QStringLiteral("%1: %2 against %3").arg(model).arg(measure).arg(witness.value(QStringLiteral("measure")).toDouble())));
    }
}

void TestAdvisorPanel::afterTheEngineChangedOneRunAModelIsTrainedAgainAndTheRestStands()
{
    QVERIFY2(!m_first.isEmpty(), "the reduced panel ran first");
    // Every kept run as if another engine had trained it.
    const QString cache = m_folder.filePath(QStringLiteral("cache"));
    QFile runs(cache + QStringLiteral("/runs.jsonl"));
    QVERIFY(runs.open(QIODevice::ReadOnly));
    QByteArray rewritten;
    int kept = 0;
    for (const QByteArray& line : runs.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonObject record = QJsonDocument::fromJson(line).object();
        record.insert(QStringLiteral("engine_commit"), QStringLiteral("0123456789ab"));
        rewritten += QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
        ++kept;
    }
    runs.close();
    QVERIFY(kept > 20);
    QVERIFY(runs.open(QIODevice::WriteOnly | QIODevice::Truncate));
    runs.write(rewritten);
    runs.close();

    const QString out = m_folder.filePath(QStringLiteral("again.json"));
    const PanelOutcome outcome = forkPanel(m_python, {QStringLiteral("--reduced"), QStringLiteral("--cache"), cache, QStringLiteral("--out"), out});
    QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.err.right(3000)));
    const QJsonObject again = readJson(out);
    // One run of each model trained again, its number the same: the rest of its runs stand.
    QCOMPARE(again.value(QStringLiteral("trained")).toInt(), 2);
    QFile checks(cache + QStringLiteral("/checks.jsonl"));
    QVERIFY(checks.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = checks.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    for (const QByteArray& line : lines) {
        const QJsonObject check = QJsonDocument::fromJson(line).object();
        QCOMPARE(check.value(QStringLiteral("from")).toString(), QStringLiteral("0123456789ab"));
        QVERIFY2(check.value(QStringLiteral("same")).toBool(), line.constData());
    }
    const QJsonArray first = m_first.value(QStringLiteral("results")).toArray(), second = again.value(QStringLiteral("results")).toArray();
    QCOMPARE(second.size(), first.size());
    for (int i = 0; i < first.size(); ++i) {
        for (const char* key : {"truth", "lr_regret", "verdict", "advice", "decisive"})
            QVERIFY2(second.at(i).toObject().value(QLatin1String(key)) == first.at(i).toObject().value(QLatin1String(key)), key);
    }
}

void TestAdvisorPanel::withItsRunsGoneItJudgesAgainstTheTruthItRecorded()
{
    QVERIFY2(!m_first.isEmpty(), "the reduced panel ran first");
    // The truth it computed is recorded beside its runs, with those runs.
    const QString cache = m_folder.filePath(QStringLiteral("cache"));
    const QJsonObject recorded = readJson(cache + QStringLiteral("/truth_recorded.json")).value(QStringLiteral("models")).toObject();
    QCOMPARE(recorded.size(), 2);
    for (const QJsonValue& value : m_first.value(QStringLiteral("results")).toArray()) {
        const QJsonObject result = value.toObject();
        const QJsonObject record = recorded.value(result.value(QStringLiteral("model")).toString()).toObject();
        QCOMPARE(record.value(QStringLiteral("grid")).toObject(), result.value(QStringLiteral("grid")).toObject());
        QCOMPARE(record.value(QStringLiteral("truth")).toObject().value(QStringLiteral("right_set")),
                 result.value(QStringLiteral("truth")).toObject().value(QStringLiteral("right_set")));
    }
    // A wiped machine: every run gone, the advice and Optuna's trials kept (they cost their wall time).
    QVERIFY(QFile::remove(cache + QStringLiteral("/runs.jsonl")));
    QFile::remove(cache + QStringLiteral("/checks.jsonl"));
    const QString out = m_folder.filePath(QStringLiteral("recorded.json"));
    const PanelOutcome outcome = forkPanel(m_python, {QStringLiteral("--reduced"), QStringLiteral("--cache"), cache, QStringLiteral("--out"), out});
    QVERIFY2(outcome.exitCode == 0, qPrintable(outcome.err.right(3000)));
    const QJsonObject again = readJson(out);
    // Only the advised settings, the record's best at their batch and Optuna's best, on the two seeds;
    // and the decisive rows (three batches at most, three LRs) with the advice and Optuna's best on four.
    QVERIFY2(again.value(QStringLiteral("trained")).toInt() <= 2 * (3 * 2 + 3 * 3 * 4 + 2 * 2),
             qPrintable(QString::number(again.value(QStringLiteral("trained")).toInt())));
    const QJsonArray first = m_first.value(QStringLiteral("results")).toArray(), second = again.value(QStringLiteral("results")).toArray();
    QCOMPARE(second.size(), first.size());
    for (int i = 0; i < first.size(); ++i) {
        const QJsonObject before = first.at(i).toObject(), now = second.at(i).toObject();
        QCOMPARE(now.value(QStringLiteral("truth_source")).toString(), QStringLiteral("recorded"));
        QCOMPARE(now.value(QStringLiteral("verdict")), before.value(QStringLiteral("verdict")));
        QCOMPARE(now.value(QStringLiteral("truth")).toObject().value(QStringLiteral("right_set")),
                 before.value(QStringLiteral("truth")).toObject().value(QStringLiteral("right_set")));
        const double regretBefore = before.value(QStringLiteral("lr_regret")).toObject().value(QStringLiteral("regret")).toDouble();
        const double regretNow = now.value(QStringLiteral("lr_regret")).toObject().value(QStringLiteral("regret")).toDouble();
        QVERIFY2(qAbs(regretNow - regretBefore) < 1e-12, qPrintable(QStringLiteral("%1 against %2").arg(regretNow).arg(regretBefore)));
        // The record's best at the advised batch, trained again, is the number it recorded.
        QVERIFY(now.value(QStringLiteral("record_check")).toObject().value(QStringLiteral("same")).toBool());
        QCOMPARE(now.value(QStringLiteral("optuna")).toObject().value(QStringLiteral("held_out")),
                 before.value(QStringLiteral("optuna")).toObject().value(QStringLiteral("held_out")));
        // Judged against the record, the decisive rows are trained again on their four seeds: the same judgement.
        for (const char* key : {"regret", "regret_se", "verdict", "advice_held_out", "optuna_held_out"})
            QVERIFY2(now.value(QStringLiteral("decisive")).toObject().value(QLatin1String(key)) ==
                         before.value(QStringLiteral("decisive")).toObject().value(QLatin1String(key)), key);
    }
}

void TestAdvisorPanel::theRecordedTruthIsTheDocsTablesAndJudgesByHand()
{
    const ddplab::test::PythonExit check =
        m_python.run({QStringLiteral(DDPLAB_SOURCE_DIR "/bench/panel_record.py"), QStringLiteral("--check")}, kPanelPatienceMs / 1000);
    QVERIFY2(check.code == 0 && check.out.contains(QStringLiteral("panel_record: OK")), qPrintable(check.out + check.err));
}

void TestAdvisorPanel::aModelItDoesNotHaveGetsOneSentence()
{
    const PanelOutcome outcome = forkPanel(m_python, {QStringLiteral("--models"), QStringLiteral("resnet9000")});
    QCOMPARE(outcome.exitCode, 2);
    QVERIFY2(outcome.err.contains(QStringLiteral("--models: no model 'resnet9000'; the panel has cnn_bn, ")), qPrintable(outcome.err));
}

DDPLAB_UI_TEST_MAIN(TestAdvisorPanel)
#include "tst_advisor_panel.moc"
