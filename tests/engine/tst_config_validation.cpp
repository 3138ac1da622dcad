// SPDX-License-Identifier: GPL-3.0-or-later
// Every kind of invalid setting is refused with a message that names the key and what is
// allowed; valid settings resolve as documented; the CLI turns both into events and exit codes.

#include "core/config_error.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"
#include "core/derived.hpp"
#include "core/host_memory.hpp"
#include "core/protocol.hpp"
#include "support/engine_process.hpp"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace ddplab;
using ddplab::test::runEngine;

namespace {

// Applies a JSON object of settings and the checks between keys; returns the error or {}.
std::optional<ConfigError> problemWith(const QByteArray& json)
{
    try {
        Config config;
        applyJson(config, Json::parse(json.constData()), "test");
        requireValid(config);
    } catch (const ConfigError& error) {
        return error;
    }
    return std::nullopt;
}

}  // namespace

class ConfigValidationTest : public QObject {
    Q_OBJECT

private slots:
    void rejectsBadJsonValues_data();
    void rejectsBadJsonValues();
    void rejectsBadFlagText_data();
    void rejectsBadFlagText();
    void acceptsAndRoundTripsValidConfig();
    void everyKeyHasHelpAndAllowedText();
    void cliRejectsUnknownFlagWithSuggestion();
    void cliRejectsMalformedConfigFile();
    void cliRejectsUnreadableConfigFile();
    void cliReportsInvalidFlagValueAsEvent();
    void rankCheckedSettingKeepsItsKey();
    void cliFlagsOverrideConfigFile();
    void cliNullRestoresDerivedDefault();
    void shippedPresetsAndLessonsAreValid();
    void aTinyNumberIsTakenAsItIs();
    void failAtRoundTripsEveryMode();
    void keyNamesInMessagesKeepControlCharacters();
    void cgroupLimitsAreRead_data();
    void cgroupLimitsAreRead();
    void addressSpaceLimitIsPerRank();
    void aRanksMemoryIsTheProcessTheSamplerAndItsWorkloadsData();
};

