// SPDX-License-Identifier: GPL-3.0-or-later
// Workload torchscript, the user's own model and data, from the outside: `inspect` says what a
// known model and data set are; every way a model, a data set or the two together can be wrong
// is refused by `inspect` and by `run` alike, in one sentence naming the key and the file, with
// exit code 2 or 3 and nothing started; and runs train (a BatchNorm CNN on a torch.save file
// and on .npy files, a model that computes its own loss), stop with a parameter's name when it
// got no gradient or with the step when forward threw, repeat exactly with dropout, and save
// the trained model. The models and data come from tests/tools/make_own_model_case.py.

#include "support/engine_process.hpp"
#include "support/forked_python.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using ddplab::test::EngineResult;
using ddplab::test::runEngine;
using ddplab::test::engineCommand;
using ddplab::test::runFlags;

namespace {

const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);
constexpr int kPythonMs = 120000;

// `inspect` prints one JSON object.
QJsonObject inspection(const EngineResult& result)
{
    return result.events.isEmpty() ? QJsonObject() : result.events.first();
}

QList<double> stepLosses(const EngineResult& result)
{
    QList<double> losses;
    for (const QJsonObject& step : result.ofType(QStringLiteral("step")))
        losses.append(step.value(QStringLiteral("loss")).toDouble());
    return losses;
}

}  // namespace

class OwnModelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void inspectDescribesAKnownModel();
    void npyFolderReadsAsTheSameData();
    void badInputIsRefusedBeforeAnythingStarts_data();
    void badInputIsRefusedBeforeAnythingStarts();
    void aBatchNormCnnLearns();
    void aValidationSubsetEvaluatesFewerSamples();
    void aModelComputingItsOwnLossTrains();
    void aParameterWithoutGradientStopsTheRunByName();
    void aThrowingForwardNamesTheStepAndRank();
    void dropoutRepeatsExactlyWithTheSeed();
    void saveModelWritesTheTrainedModel();
    void trainSubsetTrainsOnTheFirstSamples();

private:
    QString file(const QString& name) const { return m_dir.filePath(name); }
    QStringList base(const QString& model, const QString& train) const;
    EngineResult inspect(const QStringList& arguments) const;

    QTemporaryDir m_dir;
};

void OwnModelTest::initTestCase()
{
    // One python3 imports torch and numpy (or says what installs them) and forks the tool
    // (tests/support/forked_python.hpp): one `import torch`, not a check and the tool's own.
    ddplab::test::ForkedPython python;
    const QString missing = python.start(kSource + QStringLiteral("/tests/tools/forked_python.py"));
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    const ddplab::test::PythonExit made = python.run({kSource + QStringLiteral("/tests/tools/make_own_model_case.py"), m_dir.path()}, kPythonMs / 1000);
    QVERIFY2(made.code == 0, qPrintable(made.err));
}

QStringList OwnModelTest::base(const QString& model, const QString& train) const
{
    return {QStringLiteral("--workload"), QStringLiteral("torchscript"), QStringLiteral("--model-file"), file(model),
            QStringLiteral("--train-data"), file(train), QStringLiteral("--batch-size"), QStringLiteral("16"),
            QStringLiteral("--threads"), QStringLiteral("1")};
}

EngineResult OwnModelTest::inspect(const QStringList& arguments) const
{
    return runEngine(QStringList{QStringLiteral("inspect")} + arguments);
}

