// SPDX-License-Identifier: GPL-3.0-or-later
// A workload added by this test alone, as docs/architecture.md's "Adding a workload" says: one
// entry (its row, with its two keys, and its maker, through registerWorkload) plus its code (the
// MeanWorkload below), and no other file of the lab touched. It then is a choice of the
// workload key, its keys parse, print, refuse bad values and matter for it alone, the config
// checks know its training set's size by its own key, makeWorkload makes it, the engine's
// trainer trains it (four steps of SGD, to the weight they must give) and the launcher has
// nothing to read for it. The script generator refuses it: tests/ui/tst_added_workload_script.

// Trainer::emit is a function: Qt's emit keyword (the precompiled Qt headers) would swallow it.
#undef emit

#include "comm/communicator.hpp"
#include "core/config_error.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"
#include "core/data_error.hpp"
#include "core/derived.hpp"
#include "core/json.hpp"
#include "core/key_names.hpp"
#include "core/protocol_names.hpp"
#include "core/workload_table.hpp"
#include "train/trainer.hpp"
#include "support/added_workload.hpp"
#include "workloads/make_workload.hpp"

#include <ATen/ATen.h>

#include <QtTest>

#include <cmath>
#include <stdexcept>

using namespace ddplab;

namespace {

// ---- the added workload: its code ------------------------------------------------------
// The mean of `mean_points` numbers, alternately mean_target - 0.5 and mean_target + 0.5: one
// weight w (from 0), the loss (w - x)^2 averaged over the batch. A full batch's SGD step at LR
// 1/4 halves w's distance to the mean. (Its row: tests/support/added_workload.hpp.)
using added_workload::kName;
using added_workload::kPoints;
using added_workload::kTarget;

class MeanWorkload final : public Workload {
public:
    MeanWorkload(const Config& config, const c10::Device& device)
    {
        const int64_t points = int64_t(workloadValue(config, kPoints));
        const double target = workloadValue(config, kTarget);
        m_values = at::arange(points, at::kFloat).remainder(2).sub(0.5).add(target).to(device);
        m_weight = at::zeros({1}, at::TensorOptions().dtype(at::kFloat).device(device)).requires_grad_(true);
    }

    std::vector<at::Tensor> parameters() override { return {m_weight}; }
    std::vector<std::string> parameterNames() const override { return {"w"}; }
    int64_t datasetSize() const override { return m_values.size(0); }
    Batch fetch(const at::Tensor& indices) override
    {
        const at::Tensor values = m_values.index_select(0, indices.to(m_values.device()));
        return {values, values, indices.size(0)};
    }
    ForwardResult forward(const Batch& batch) override
    {
        const at::Tensor squared = (m_weight - batch.inputs).pow(2);
        return {squared.mean(), {squared.sum().detach(), {}, double(batch.size)}};
    }
    double weight() const { return m_weight.item<double>(); }

private:
    at::Tensor m_values;
    at::Tensor m_weight;
};

// One rank alone: every collective is already done.
class SoloCommunicator final : public Communicator {
public:
    std::string backend() const override { return "solo"; }
    int rank() const override { return 0; }
    int worldSize() const override { return 1; }
    void broadcast(at::Tensor&, int) override {}
    void barrier() override {}

protected:
    std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor&) override
    {
        throw std::logic_error("one rank all-reduces nothing");
    }
};

Config configOf(const Json& settings)
{
    Config config;
    applyJson(config, settings, "the test's settings");
    return config;
}

QString problemsOf(const Config& config)
{
    QStringList texts;
    for (const ConfigProblem& problem : findProblems(config))
        texts << QString::fromStdString(problem.key + ": " + problem.message);
    return texts.join(QLatin1Char('\n'));
}

}  // namespace

class TestAddedWorkload : public QObject {
    Q_OBJECT

    WorkloadKind m_kind = WorkloadKind::Toy;

private slots:
    void initTestCase()
    {
        // Before anything reads a setting: the key table is built from the rows once.
        m_kind = registerWorkload(added_workload::meanRow(), [](const Config& c, const c10::Device& device, int) {
            return std::make_unique<MeanWorkload>(c, device);
        });
    }

    void itIsAWorkloadPastTheBuiltInOnes()
    {
        QCOMPARE(int(m_kind), int(WorkloadKind::TorchScript) + 1);
        QCOMPARE(std::string(traitsOf(m_kind).name), std::string(kName));
        QCOMPARE(workloadTable().size(), size_t(5));
        // The rows are fixed once read: a later one is refused, naming it.
        WorkloadTraits late = added_workload::meanRow();
        late.name = "late";
        QVERIFY_THROWS_EXCEPTION(std::logic_error, addWorkloadRow(late));
    }

    void theWorkloadKeyOffersItWithItsWords()
    {
        const ConfigKey* workload = findConfigKey(key::kWorkload);
        QVERIFY(workload);
        QCOMPARE(workload->choices.back(), std::string(kName));
        QCOMPARE(workload->choiceLabel(kName), std::string("mean: the mean of numbers (a test's)"));
        QVERIFY(workload->help.find("or the mean of some numbers") != std::string::npos);
        const Config mean = configOf({{key::kWorkload, kName}});
        QVERIFY(mean.workload == m_kind);
    }