void ConfigValidationTest::rejectsBadJsonValues_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("message");

    QTest::newRow("batch_size zero") << QByteArray(R"({"batch_size": 0})") << "batch_size" << "an integer from 1 to 1000000";
    QTest::newRow("batch_size negative") << QByteArray(R"({"batch_size": -3})") << "batch_size" << "(got -3)";
    QTest::newRow("batch_size fractional") << QByteArray(R"({"batch_size": 16.5})") << "batch_size" << "(got 16.5)";
    QTest::newRow("batch_size as text") << QByteArray(R"({"batch_size": "16"})") << "batch_size" << "an integer";
    QTest::newRow("world_size zero") << QByteArray(R"({"world_size": 0})") << "world_size" << "an integer from 1 to 128";
    QTest::newRow("world_size too many") << QByteArray(R"({"world_size": 129})") << "world_size" << "(got 129)";
    QTest::newRow("lr negative") << QByteArray(R"({"lr": -0.1})") << "lr" << "a finite number > 0";
    QTest::newRow("lr zero") << QByteArray(R"({"lr": 0})") << "lr" << "> 0 (got 0)";
    QTest::newRow("lr as text") << QByteArray(R"({"lr": "fast"})") << "lr" << "(got \"fast\")";
    QTest::newRow("epochs zero") << QByteArray(R"({"epochs": 0})") << "epochs" << "an integer from 1";
    QTest::newRow("num_examples zero") << QByteArray(R"({"num_examples": 0})") << "num_examples" << "an integer from 1";
    QTest::newRow("experiments zero") << QByteArray(R"({"experiments": 0})") << "experiments" << "an integer from 1";
    QTest::newRow("noise negative") << QByteArray(R"({"noise": -1})") << "noise" << ">= 0";
    QTest::newRow("momentum one") << QByteArray(R"({"momentum": 1})") << "momentum" << ">= 0 and < 1";
    QTest::newRow("unknown workload") << QByteArray(R"({"workload": "imagenet"})") << "workload"
                                      << "one of toy, linreg, fashion_mnist, torchscript (got \"imagenet\")";
    QTest::newRow("unknown optimizer") << QByteArray(R"({"optimizer": "rmsprop"})") << "optimizer"
                                       << "one of sgd, adam, adamw, novograd, lamb, lars, adam_bsi, adamw_bsi";
    QTest::newRow("unknown lr rule") << QByteArray(R"({"lr_rule": "cube"})") << "lr_rule" << "one of none, linear, sqrt, power, sde";
    // Malladi et al.'s rule is Adam's; each other optimizer is told why not.
    QTest::newRow("sde for sgd") << QByteArray(R"({"lr_rule": "sde"})") << "lr_rule"
                                 << "lr_rule sde is Malladi et al.'s rule for adam and adamw (it rescales beta1, beta2 and eps "
                                    "with the batch), not for optimizer sgd: it has no beta or eps to rescale";
    QTest::newRow("sde for lamb") << QByteArray(R"({"lr_rule": "sde", "optimizer": "lamb"})") << "lr_rule"
                                  << "not for optimizer lamb: it normalises per layer";
    QTest::newRow("sde for adam_bsi") << QByteArray(R"({"lr_rule": "sde", "optimizer": "adam_bsi"})") << "lr_rule"
                                      << "not for optimizer adam_bsi: its second moment";
    // k = 10 makes beta1 = 0.9 zero: refused, naming the largest k and batch.
    QTest::newRow("sde k 10") << QByteArray(R"({"lr_rule": "sde", "optimizer": "adam", "world_size": 10, "batch_size": 16})")
                              << "lr_rule"
                              << "lr_rule sde at k = 10 (effective batch 160 / base_batch_size 16) makes beta1 1 - (160 / 16) * "
                                 "(1 - 0.9) = ";
    QTest::newRow("sde k 10 limit") << QByteArray(R"({"lr_rule": "sde", "optimizer": "adamw", "world_size": 10, "batch_size": 16})")
                                    << "lr_rule" << "the rule allows k below 1 / (1 - beta1) = 10 (an effective batch below 160 here)";
    QTest::newRow("sde beta2") << QByteArray(R"({"lr_rule": "sde", "optimizer": "adam", "world_size": 4, "batch_size": 8, "beta1": 0.99, "beta2": 0.7})")
                               << "lr_rule" << "makes beta2 1 - (32 / 8) * (1 - 0.7) = -0.2, not above 0; the rule allows k below "
                                               "1 / (1 - beta2) = 3.33333";
    QTest::newRow("timescale for adam") << QByteArray(R"({"weight_decay_rule": "timescale", "optimizer": "adam"})")
                                        << "weight_decay_rule" << "needs optimizer adamw or adamw_bsi (got adam)";
    QTest::newRow("timescale decays too fast") << QByteArray(R"({"weight_decay_rule": "timescale", "optimizer": "adamw", "lr": 0.1, "weight_decay": 2, "world_size": 8})")
                                               << "weight_decay_rule" << "sets weight_decay to 16 at this batch, and lr * weight_decay = 1.6 is not below 1";
    QTest::newRow("unknown weight decay rule") << QByteArray(R"({"weight_decay_rule": "linear"})") << "weight_decay_rule"
                                               << "one of none, timescale";
    QTest::newRow("stop on val_loss without one") << QByteArray(R"({"workload": "linreg", "stop_at_loss": 0.1, "stop_measure": "val_loss"})")
                                                  << "stop_measure" << "stop_measure val_loss needs a validation set";
    QTest::newRow("unknown stop measure") << QByteArray(R"({"stop_measure": "loss"})") << "stop_measure"
                                          << "one of train_loss, val_loss, batch_loss";
    QTest::newRow("unknown backend") << QByteArray(R"({"backend": "mpi"})") << "backend" << "one of auto, gloo, nccl";
    QTest::newRow("shuffle as text") << QByteArray(R"({"shuffle": "yes"})") << "shuffle" << "true or false";
    QTest::newRow("unknown key") << QByteArray(R"({"batchsize": 16})") << "batchsize" << "did you mean \"batch_size\"";
    QTest::newRow("unknown key far off") << QByteArray(R"({"colour": 1})") << "colour" << "unknown key \"colour\" in test";
    QTest::newRow("fail_at malformed") << QByteArray(R"({"fail_at": "x"})") << "fail_at" << "RANK:STEP";
    // strtoll clamped it to the largest integer, without a word.
    QTest::newRow("fail_at step overflows") << QByteArray(R"({"fail_at": "0:99999999999999999999"})") << "fail_at"
                                            << "fail_at's step must be from 1 to 1000000000 (got \"0:99999999999999999999\")";
    QTest::newRow("fail_at rank overflows") << QByteArray(R"({"fail_at": "99999999999999999999:1"})") << "fail_at"
                                            << "fail_at's rank must be from 0 to 127";
    QTest::newRow("fail_at unknown mode") << QByteArray(R"({"fail_at": "0:1:melt"})") << "fail_at" << "RANK:STEP:oom";
    QTest::newRow("fail_at beyond world") << QByteArray(R"({"world_size": 2, "fail_at": "2:1"})") << "fail_at"
                                          << "ranks are 0 to 1";
    QTest::newRow("nccl on cpu") << QByteArray(R"({"backend": "nccl"})") << "backend" << "needs device cuda";
    QTest::newRow("two warmups") << QByteArray(R"({"warmup_steps": 5, "warmup_epochs": 1})") << "warmup_steps" << "not both";
    QTest::newRow("nesterov without momentum") << QByteArray(R"({"nesterov": true})") << "nesterov" << "momentum > 0";
    QTest::newRow("experiments on fashion") << QByteArray(R"({"workload": "fashion_mnist", "experiments": 4})") << "experiments"
                                            << "needs workload toy or linreg";
    QTest::newRow("too much data") << QByteArray(R"({"experiments": 1000000, "num_examples": 1000})") << "experiments"
                                   << "at most 200000000";
    QTest::newRow("nothing left to train") << QByteArray(R"({"num_examples": 1, "world_size": 2, "drop_last": true})")
                                           << "num_examples" << "leaves no sample";
    QTest::newRow("torchscript without a model") << QByteArray(R"({"workload": "torchscript", "train_data": "d.pt"})")
                                                 << "model_file" << "needs model_file";
    QTest::newRow("torchscript without data") << QByteArray(R"({"workload": "torchscript", "model_file": "m.pt"})")
                                              << "train_data" << "needs train_data";
    QTest::newRow("unknown loss") << QByteArray(R"({"loss": "hinge"})") << "loss"
                                  << "one of cross_entropy, mse, l1, bce_with_logits, model";
    QTest::newRow("experiments on torchscript")
        << QByteArray(R"({"workload": "torchscript", "model_file": "m.pt", "train_data": "d.pt", "experiments": 2})")
        << "experiments" << "needs workload toy or linreg";
}

