// SPDX-License-Identifier: GPL-3.0-or-later
// The derived panel previews what the engine will do, with ddplab_core's arithmetic: effective
// batch and LR, the sampler's padding or dropping, steps, warmup, and the LR schedule curve.

#include "core/derived.hpp"
#include "setup/batch_schedule_preview.hpp"
#include "setup/derived_panel.hpp"
#include "setup/lr_schedule_preview.hpp"
#include "setup/parameter_panel.hpp"
#include "setup/problem_marks.hpp"
#include "ui_test_main.hpp"

using namespace ddplab::ui;

namespace {

ddplab::Config toy(int64_t worldSize, int64_t batchSize)
{
    ddplab::Config config;
    config.worldSize = worldSize;
    config.batchSize = batchSize;
    config.numExamples = 256;
    return config;
}

}  // namespace

class TestDerivedPanel : public QObject {
    Q_OBJECT

private slots:
    // An engine message names a key by its label in the panel, but a path or code it quotes keeps
    // its words: "docs/own-model.md" and "torch.jit.script(model)" are not "own-Model", and the
    // engine's English is not rewritten: "model must be a file" about model_file stays so.
    void engineMessagesKeepTheirPathsAndCode()
    {
        const QString message = QStringLiteral("see docs/own-model.md; torch.jit.script(model) failed; model must be a file");
        QCOMPARE(inPanelWords(message, QStringLiteral("model_file")), message);
        QCOMPARE(inPanelWords(message), message);
        // Keys no English word spells are named by their labels wherever they stand...
        QCOMPARE(inPanelWords(QStringLiteral("batch_size must be an integer from 1 to 65536 (got -1); see world_size")),
                 QStringLiteral("Batch per GPU must be an integer from 1 to 65536 (got -1); see GPUs (ranks)"));
        // ...a plain word only where the message is about its key and begins with it.
        QCOMPARE(inPanelWords(QStringLiteral("threads must be at most 256; more threads than cores"), QStringLiteral("threads")),
                 QStringLiteral("Threads per rank must be at most 256; more threads than cores"));
        QCOMPARE(inPanelWords(QStringLiteral("the model is too large for 8 threads")), QStringLiteral("the model is too large for 8 threads"));
    }

    void eightBySixteenWithTheSquareRootRule()
    {
        ddplab::Config config = toy(8, 16);
        config.lrRule = ddplab::LrRule::Sqrt;
        DerivedPanel panel;
        panel.setConfig(config, true);
        QCOMPARE(panel.valueText(QStringLiteral("effective_batch")), QStringLiteral("128 = 8 ranks × 16"));
        QCOMPARE(panel.valueText(QStringLiteral("effective_lr")), QStringLiteral("0.002828 = 0.001 * (128 / 16)^0.5"));
        QCOMPARE(panel.valueText(QStringLiteral("steps")), QStringLiteral("2 per epoch · 2 in total"));
        QCOMPARE(panel.valueText(QStringLiteral("per_rank")), QStringLiteral("32 of 256 examples an epoch"));
        QCOMPARE(panel.valueText(QStringLiteral("uneven")), QStringLiteral("none: the ranks split it evenly"));
        QCOMPARE(panel.valueText(QStringLiteral("last_batch")), QStringLiteral("full"));
        QCOMPARE(panel.valueText(QStringLiteral("warmup")), QStringLiteral("none"));
    }

    void unscaledLrSaysSo()
    {
        DerivedPanel panel;
        panel.setConfig(toy(1, 16), true);
        QCOMPARE(panel.valueText(QStringLiteral("effective_lr")), QStringLiteral("0.001"));
        // 8 x 16 with the LR tuned for 16 and no rule: the LR stays, and the panel says so.
        panel.setConfig(toy(8, 16), true);
        QCOMPARE(panel.valueText(QStringLiteral("effective_lr")), QStringLiteral("0.001 (not scaled: rule none)"));
    }

    void paddingAndDroppingAreCounted()
    {
        ddplab::Config config = toy(2, 3);
        config.numExamples = 9;
        DerivedPanel panel;
        panel.setConfig(config, true);
        QCOMPARE(panel.valueText(QStringLiteral("per_rank")), QStringLiteral("5 of 9 examples an epoch"));
        QCOMPARE(panel.valueText(QStringLiteral("uneven")), QStringLiteral("1 sample repeated (padding)"));
        QCOMPARE(panel.valueText(QStringLiteral("last_batch")), QStringLiteral("2 of 3 samples"));
        config.dropLast = true;
        panel.setConfig(config, true);
        QCOMPARE(panel.valueText(QStringLiteral("per_rank")), QStringLiteral("4 of 9 examples an epoch"));
        QCOMPARE(panel.valueText(QStringLiteral("uneven")), QStringLiteral("1 example dropped (drop_last)"));
        QCOMPARE(panel.valueText(QStringLiteral("last_batch")), QStringLiteral("1 of 3 samples"));
        QCOMPARE(panel.valueText(QStringLiteral("steps")), QStringLiteral("2 per epoch · 2 in total"));
    }