void OwnModelTest::inspectDescribesAKnownModel()
{
    const EngineResult result =
        inspect(base(QStringLiteral("bn_cnn.pt"), QStringLiteral("train.pt")) + QStringList{QStringLiteral("--val-data"), file(QStringLiteral("val.pt"))});
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    const QJsonObject report = inspection(result);
    QCOMPARE(report.value(QStringLiteral("type")).toString(), QStringLiteral("inspection"));
    // conv1 6x1x3x3+6, bn1 6+6, conv2 8x6x3x3+8, bn2 8+8, fc 4x288+4
    QCOMPARE(report.value(QStringLiteral("parameter_count")).toInt(), 60 + 12 + 440 + 16 + 1156);
    QCOMPARE(report.value(QStringLiteral("parameter_tensors")).toInt(), 10);
    QCOMPARE(report.value(QStringLiteral("parameter_bytes")).toInt(), 1684 * 4);
    QCOMPARE(report.value(QStringLiteral("forward_signature")).toString(), QStringLiteral("forward(Tensor x) -> Tensor"));
    const QJsonArray parameters = report.value(QStringLiteral("parameters")).toArray();
    QCOMPARE(parameters.first().toObject().value(QStringLiteral("name")).toString(), QStringLiteral("conv1.weight"));
    QCOMPARE(parameters.first().toObject().value(QStringLiteral("shape")).toArray(), (QJsonArray{6, 1, 3, 3}));
    QStringList buffers;
    for (const QJsonValue& buffer : report.value(QStringLiteral("buffers")).toArray())
        buffers.append(buffer.toObject().value(QStringLiteral("name")).toString());
    QCOMPARE(buffers, (QStringList{QStringLiteral("bn1.running_mean"), QStringLiteral("bn1.running_var"),
                                   QStringLiteral("bn1.num_batches_tracked"), QStringLiteral("bn2.running_mean"),
                                   QStringLiteral("bn2.running_var"), QStringLiteral("bn2.num_batches_tracked")}));

    const QJsonObject train = report.value(QStringLiteral("train_data")).toObject();
    QCOMPARE(train.value(QStringLiteral("format")).toString(), QStringLiteral("torch_save"));
    QCOMPARE(train.value(QStringLiteral("samples")).toInt(), 100);
    QCOMPARE(train.value(QStringLiteral("inputs_shape")).toArray(), (QJsonArray{100, 1, 12, 12}));
    QCOMPARE(train.value(QStringLiteral("inputs_dtype")).toString(), QStringLiteral("float32"));
    QCOMPARE(train.value(QStringLiteral("targets_dtype")).toString(), QStringLiteral("int64"));
    QCOMPARE(report.value(QStringLiteral("val_data")).toObject().value(QStringLiteral("samples")).toInt(), 40);

    const QJsonObject batch = report.value(QStringLiteral("first_batch")).toObject();
    QCOMPARE(batch.value(QStringLiteral("inputs_shape")).toArray(), (QJsonArray{16, 1, 12, 12}));
    QCOMPARE(batch.value(QStringLiteral("output_shape")).toArray(), (QJsonArray{16, 4}));
    const double loss = batch.value(QStringLiteral("loss")).toDouble();
    QVERIFY2(loss > 0.5 && loss < 3.0, qPrintable(QString::number(loss)));  // about ln 4 for an untrained 4-way classifier
    QCOMPARE(report.value(QStringLiteral("classes")).toInt(), 4);
    QCOMPARE(report.value(QStringLiteral("steps_per_epoch")).toInt(), 7);  // 100 samples in batches of 16

    const QJsonObject memory = report.value(QStringLiteral("memory")).toObject();
    QCOMPARE(memory.value(QStringLiteral("gradient_bytes")).toInt(), 1684 * 4);
    QCOMPARE(memory.value(QStringLiteral("optimizer_bytes")).toInt(), 0);  // plain SGD keeps nothing
    QVERIFY(memory.value(QStringLiteral("step_bytes")).toDouble() > 16 * 6 * 12 * 12 * 4);  // one activation at least
    // The same step timed (a study's estimate of this model's runs): a real duration, not the
    // first take's allocations, nor left out; the median of three takes, not one take, which is
    // whatever the machine was doing in that instant (this small CNN's step is far below the 2 s
    // after which fewer are taken).
    const double stepSeconds = batch.value(QStringLiteral("step_seconds")).toDouble();
    QVERIFY2(stepSeconds > 0 && stepSeconds < 10, qPrintable(QString::number(stepSeconds)));
    const QJsonArray takes = batch.value(QStringLiteral("step_takes")).toArray();
    QCOMPARE(takes.size(), 3);
    QList<double> sorted;
    for (const QJsonValue& take : takes)
        sorted.append(take.toDouble());
    std::sort(sorted.begin(), sorted.end());
    QVERIFY2(sorted.front() > 0, qPrintable(QString::number(sorted.front())));
    QCOMPARE(stepSeconds, sorted.at(1));
    // The same takes' CPU seconds, what a study's estimate rests on (the wall seconds hold the
    // instant's wait for a core): one a take, their median, on one thread never more than the
    // take's wall seconds (a millisecond of the clocks' grain aside).
    const QJsonArray cpuTakes = batch.value(QStringLiteral("step_cpu_takes")).toArray();
    QCOMPARE(cpuTakes.size(), 3);
    QList<double> cpuSorted;
    for (qsizetype i = 0; i < cpuTakes.size(); ++i) {
        const double cpu = cpuTakes.at(i).toDouble();
        QVERIFY2(cpu > 0 && cpu <= takes.at(i).toDouble() + 0.001,
                 qPrintable(QStringLiteral("take %1: %2 s of CPU, %3 s of wall").arg(i).arg(cpu).arg(takes.at(i).toDouble())));
        cpuSorted.append(cpu);
    }
    std::sort(cpuSorted.begin(), cpuSorted.end());
    QCOMPARE(batch.value(QStringLiteral("step_cpu_seconds")).toDouble(), cpuSorted.at(1));
    QCOMPARE(memory.value(QStringLiteral("data_bytes")).toInt(), 140 * 144 * 4 + 140 * 8);
    const double perRank = memory.value(QStringLiteral("per_rank_bytes")).toDouble();
    double parts = 0;
    for (const char* part : {"parameter_bytes", "buffer_bytes", "gradient_bytes", "optimizer_bytes", "step_bytes", "process_bytes"})
        parts += memory.value(QLatin1String(part)).toDouble();
    QCOMPARE(perRank, parts);

    // Its layers that couple or randomise a batch's samples, counted from the submodules' classes
    // (the advisor's cautions are about these): bn1 and bn2, the dropout; an MLP has none.
    QCOMPARE(report.value(QStringLiteral("layers")).toObject(),
             (QJsonObject{{QStringLiteral("batch_norm"), 2}, {QStringLiteral("dropout"), 1}, {QStringLiteral("layer_norm"), 0}}));
    const EngineResult mlp = inspect(base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt")));
    QVERIFY2(mlp.exitCode == 0, qPrintable(mlp.summaryText()));
    QCOMPARE(inspection(mlp).value(QStringLiteral("layers")).toObject(),
             (QJsonObject{{QStringLiteral("batch_norm"), 0}, {QStringLiteral("dropout"), 0}, {QStringLiteral("layer_norm"), 0}}));

    // Adam keeps two moments per trained parameter.
    const EngineResult adam = inspect(base(QStringLiteral("bn_cnn.pt"), QStringLiteral("train.pt")) +
                                      QStringList{QStringLiteral("--optimizer"), QStringLiteral("adam")});
    QCOMPARE(inspection(adam).value(QStringLiteral("memory")).toObject().value(QStringLiteral("optimizer_bytes")).toInt(), 2 * 1684 * 4);
}

void OwnModelTest::npyFolderReadsAsTheSameData()
{
    const EngineResult saved = inspect(base(QStringLiteral("bn_cnn.pt"), QStringLiteral("train.pt")));
    const EngineResult npy = inspect(base(QStringLiteral("bn_cnn.pt"), QStringLiteral("train_npy")));
    QVERIFY2(npy.exitCode == 0, qPrintable(npy.summaryText()));
    QCOMPARE(inspection(npy).value(QStringLiteral("train_data")).toObject().value(QStringLiteral("format")).toString(),
             QStringLiteral("npy_folder"));
    // The same numbers through the same model: the same loss on the first batch.
    QCOMPARE(inspection(npy).value(QStringLiteral("first_batch")).toObject().value(QStringLiteral("loss")).toDouble(),
             inspection(saved).value(QStringLiteral("first_batch")).toObject().value(QStringLiteral("loss")).toDouble());
}

void OwnModelTest::badInputIsRefusedBeforeAnythingStarts_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("train");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("named");  // the file the message must name
    QTest::addColumn<QStringList>("says");

    const QString mlp = QStringLiteral("mlp.pt"), train = QStringLiteral("train.pt");
    auto row = [&](const char* name, const QString& model, const QString& data, const QStringList& extra, int code,
                   const char* key, const QString& named, const QStringList& says) {
        QTest::newRow(name) << model << data << extra << code << QString::fromLatin1(key) << named << says;
    };
    // The model
    row("missing model", QStringLiteral("missing.pt"), train, {}, 2, "model_file", QStringLiteral("missing.pt"), {QStringLiteral("does not exist")});
    row("not torchscript", QStringLiteral("not_a_model.txt"), train, {}, 2, "model_file", QStringLiteral("not_a_model.txt"),
        {QStringLiteral("is not a TorchScript file"), QStringLiteral("torch.jit.script(model).save")});
    row("a state_dict", QStringLiteral("state_dict.pt"), train, {}, 2, "model_file", QStringLiteral("state_dict.pt"),
        {QStringLiteral("torch.save file"), QStringLiteral("state_dict")});
    row("newer file format", QStringLiteral("newer_version.pt"), train, {}, 2, "model_file", QStringLiteral("newer_version.pt"),
        {QStringLiteral("newer PyTorch"), QStringLiteral("LibTorch 1.13"), QStringLiteral("version is 11"),
         QStringLiteral("reads up to 10"), QStringLiteral("export it again with PyTorch 1.13")});
    row("newer operator", QStringLiteral("newer_operator.pt"), train, {}, 2, "model_file", QStringLiteral("newer_operator.pt"),
        {QStringLiteral("scaled_dot_product_attention"), QStringLiteral("newer PyTorch"), QStringLiteral("LibTorch 1.13")});
    row("forward takes two", QStringLiteral("two_arguments.pt"), train, {}, 2, "model_file", QStringLiteral("two_arguments.pt"),
        {QStringLiteral("forward(Tensor x, Tensor y)"), QStringLiteral("takes 2 arguments"), QStringLiteral("\"loss\": \"model\"")});
    row("loss model, forward takes one", mlp, train, {QStringLiteral("--loss"), QStringLiteral("model")}, 2, "model_file", mlp,
        {QStringLiteral("takes 1 argument"), QStringLiteral("forward(inputs, targets)")});
    row("an unused parameter", QStringLiteral("unused.pt"), train, {}, 2, "model_file", QStringLiteral("unused.pt"),
        {QStringLiteral("spare.weight"), QStringLiteral("spare.bias"), QStringLiteral("got no gradient")});
    // Model and data together
    row("inputs the model cannot take", QStringLiteral("bn_cnn.pt"), QStringLiteral("flat_inputs.pt"), {}, 2, "model_file",
        QStringLiteral("flat_inputs.pt"), {QStringLiteral("[16, 144] float32"), QStringLiteral("4D (batched) input to conv2d")});
    row("float targets for cross_entropy", mlp, QStringLiteral("float_targets.pt"), {}, 2, "loss", QStringLiteral("float_targets.pt"),
        {QStringLiteral("targets of float32"), QStringLiteral("class indices")});
    row("class index beyond the output", QStringLiteral("three_classes.pt"), train, {}, 2, "train_data", train,
        {QStringLiteral("class index 3"), QStringLiteral("scores 3 classes"), QStringLiteral("three_classes.pt")});
    row("output and targets of other shapes", mlp, QStringLiteral("float_targets.pt"), {QStringLiteral("--loss"), QStringLiteral("mse")},
        2, "loss", QStringLiteral("float_targets.pt"), {QStringLiteral("is [16, 4] but the targets are [16]")});
    row("val_data unlike train_data", mlp, train, {QStringLiteral("--val-data"), QStringLiteral("@flat_inputs.pt")}, 3, "val_data",
        QStringLiteral("flat_inputs.pt"), {QStringLiteral("[144] float32 per sample"), QStringLiteral("[1, 12, 12] float32")});
    // The data
    row("missing data", mlp, QStringLiteral("missing.pt"), {}, 3, "train_data", QStringLiteral("missing.pt"), {QStringLiteral("does not exist")});
    row("inputs and targets of different lengths", mlp, QStringLiteral("short_targets.pt"), {}, 3, "train_data",
        QStringLiteral("short_targets.pt"), {QStringLiteral("100 samples of inputs but 99 of targets")});
    row("NaN in the data", mlp, QStringLiteral("nan.pt"), {}, 3, "train_data", QStringLiteral("nan.pt"),
        {QStringLiteral("NaN"), QStringLiteral("sample 7"), QStringLiteral("[7, 0, 3, 4]")});
    row("no targets in the dict", mlp, QStringLiteral("no_targets.pt"), {}, 3, "train_data", QStringLiteral("no_targets.pt"),
        {QStringLiteral("holds no \"targets\""), QStringLiteral("\"labels\"")});
    row("not a dict", mlp, QStringLiteral("tuple.pt"), {}, 3, "train_data", QStringLiteral("tuple.pt"), {QStringLiteral("not a dict")});
    row("a model as data", mlp, mlp, {}, 3, "train_data", mlp, {QStringLiteral("not a file written by torch.save")});
    row("npy in Fortran order", mlp, QStringLiteral("fortran"), {}, 3, "train_data", QStringLiteral("fortran/inputs.npy"),
        {QStringLiteral("Fortran"), QStringLiteral("C order")});
    row("npy of float16", mlp, QStringLiteral("float16"), {}, 3, "train_data", QStringLiteral("float16/inputs.npy"),
        {QStringLiteral("'<f2'"), QStringLiteral("float32, float64, int64, int32 or uint8")});
    row("npy folder without targets", mlp, QStringLiteral("no_targets_npy"), {}, 3, "train_data", QStringLiteral("no_targets_npy"),
        {QStringLiteral("holds no targets.npy")});
    row("more data than memory", mlp, QStringLiteral("huge"), {}, 2, "train_data", QStringLiteral("huge/inputs.npy"),
        {QStringLiteral("GiB of memory"), QStringLiteral("available")});
}