void ConfigValidationTest::rejectsBadJsonValues()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, key);
    QFETCH(QString, message);
    const auto error = problemWith(json);
    QVERIFY2(error.has_value(), json.constData());
    QCOMPARE(QString::fromStdString(error->key()), key);
    QVERIFY2(QString::fromStdString(error->what()).contains(message), error->what());
}

void ConfigValidationTest::rejectsBadFlagText_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("lr nan") << "lr" << "nan" << "lr must be a finite number > 0 (got \"nan\")";
    QTest::newRow("lr inf") << "lr" << "inf" << "(got \"inf\")";
    QTest::newRow("lr trailing junk") << "lr" << "1e-3x" << "(got \"1e-3x\")";
    QTest::newRow("batch_size word") << "batch_size" << "abc" << "batch_size must be an integer from 1 to 1000000 (got \"abc\")";
    QTest::newRow("batch_size empty") << "batch_size" << "" << "(got \"\")";
    QTest::newRow("world_size fraction") << "world_size" << "2.5" << "(got \"2.5\")";
    QTest::newRow("shuffle maybe") << "shuffle" << "maybe" << "shuffle must be true or false";
    QTest::newRow("lr too large for a double") << "lr" << "1e999" << "too large for a number";
}

void ConfigValidationTest::rejectsBadFlagText()
{
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(QString, message);
    const ConfigKey* configKey = findConfigKey(key.toStdString());
    QVERIFY(configKey);
    Config config;
    try {
        assignFromText(config, *configKey, text.toStdString());
        QFAIL("accepted invalid text");
    } catch (const ConfigError& error) {
        QCOMPARE(QString::fromStdString(error.key()), key);
        QVERIFY2(QString::fromStdString(error.what()).contains(message), error.what());
    }
}