    void gradientAccumulationAndMaxSteps()
    {
        ddplab::Config config = toy(2, 16);
        config.gradAccum = 4;
        config.epochs = 10;
        config.maxSteps = 5;
        DerivedPanel panel;
        panel.setConfig(config, true);
        QCOMPARE(panel.valueText(QStringLiteral("effective_batch")), QStringLiteral("128 = 2 ranks × 16 × 4 accumulated"));
        QCOMPARE(panel.valueText(QStringLiteral("steps")), QStringLiteral("2 per epoch · 5 in total (max steps)"));
    }

    void warmupAndScheduleCurveFollowTheEngine()
    {
        ddplab::Config config = toy(4, 1);
        config.epochs = 2;  // 64 steps per epoch, 128 in all
        config.warmupSteps = 10;
        config.schedule = ddplab::ScheduleKind::Cosine;
        config.minLr = 1e-5;
        DerivedPanel panel;
        panel.setConfig(config, true);
        QCOMPARE(panel.valueText(QStringLiteral("warmup")), QStringLiteral("10 steps from 0.25 × LR"));
        const QList<QPointF>& samples = panel.schedulePreview()->samples();
        QCOMPARE(samples.size(), 128);  // short runs are drawn step by step
        for (const QPointF& sample : samples)
            QCOMPARE(sample.y(), ddplab::learningRateAt(config, int64_t(sample.x())));
        QCOMPARE(samples.first().y(), 0.25 * 0.001);
        QCOMPARE(samples.at(10).y(), 0.001);
        QVERIFY(samples.last().y() < 0.0001);
    }

    // Smith's rule on 4 epochs halving the LR each: the batch doubles at each epoch's samples and
    // the LR stays; seesaw takes 1/sqrt(2) of the LR at each doubling; the measured schedules say
    // in words that their plan is known only as the run goes.
    void aGrowingBatchIsPreviewedAgainstTheSamples()
    {
        ddplab::Config config = toy(2, 4);  // 8 a step, 32 steps an epoch
        config.epochs = 4;
        config.lr = 0.1;
        config.schedule = ddplab::ScheduleKind::Step;
        config.gamma = 0.5;
        DerivedPanel panel;
        panel.setConfig(config, true);
        QVERIFY(panel.batchSchedulePreview()->isHidden());

        config.batchSchedule = ddplab::BatchScheduleKind::Smith;
        panel.setConfig(config, true);
        QVERIFY(!panel.batchSchedulePreview()->isHidden());
        QCOMPARE(panel.valueText(QStringLiteral("steps")), QStringLiteral("32 per epoch · 128 in total at the starting batch; about 60 as it grows"));
        const BatchSchedulePreview* preview = panel.batchSchedulePreview();
        QCOMPARE(preview->batchPoints(), (QList<QPointF>{{0, 8}, {256, 16}, {512, 32}, {768, 64}, {960, 64}}));
        // Against the steps too: the batch grows after steps 32, 48 and 56 of 60.
        QCOMPARE(preview->batchSteps(), (QList<qlonglong>{0, 32, 48, 56, 59}));
        for (const QPointF& lr : preview->lrPoints())
            QCOMPARE(lr.y(), 0.1);
        QCOMPARE(preview->caption(), QStringLiteral("About 60 optimizer steps where a constant batch takes 128; the batch grows from 8 to 64."));

        config.batchSchedule = ddplab::BatchScheduleKind::Seesaw;
        panel.setConfig(config, true);
        QCOMPARE(preview->batchPoints().at(1), QPointF(256, 16));
        QVERIFY(std::fabs(preview->lrPoints().at(1).y() - 0.1 / std::sqrt(2.0)) < 1e-15);

        config.batchSchedule = ddplab::BatchScheduleKind::Noise;
        config.worldSize = 2;
        panel.setConfig(config, true);
        QVERIFY(preview->batchPoints().isEmpty());
        QVERIFY(preview->caption().contains(QStringLiteral("known only as the run goes")));
    }

    void longRunsAreSampledButKeepTheWarmupCorners()
    {
        ddplab::Config config = toy(1, 1);
        config.numExamples = 1'000'000;
        config.warmupSteps = 12'345;
        LrSchedulePreview preview;
        preview.setConfig(config);
        QVERIFY(preview.samples().size() <= LrSchedulePreview::kMaxSamples + 2);
        QList<double> steps;
        for (const QPointF& sample : preview.samples())
            steps.append(sample.x());
        QVERIFY(steps.contains(12'344.0) && steps.contains(12'345.0));
    }