void OwnModelTest::badInputIsRefusedBeforeAnythingStarts()
{
    QFETCH(QString, model);
    QFETCH(QString, train);
    QFETCH(QStringList, extra);
    QFETCH(int, exitCode);
    QFETCH(QString, key);
    QFETCH(QString, named);
    QFETCH(QStringList, says);
    for (QString& argument : extra) {
        if (argument.startsWith(QLatin1Char('@')))
            argument = file(argument.mid(1));
    }
    const QStringList arguments = base(model, train) + extra;
    for (const QString& command : {QStringLiteral("inspect"), QStringLiteral("run")}) {
        const EngineResult result = engineCommand(command, arguments +
                                                                   (command == QStringLiteral("run") ? QStringList{QStringLiteral("--world-size"), QStringLiteral("2")}
                                                                                                     : QStringList{}));
        QVERIFY2(result.exitCode == exitCode, qPrintable(command + QStringLiteral(": ") + result.summaryText()));
        const QJsonObject error = result.last(QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("key")).toString(), key);
        const QString message = error.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(file(named)), qPrintable(message));
        QVERIFY2(message.contains(key), qPrintable(message));
        for (const QString& phrase : says)
            QVERIFY2(message.contains(phrase), qPrintable(phrase + QStringLiteral(" not in: ") + message));
        // Nothing started: no rank spoke, no training step was taken, the launcher itself said it.
        QVERIFY2(!message.startsWith(QStringLiteral("rank")), qPrintable(message));
        QVERIFY(result.ofType(QStringLiteral("config")).isEmpty());
        QVERIFY(result.ofType(QStringLiteral("step")).isEmpty());
    }
}