void ConfigValidationTest::acceptsAndRoundTripsValidConfig()
{
    Config config;
    applyJson(config,
              Json::parse(R"({"world_size": 8, "batch_size": 16, "lr": 0.001, "lr_rule": "sqrt", "shuffle": false,
                              "base_batch_size": 16, "experiments": 1000, "noise": 1.0, "fail_at": "3:2:crash"})"),
              "test");
    requireValid(config);
    QCOMPARE(config.worldSize, int64_t(8));
    QCOMPARE(config.batchSize, int64_t(16));
    QCOMPARE(config.lrRule, LrRule::Sqrt);
    QCOMPARE(config.shuffle, false);
    QCOMPARE(config.baseBatchSize.value(), int64_t(16));
    QVERIFY(config.failAt.has_value());
    QCOMPARE(config.failAt->rank, int64_t(3));
    QCOMPARE(config.failAt->step, int64_t(2));
    QCOMPARE(config.failAt->mode, FailureMode::Crash);

    // What the `config` event prints reads back to the same settings.
    Config reread;
    applyJson(reread, configToJson(config), "round trip");
    QCOMPARE(QString::fromStdString(configToJson(reread).dump()), QString::fromStdString(configToJson(config).dump()));

    // Defaults: seed 000's set-up, shuffle on with seed 0, base batch = batch.
    const Config defaults;
    QCOMPARE(defaults.shuffle, true);
    QCOMPARE(defaults.seed, int64_t(0));
    QVERIFY(!defaults.baseBatchSize.has_value());
    QCOMPARE(defaults.numExamples, int64_t(256));
}

void ConfigValidationTest::everyKeyHasHelpAndAllowedText()
{
    QVERIFY(configKeys().size() >= 40);
    for (const ConfigKey& key : configKeys()) {
        QVERIFY2(!key.help.empty(), key.name.c_str());
        QVERIFY2(!key.allowed.empty(), key.name.c_str());
        QVERIFY2(key.flag().find('_') == std::string::npos, key.name.c_str());
    }
}

void ConfigValidationTest::cliRejectsUnknownFlagWithSuggestion()
{
    const auto result = runEngine({QStringLiteral("run"), QStringLiteral("--batchsize"), QStringLiteral("16")});
    QCOMPARE(result.exitCode, int(kExitInvalidInput));
    QCOMPARE(result.events.size(), 2);
    QCOMPARE(result.events[0].value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
    const QString message = result.events[1].value(QStringLiteral("message")).toString();
    QVERIFY2(message.contains(QStringLiteral("unknown option --batchsize")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("did you mean --batch-size?")), qPrintable(message));
    QVERIFY(result.stderrText.contains("unknown option --batchsize"));
}

void ConfigValidationTest::cliRejectsMalformedConfigFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\n  \"batch_size\": 16,\n  \"lr\": \n}\n");
    file.close();
    const auto result = runEngine({QStringLiteral("run"), QStringLiteral("--config"), path});
    QCOMPARE(result.exitCode, int(kExitInvalidInput));
    const QJsonObject error = result.last(QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("config"));
    const QString message = error.value(QStringLiteral("message")).toString();
    QVERIFY2(message.contains(QStringLiteral("is not valid JSON")) && message.contains(QStringLiteral("line 4")),
             qPrintable(message));
}

void ConfigValidationTest::cliRejectsUnreadableConfigFile()
{
    const auto result = runEngine({QStringLiteral("run"), QStringLiteral("--config"), QStringLiteral("/nonexistent/preset.json")});
    QCOMPARE(result.exitCode, int(kExitInvalidInput));
    const QString message = result.last(QStringLiteral("error")).value(QStringLiteral("message")).toString();
    QVERIFY2(message.contains(QStringLiteral("/nonexistent/preset.json")) && message.contains(QStringLiteral("No such file")),
             qPrintable(message));
}

void ConfigValidationTest::cliReportsInvalidFlagValueAsEvent()
{
    const auto result = runEngine({QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("0")});
    QCOMPARE(result.exitCode, int(kExitInvalidInput));
    const QJsonObject error = result.last(QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("world_size"));
    QCOMPARE(error.value(QStringLiteral("exit_code")).toInt(), int(kExitInvalidInput));
    QVERIFY(result.ofType(QStringLiteral("config")).isEmpty());
}