    void sdeRuleShowsAdamsScaledSettingsWithTheFormula()
    {
        // 4 ranks x 16 tuned for 16: k = 4, Malladi et al.'s rule.
        ddplab::Config config = toy(4, 16);
        config.optimizer = ddplab::OptimizerKind::Adam;
        config.lrRule = ddplab::LrRule::Sde;
        DerivedPanel panel;
        panel.setConfig(config, true);
        QCOMPARE(panel.valueText(QStringLiteral("effective_lr")), QStringLiteral("0.002 = 0.001 * (64 / 16)^0.5"));
        QCOMPARE(panel.valueText(QStringLiteral("applied_beta1")), QStringLiteral("0.6 = 1 - (64 / 16) * (1 - 0.9)"));
        QCOMPARE(panel.valueText(QStringLiteral("applied_beta2")), QStringLiteral("0.996 = 1 - (64 / 16) * (1 - 0.999)"));
        QCOMPARE(panel.valueText(QStringLiteral("applied_eps")), QStringLiteral("5e-09 = 1e-08 / (64 / 16)^0.5"));
        QVERIFY(panel.rowShown(QStringLiteral("applied_beta1")));
        // Without the rule they are the keys' own; SGD has none to show.
        config.lrRule = ddplab::LrRule::Sqrt;
        panel.setConfig(config, true);
        QCOMPARE(panel.valueText(QStringLiteral("applied_beta1")), QStringLiteral("0.9"));
        config.optimizer = ddplab::OptimizerKind::Sgd;
        panel.setConfig(config, true);
        QVERIFY(!panel.rowShown(QStringLiteral("applied_beta1")) && !panel.rowShown(QStringLiteral("applied_eps")));
    }

    void weightDecayAndItsTimescale()
    {
        // AdamW tuned at 16 with lr 1e-3 and decay 0.01, run at 4 x 16 under the sqrt LR rule.
        ddplab::Config config = toy(4, 16);
        config.optimizer = ddplab::OptimizerKind::AdamW;
        config.lrRule = ddplab::LrRule::Sqrt;
        config.weightDecay = 0.01;
        DerivedPanel panel;
        panel.setConfig(config, true);
        QCOMPARE(panel.valueText(QStringLiteral("applied_decay")), QStringLiteral("0.01"));
        // tau = 64 / (0.002 * 0.01 * 256) = 12,500 epochs.
        QCOMPARE(panel.valueText(QStringLiteral("decay_timescale")), QStringLiteral("%L1 epochs = 64 / (0.002 * 0.01 * 256)").arg(12500));
        config.weightDecayRule = ddplab::WeightDecayRule::Timescale;
        panel.setConfig(config, true);
        // lambda' = 0.01 * 4 * 0.001 / 0.002 = 0.02, and tau is the base batch's: 16 / (0.001 * 0.01 * 256).
        QCOMPARE(panel.valueText(QStringLiteral("applied_decay")), QStringLiteral("0.02 = 0.01 * (64 / 16) * 0.001 / 0.002"));
        QCOMPARE(panel.valueText(QStringLiteral("decay_timescale")), QStringLiteral("%L1 epochs = 64 / (0.002 * 0.02 * 256)").arg(6250));
        config.weightDecay = 0;
        panel.setConfig(config, true);
        QVERIFY(!panel.rowShown(QStringLiteral("applied_decay")) && !panel.rowShown(QStringLiteral("decay_timescale")));
    }

    void invalidSettingsDeriveNothing()
    {
        DerivedPanel panel;
        panel.setConfig(toy(8, 16), false);
        QCOMPARE(panel.valueText(QStringLiteral("effective_batch")), QStringLiteral("—"));
        QVERIFY(panel.schedulePreview()->samples().isEmpty());
    }

    void followsTheParameterPanelAsTheUserTypes()
    {
        ParameterPanel parameters;
        DerivedPanel derived;
        QObject::connect(&parameters, &ParameterPanel::changed, &derived,
                         [&] { derived.setConfig(parameters.config(), parameters.isValid()); });
        parameters.setFieldText(QStringLiteral("batch_size"), QStringLiteral("16"));
        parameters.setFieldText(QStringLiteral("world_size"), QStringLiteral("4"));
        QCOMPARE(derived.valueText(QStringLiteral("effective_batch")), QStringLiteral("64 = 4 ranks × 16"));
        parameters.setFieldText(QStringLiteral("lr_rule"), QStringLiteral("linear"));
        parameters.setFieldText(QStringLiteral("base_batch_size"), QStringLiteral("16"));
        QCOMPARE(derived.valueText(QStringLiteral("effective_lr")), QStringLiteral("0.004 = 0.001 * (64 / 16)^1"));
        parameters.setFieldText(QStringLiteral("lr"), QStringLiteral("x"));
        QCOMPARE(derived.valueText(QStringLiteral("effective_lr")), QStringLiteral("—"));
    }
};

DDPLAB_UI_TEST_MAIN(TestDerivedPanel)
#include "tst_derived_panel.moc"