void OwnModelTest::aBatchNormCnnLearns()
{
    const EngineResult result = runFlags(base(QStringLiteral("bn_cnn.pt"), QStringLiteral("train.pt")) +
                                          QStringList{QStringLiteral("--val-data"), file(QStringLiteral("val.pt")), QStringLiteral("--world-size"),
                                                      QStringLiteral("2"), QStringLiteral("--epochs"), QStringLiteral("3"), QStringLiteral("--lr"),
                                                      QStringLiteral("0.02"), QStringLiteral("--momentum"), QStringLiteral("0.9")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    const QJsonObject config = result.first(QStringLiteral("config"));
    QCOMPARE(config.value(QStringLiteral("dataset_size")).toInt(), 100);
    QCOMPARE(config.value(QStringLiteral("steps_per_epoch")).toInt(), 4);  // 50 per rank in batches of 16
    QCOMPARE(config.value(QStringLiteral("parameter_count")).toInt(), 1684);
    const auto steps = result.ofType(QStringLiteral("step"));
    QCOMPARE(steps.size(), 12);
    QVERIFY(steps.first().contains(QStringLiteral("accuracy")));
    const auto evals = result.ofType(QStringLiteral("eval"));
    QCOMPARE(evals.size(), 3);  // one per epoch
    QCOMPARE(evals.last().value(QStringLiteral("samples")).toInt(), 40);
    const double first = evals.first().value(QStringLiteral("val_loss")).toDouble();
    const double last = evals.last().value(QStringLiteral("val_loss")).toDouble();
    QVERIFY2(last < first, qPrintable(QStringLiteral("%1 -> %2").arg(first).arg(last)));
    QVERIFY2(evals.last().value(QStringLiteral("val_accuracy")).toDouble() > 0.6,  // chance is 0.25
             qPrintable(QString::number(evals.last().value(QStringLiteral("val_accuracy")).toDouble())));
}

// val_subset: the validation loss over the first 10 of val_data's 40 samples, quicker to
// measure (the advisor's runs), and another figure than the whole set's at the same weights.
void OwnModelTest::aValidationSubsetEvaluatesFewerSamples()
{
    const auto runWith = [&](const QStringList& extra) {
        return runFlags(base(QStringLiteral("bn_cnn.pt"), QStringLiteral("train.pt")) +
                         QStringList{QStringLiteral("--val-data"), file(QStringLiteral("val.pt")), QStringLiteral("--world-size"),
                                     QStringLiteral("2"), QStringLiteral("--max-steps"), QStringLiteral("3")} + extra);
    };
    const EngineResult whole = runWith({});
    const EngineResult part = runWith({QStringLiteral("--val-subset"), QStringLiteral("10")});
    const EngineResult beyond = runWith({QStringLiteral("--val-subset"), QStringLiteral("1000")});
    for (const EngineResult* result : {&whole, &part, &beyond})
        QVERIFY2(result->exitCode == 0, qPrintable(result->summaryText()));
    QCOMPARE(whole.last(QStringLiteral("eval")).value(QStringLiteral("samples")).toInt(), 40);
    QCOMPARE(part.last(QStringLiteral("eval")).value(QStringLiteral("samples")).toInt(), 10);
    QCOMPARE(beyond.last(QStringLiteral("eval")).value(QStringLiteral("samples")).toInt(), 40);  // all there is
    const double all = whole.last(QStringLiteral("eval")).value(QStringLiteral("val_loss")).toDouble();
    QCOMPARE(beyond.last(QStringLiteral("eval")).value(QStringLiteral("val_loss")).toDouble(), all);
    QVERIFY(part.last(QStringLiteral("eval")).value(QStringLiteral("val_loss")).toDouble() != all);
}

void OwnModelTest::aModelComputingItsOwnLossTrains()
{
    const EngineResult result = runFlags(base(QStringLiteral("own_loss.pt"), QStringLiteral("train_npy")) +
                                          QStringList{QStringLiteral("--loss"), QStringLiteral("model"), QStringLiteral("--val-data"),
                                                      file(QStringLiteral("val.pt")), QStringLiteral("--epochs"), QStringLiteral("4"),
                                                      QStringLiteral("--lr"), QStringLiteral("0.1")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    const QList<double> losses = stepLosses(result);
    QCOMPARE(losses.size(), 28);
    QVERIFY2(losses.last() < losses.first() * 0.7, qPrintable(QStringLiteral("%1 -> %2").arg(losses.first()).arg(losses.last())));
    // Not a classifier as far as the lab knows: no accuracy is claimed.
    QVERIFY(!result.ofType(QStringLiteral("step")).first().contains(QStringLiteral("accuracy")));
    QVERIFY(!result.last(QStringLiteral("eval")).contains(QStringLiteral("val_accuracy")));
}

void OwnModelTest::aParameterWithoutGradientStopsTheRunByName()
{
    // `extra` is used by full batches of 16 only: each rank's 50 samples end with a batch of 2.
    const EngineResult result = runFlags(base(QStringLiteral("sometimes_unused.pt"), QStringLiteral("train.pt")) +
                                          QStringList{QStringLiteral("--world-size"), QStringLiteral("2")});
    QCOMPARE(result.exitCode, 2);
    const QJsonObject error = result.last(QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("model_file"));
    const QString message = error.value(QStringLiteral("message")).toString();
    for (const QString& phrase : {QStringLiteral("extra.weight"), QStringLiteral("extra.bias"), QStringLiteral("got no gradient"),
                                  QStringLiteral("(at step 4)"), file(QStringLiteral("sometimes_unused.pt"))})
        QVERIFY2(message.contains(phrase), qPrintable(message));
    QCOMPARE(result.ofType(QStringLiteral("step")).size(), 3);
}

void OwnModelTest::aThrowingForwardNamesTheStepAndRank()
{
    const EngineResult result = runFlags(base(QStringLiteral("throws.pt"), QStringLiteral("train.pt")) +
                                          QStringList{QStringLiteral("--world-size"), QStringLiteral("2")});
    QCOMPARE(result.exitCode, 2);
    const QJsonObject error = result.last(QStringLiteral("error"));
    const QString message = error.value(QStringLiteral("message")).toString();
    QVERIFY2(error.contains(QStringLiteral("rank")), qPrintable(message));
    QVERIFY2(message.startsWith(QStringLiteral("rank %1 failed").arg(error.value(QStringLiteral("rank")).toInt())), qPrintable(message));
    for (const QString& phrase : {QStringLiteral("threw in forward"), QStringLiteral("this model wants batches of 16"),
                                  QStringLiteral("(at step 4)"), file(QStringLiteral("throws.pt"))})
        QVERIFY2(message.contains(phrase), qPrintable(message));
}

void OwnModelTest::dropoutRepeatsExactlyWithTheSeed()
{
    // bn_cnn drops a quarter of its features in training: every rank draws its own masks.
    auto losses = [&](const QString& seed) {
        return stepLosses(runFlags(base(QStringLiteral("bn_cnn.pt"), QStringLiteral("train.pt")) +
                                    QStringList{QStringLiteral("--world-size"), QStringLiteral("2"), QStringLiteral("--seed"), seed,
                                                QStringLiteral("--no-shuffle"), QStringLiteral("--lr"), QStringLiteral("0.05")}));
    };
    const QList<double> first = losses(QStringLiteral("5")), again = losses(QStringLiteral("5")), other = losses(QStringLiteral("6"));
    QCOMPARE(first.size(), 4);
    QCOMPARE(again, first);
    // Without shuffling the seed changes only the dropout masks: step 1's loss differs already.
    QVERIFY2(other.first() != first.first(), qPrintable(QString::number(other.first())));
}

void OwnModelTest::saveModelWritesTheTrainedModel()
{
    const QString saved = file(QStringLiteral("trained.pt"));
    const EngineResult result = runFlags(base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt")) +
                                          QStringList{QStringLiteral("--epochs"), QStringLiteral("3"), QStringLiteral("--lr"),
                                                      QStringLiteral("0.2"), QStringLiteral("--save-model"), saved});
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    QCOMPARE(result.events.last().value(QStringLiteral("type")).toString(), QStringLiteral("summary"));
    QVERIFY(QFileInfo::exists(saved));
    // The trained model, loaded again: its first batch's loss is the trained one, lower than the untrained.
    const double untrained = inspection(inspect(base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt"))))
                                 .value(QStringLiteral("first_batch")).toObject().value(QStringLiteral("loss")).toDouble();
    const EngineResult reloaded = inspect(base(QStringLiteral("trained.pt"), QStringLiteral("train.pt")));
    QVERIFY2(reloaded.exitCode == 0, qPrintable(reloaded.summaryText()));
    const double trained = inspection(reloaded).value(QStringLiteral("first_batch")).toObject().value(QStringLiteral("loss")).toDouble();
    QVERIFY2(trained < untrained * 0.7, qPrintable(QStringLiteral("%1 -> %2").arg(untrained).arg(trained)));
}

void OwnModelTest::trainSubsetTrainsOnTheFirstSamples()
{
    const QStringList subset{QStringLiteral("--train-subset"), QStringLiteral("40")};
    const QJsonObject report = inspection(inspect(base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt")) + subset));
    QCOMPARE(report.value(QStringLiteral("train_data")).toObject().value(QStringLiteral("samples")).toInt(), 100);  // what the file holds
    QCOMPARE(report.value(QStringLiteral("dataset_size")).toInt(), 40);
    QCOMPARE(report.value(QStringLiteral("steps_per_epoch")).toInt(), 3);
    const EngineResult result = runFlags(base(QStringLiteral("mlp.pt"), QStringLiteral("train.pt")) + subset);
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    QCOMPARE(result.first(QStringLiteral("config")).value(QStringLiteral("dataset_size")).toInt(), 40);
    QCOMPARE(result.last(QStringLiteral("epoch")).value(QStringLiteral("samples")).toInt(), 40);
}

QTEST_GUILESS_MAIN(OwnModelTest)
#include "tst_own_model.moc"