// device cuda can only be checked inside a rank: asking LibTorch about CUDA before the fork
// would start CUDA in the launcher, which its forked ranks could not use. The launcher's
// final error must still name the key, as a check before the fork would.
void ConfigValidationTest::rankCheckedSettingKeepsItsKey()
{
    QProcess devices;
    devices.start(ddplab::test::enginePath(), {QStringLiteral("devices")});
    QVERIFY(devices.waitForFinished(60000));
    if (QJsonDocument::fromJson(devices.readAllStandardOutput()).object().value(QStringLiteral("torch_cuda")).toBool())
        QSKIP("this engine's LibTorch has CUDA: device cuda is valid here");
    const auto result = runEngine({QStringLiteral("run"), QStringLiteral("--device"), QStringLiteral("cuda"),
                                   QStringLiteral("--world-size"), QStringLiteral("2")});
    QCOMPARE(result.exitCode, int(kExitInvalidInput));
    const QJsonObject error = result.last(QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("device"));
    QCOMPARE(error.value(QStringLiteral("exit_code")).toInt(), int(kExitInvalidInput));
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("use device cpu")),
             qPrintable(result.summaryText()));
}

void ConfigValidationTest::cliFlagsOverrideConfigFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("preset.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"batch_size": 64, "lr": 0.5, "world_size": 2, "num_examples": 128})");
    file.close();
    const auto result = runEngine({QStringLiteral("run"), QStringLiteral("--config"), path, QStringLiteral("--lr"),
                                   QStringLiteral("0.25")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    const QJsonObject config = result.first(QStringLiteral("config"));
    QCOMPARE(config.value(QStringLiteral("batch_size")).toInt(), 64);  // from the file
    QCOMPARE(config.value(QStringLiteral("lr")).toDouble(), 0.25);     // the flag wins
    QCOMPARE(config.value(QStringLiteral("world_size")).toInt(), 2);
    QCOMPARE(config.value(QStringLiteral("effective_batch_size")).toInt(), 128);
    QCOMPARE(config.value(QStringLiteral("steps_per_epoch")).toInt(), 1);
}

void ConfigValidationTest::shippedPresetsAndLessonsAreValid()
{
    // Every preset and every run of every lesson must be accepted by the engine as it is.
    auto requireAccepted = [](const Json& object, const std::string& origin) {
        try {
            Config config;
            applyJson(config, object, origin);
            requireValid(config);
        } catch (const ConfigError& error) {
            QFAIL(qPrintable(QString::fromStdString(origin + ": " + error.what())));
        }
    };
    const QDir presets(QStringLiteral(DDPLAB_RESOURCES_DIR "/presets"));
    const QStringList presetFiles = presets.entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY(presetFiles.size() >= 30);
    for (const QString& name : presetFiles) {
        QFile file(presets.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        requireAccepted(Json::parse(file.readAll().toStdString()), name.toStdString());
    }
    const QDir lessons(QStringLiteral(DDPLAB_RESOURCES_DIR "/lessons"));
    const QStringList lessonFiles = lessons.entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY(lessonFiles.size() >= 13);
    for (const QString& name : lessonFiles) {
        QFile file(lessons.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Json lesson = Json::parse(file.readAll().toStdString());
        QVERIFY2(lesson.contains("runs") && !lesson["runs"].empty(), qPrintable(name));
        QVERIFY2(QFile::exists(lessons.filePath(QString::fromStdString(lesson["explanation"].get<std::string>()))), qPrintable(name));
        for (const Json& run : lesson["runs"]) {
            // Every run names one of the presets, which hold the settings.
            QVERIFY2(run.contains("preset"), qPrintable(name));
            const QString preset = QString::fromStdString(run["preset"].get<std::string>()) + QStringLiteral(".json");
            QVERIFY2(presetFiles.contains(preset), qPrintable(name + QStringLiteral(": no preset ") + preset));
        }
    }
}

void ConfigValidationTest::cliNullRestoresDerivedDefault()
{
    // A preset's base_batch_size is undone from the command line, as null would in the file.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("preset.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"base_batch_size": 64, "batch_size": 16})");
    file.close();
    for (const auto& [flagValue, expected] : {std::pair{QStringLiteral("null"), 16}, std::pair{QStringLiteral("32"), 32}}) {
        const auto result = runEngine({QStringLiteral("run"), QStringLiteral("--config"), path, QStringLiteral("--max-steps"),
                                       QStringLiteral("1"), QStringLiteral("--base-batch-size"), flagValue});
        QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
        QCOMPARE(result.first(QStringLiteral("config")).value(QStringLiteral("base_batch_size")).toInt(), expected);
    }
    // Only keys that may be null take it.
    const auto refused = runEngine({QStringLiteral("run"), QStringLiteral("--batch-size"), QStringLiteral("null")});
    QCOMPARE(refused.exitCode, int(kExitInvalidInput));
    QCOMPARE(refused.last(QStringLiteral("error")).value(QStringLiteral("key")).toString(), QStringLiteral("batch_size"));
}

void ConfigValidationTest::aTinyNumberIsTakenAsItIs()
{
    // 1e-320 underflows a normal double (strtod says ERANGE): it was refused with "from 0 to
    // 1e+06", which it is. Read as a config file reads it.
    Config config;
    assignFromText(config, *findConfigKey("warmup_epochs"), "1e-320");
    QVERIFY(config.warmupEpochs > 0 && config.warmupEpochs < 1e-300);
    Config fromJson;
    applyJson(fromJson, Json::parse("{\"warmup_epochs\": 1e-320}"), "test");
    QCOMPARE(fromJson.warmupEpochs, config.warmupEpochs);
}

void ConfigValidationTest::failAtRoundTripsEveryMode()
{
    for (const char* text : {"1:2", "1:2:crash", "0:5:hang", "3:7:oom"}) {
        Config config;
        applyJson(config, Json::parse(std::string("{\"world_size\": 4, \"fail_at\": \"") + text + "\"}"), "test");
        QCOMPARE(QString::fromStdString(findConfigKey("fail_at")->read(config).get<std::string>()), QString::fromLatin1(text));
    }
}

void ConfigValidationTest::keyNamesInMessagesKeepControlCharacters()
{
    // A NUL in a key ended the message there (what() is a C string).
    const auto error = problemWith(QByteArray(R"({"ab\u0000cd": 1})"));
    QVERIFY(error.has_value());
    QCOMPARE(QString::fromLatin1(error->what()), QStringLiteral("unknown key \"ab\\u0000cd\" in test"));
}

void ConfigValidationTest::cgroupLimitsAreRead_data()
{
    QTest::addColumn<QByteArray>("procSelfCgroup");
    QTest::addColumn<QStringList>("files");  // path=content, under the mount
    QTest::addColumn<qint64>("headroom");
    constexpr qint64 kGiB = qint64(1) << 30;
    QTest::newRow("v2, a limit on the process's own group")
        << QByteArray("0::/user.slice/lab\n")
        << QStringList{QStringLiteral("user.slice/lab/memory.max=%1").arg(4 * kGiB), QStringLiteral("user.slice/lab/memory.current=%1").arg(kGiB),
                       QStringLiteral("user.slice/lab/memory.stat=anon 1\ninactive_file %1\n").arg(kGiB / 2)}
        << 4 * kGiB - kGiB / 2;
    QTest::newRow("v2, a tighter parent")
        << QByteArray("0::/user.slice/lab\n")
        << QStringList{QStringLiteral("user.slice/lab/memory.max=max"), QStringLiteral("user.slice/lab/memory.current=%1").arg(kGiB),
                       QStringLiteral("user.slice/memory.max=%1").arg(2 * kGiB), QStringLiteral("user.slice/memory.current=%1").arg(kGiB)}
        << kGiB;
    QTest::newRow("v2, a container's namespace (its own group at the mount)")
        << QByteArray("0::/\n") << QStringList{QStringLiteral("memory.max=%1").arg(3 * kGiB), QStringLiteral("memory.current=%1").arg(kGiB)}
        << 2 * kGiB;
    QTest::newRow("v2, no limit") << QByteArray("0::/x\n") << QStringList{QStringLiteral("x/memory.max=max"), QStringLiteral("x/memory.current=5")}
                                  << qint64(0);
    QTest::newRow("v1, the memory hierarchy")
        << QByteArray("9:pids:/a\n4:cpu,memory:/docker/abc\n0::/\n")
        << QStringList{QStringLiteral("memory/docker/abc/memory.limit_in_bytes=%1").arg(8 * kGiB),
                       QStringLiteral("memory/docker/abc/memory.usage_in_bytes=%1").arg(3 * kGiB),
                       QStringLiteral("memory/docker/abc/memory.stat=total_inactive_file %1\n").arg(kGiB)}
        << 6 * kGiB;
    QTest::newRow("v1, unlimited") << QByteArray("4:memory:/\n")
                                   << QStringList{QStringLiteral("memory/memory.limit_in_bytes=9223372036854771712"),
                                                  QStringLiteral("memory/memory.usage_in_bytes=100")}
                                   << qint64(0);
}

void ConfigValidationTest::cgroupLimitsAreRead()
{
    QFETCH(QByteArray, procSelfCgroup);
    QFETCH(QStringList, files);
    QFETCH(qint64, headroom);
    QTemporaryDir mount;
    for (const QString& entry : files) {
        const QString path = mount.filePath(entry.section(QLatin1Char('='), 0, 0));
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(entry.section(QLatin1Char('='), 1).toUtf8());
    }
    QCOMPARE(qint64(cgroupHeadroomBytes(procSelfCgroup.toStdString(), mount.path().toStdString())), headroom);
    QCOMPARE(qint64(memAvailableBytes("MemTotal: 100 kB\nMemAvailable:   2048 kB\n")), qint64(2048 * 1024));
}

void ConfigValidationTest::addressSpaceLimitIsPerRank()
{
    // ulimit -v holds for each process alone: 4 ranks of 100 MiB fit a 300 MiB limit on each.
    constexpr int64_t kMiB = 1 << 20;
    QCOMPARE(qint64(addressSpaceLeftBytes(0, 5 * kMiB)), qint64(0));
    QCOMPARE(qint64(addressSpaceLeftBytes(1000 * kMiB, 700 * kMiB)), qint64(300 * kMiB));
    Config config;
    config.worldSize = 4;
    MachineResources machine;
    machine.memoryAvailableBytes = int64_t(1) << 40;
    machine.addressSpacePerRankBytes = 4 * estimatedRankBytes(config);
    QVERIFY(findProblems(config, &machine, 4).empty());
    machine.addressSpacePerRankBytes = estimatedRankBytes(config) / 2;
    const ConfigProblems problems = findProblems(config, &machine, 4);
    QCOMPARE(problems.size(), size_t(1));
    QVERIFY2(QString::fromStdString(problems.front().message).contains(QStringLiteral("RLIMIT_AS, ulimit -v")), problems.front().message.c_str());
}

// A rank's estimate: 32 MiB of process, the sampler's indices, and what its workload's row
// (workload_table.cpp) says it holds of its data and a step's tensors.
void ConfigValidationTest::aRanksMemoryIsTheProcessTheSamplerAndItsWorkloadsData()
{
    Config toy;
    toy.numExamples = 256;
    toy.batchSize = 32;
    QCOMPARE(qint64(estimatedRankBytes(toy)), qint64(33563648));  // + 256 x 2 floats, 32 x 2 x 4 copies
    Config linreg = toy;
    linreg.workload = WorkloadKind::Linreg;
    linreg.dim = 8;
    linreg.experiments = 2;
    QCOMPARE(qint64(estimatedRankBytes(linreg)), qint64(33589632));  // 9 values an example, the weights, the moments in double
    Config fashion;
    fashion.workload = WorkloadKind::FashionMnist;
    fashion.trainSubset = 1000;
    fashion.batchSize = 32;
    fashion.worldSize = 2;
    QCOMPARE(qint64(estimatedRankBytes(fashion)), qint64(108922432));  // labels, 250 images' activations
    Config own = fashion;
    own.workload = WorkloadKind::TorchScript;
    own.trainSamples = 1000;
    QCOMPARE(qint64(estimatedRankBytes(own)), qint64(33570432));  // the data are the launcher's pages
}

QTEST_GUILESS_MAIN(ConfigValidationTest)
#include "tst_config_validation.moc"