    void itsKeysParsePrintAndRefuseBadValues()
    {
        const Config defaults = configOf({{key::kWorkload, kName}});
        QCOMPARE(workloadValue(defaults, kPoints), 64.0);
        QCOMPARE(configToJson(defaults).at(kPoints), Json(64));
        QCOMPARE(configToJson(defaults).at(kTarget), Json(3.0));

        const Config set = configOf({{key::kWorkload, kName}, {kPoints, 10}, {kTarget, -2.5}});
        QCOMPARE(workloadValue(set, kPoints), 10.0);
        QCOMPARE(workloadValue(set, kTarget), -2.5);
        QCOMPARE(datasetSize(set), int64_t(10));
        // Printed and read back, as a run's config.json and its config event are.
        QVERIFY(configOf(configToJson(set)).workloadValues == set.workloadValues);

        Config text = defaults;
        assignFromText(text, *findConfigKey(kPoints), "12");
        QCOMPARE(workloadValue(text, kPoints), 12.0);
        QCOMPARE(QString::fromStdString(findConfigKey(kPoints)->flag()), QStringLiteral("--mean-points"));
        for (const Json& bad : {Json(1), Json(2.5), Json("ten"), Json(2'000'000)}) {
            try {
                configOf({{kPoints, bad}});
                QFAIL("a bad mean_points was accepted");
            } catch (const ConfigError& error) {
                QCOMPARE(error.key(), std::string(kPoints));
                QCOMPARE(std::string(error.what()),
                         "mean_points must be an integer from 2 to 1000000 (got " + bad.dump() + ")");
            }
        }
        QVERIFY_THROWS_EXCEPTION(ConfigError, configOf({{kTarget, 1e9}}));
    }

    void itsKeysMatterForItAlone()
    {
        const Config mean = configOf({{key::kWorkload, kName}});
        const Config linreg = configOf({{key::kWorkload, choice::workload::kLinreg}});
        QVERIFY(findConfigKey(kPoints)->mattersFor(mean));
        QVERIFY(!findConfigKey(kPoints)->mattersFor(linreg));
        QVERIFY(!findConfigKey(kTarget)->mattersFor(linreg));
        QVERIFY(!findConfigKey(key::kDim)->mattersFor(mean));
        QVERIFY(appliesToWorkload(mean, kTarget));
        QVERIFY(!appliesToWorkload(linreg, kTarget));
    }

    void theChecksKnowItsSizeByItsOwnKey()
    {
        const Config fine = configOf({{key::kWorkload, kName}, {key::kBatchSize, 4}});
        QCOMPARE(problemsOf(fine), QString());
        // Eight ranks over six numbers with drop_last: none is left for a rank, said at its key.
        const Config tooFew = configOf({{key::kWorkload, kName}, {kPoints, 6}, {key::kWorldSize, 8}, {key::kDropLast, true}});
        QCOMPARE(problemsOf(tooFew), QStringLiteral("mean_points: drop_last with 6 examples over 8 ranks leaves no sample "
                                                    "for any rank; use more examples, fewer ranks or no drop_last"));
        // Experiments side by side are the vectorised workloads' alone.
        const Config sideBySide = configOf({{key::kWorkload, kName}, {key::kExperiments, 2}});
        QVERIFY(problemsOf(sideBySide).startsWith(QStringLiteral("experiments: ")));
    }

    void theEngineMakesItAndTrainsIt()
    {
        const Config config = configOf({{key::kWorkload, kName}, {kPoints, 10}, {kTarget, 3.0}, {key::kBatchSize, 10},
                                        {key::kShuffle, false}, {key::kLr, 0.25}, {key::kEpochs, 4}});
        QCOMPARE(problemsOf(config), QString());
        readWorkloadDataOnce(config);  // nothing to read: no throw
        std::unique_ptr<Workload> workload = makeWorkload(config, c10::Device(c10::kCPU), 0);
        auto* mean = dynamic_cast<MeanWorkload*>(workload.get());
        QVERIFY(mean);
        QCOMPARE(mean->datasetSize(), int64_t(10));

        SoloCommunicator comm;
        Trainer trainer(config, *workload, comm, nullptr);
        const Json summary = trainer.run();
        QCOMPARE(summary.at(protocol::field::kSteps).get<int64_t>(), int64_t(4));
        // Each step halves w's distance to the mean 3: 3 * (1 - 1/16).
        QVERIFY(std::abs(mean->weight() - 2.8125) < 1e-6);
        // The fourth step's loss, at w = 3 * 7/8: its distance squared plus the numbers' variance 1/4.
        QVERIFY(std::abs(summary.at(protocol::field::kLoss).get<double>() - (0.375 * 0.375 + 0.25)) < 1e-6);
    }

    void theLauncherStillReadsFashionMnistOnce()
    {
        // The read the launcher once switched on is now the row's code: a missing folder is
        // reported before any rank starts.
        const Config fashion = configOf({{key::kWorkload, choice::workload::kFashionMnist}, {key::kDataDir, "/nonexistent/fashion"}});
        QVERIFY_THROWS_EXCEPTION(DataError, readWorkloadDataOnce(fashion));
    }

};

QTEST_GUILESS_MAIN(TestAddedWorkload)
#include "tst_added_workload.moc"
