// SPDX-License-Identifier: GPL-3.0-or-later
// The executable's own surface: --version, --help, `devices`, `keys`, and what it says when
// called wrongly.

#include "core/config_keys.hpp"
#include "core/protocol.hpp"
#include "support/engine_process.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using ddplab::test::runEngine;

namespace {

// Runs the engine and returns its stdout as one JSON document (devices and keys print one).
QJsonDocument jsonOutput(const QStringList& arguments, int* exitCode)
{
    QProcess process;
    process.start(ddplab::test::enginePath(), arguments);
    process.waitForFinished(60000);
    *exitCode = process.exitCode();
    return QJsonDocument::fromJson(process.readAllStandardOutput());
}

}  // namespace

class EngineCliTest : public QObject {
    Q_OBJECT

private slots:
    void versionNamesProtocol();
    void helpListsSubcommandsAndExitCodes();
    void devicesReportsBackends();
    void keysMatchTheTable();
    void noSubcommandIsAnError();
};

void EngineCliTest::versionNamesProtocol()
{
    QProcess process;
    process.start(ddplab::test::enginePath(), {QStringLiteral("--version")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    const QString text = QString::fromUtf8(process.readAllStandardOutput());
    QCOMPARE(text.trimmed(), QStringLiteral("ddplab-engine %1 (event protocol %2)")
                                 .arg(QString::fromStdString(ddplab::protocol::engineVersion()))
                                 .arg(ddplab::kProtocolVersion));
}

void EngineCliTest::helpListsSubcommandsAndExitCodes()
{
    QProcess process;
    process.start(ddplab::test::enginePath(), {QStringLiteral("--help")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    const QString text = QString::fromUtf8(process.readAllStandardOutput());
    for (const char* word : {"run", "worker", "inspect", "devices", "shard", "keys", "4 a rank failed", "5 cancelled"})
        QVERIFY2(text.contains(QLatin1String(word)), word);

    process.start(ddplab::test::enginePath(), {QStringLiteral("run"), QStringLiteral("--help")});
    QVERIFY(process.waitForFinished(60000));
    const QString runHelp = QString::fromUtf8(process.readAllStandardOutput());
    QVERIFY(runHelp.contains(QStringLiteral("--lr-rule")) && runHelp.contains(QStringLiteral("--no-shuffle")));
    QVERIFY(runHelp.contains(QStringLiteral("one of none, linear, sqrt, power, sde; default none")));
    // Switches state their default, which CLI11's "{false}" (the value of --no-...) does not.
    QVERIFY(runHelp.contains(QStringLiteral("[true or false; default true]")));
    QVERIFY(runHelp.contains(QStringLiteral("[an integer from 1 to 1000000; default 128]")));
}

void EngineCliTest::devicesReportsBackends()
{
    int exitCode = -1;
    const QJsonObject report = jsonOutput({QStringLiteral("devices")}, &exitCode).object();
    QCOMPARE(exitCode, 0);
    QCOMPARE(report.value(QStringLiteral("gloo")).toBool(), true);
    QVERIFY(report.value(QStringLiteral("torch_version")).toString().startsWith(QStringLiteral("1.")) ||
            report.value(QStringLiteral("torch_version")).toString().startsWith(QStringLiteral("2.")));
    QVERIFY(report.contains(QStringLiteral("nccl_built")));
    QVERIFY(report.value(QStringLiteral("cpu_cores")).toInt() >= 1);
    QCOMPARE(report.value(QStringLiteral("max_local_ranks")).toInt(), 128);
    // Without CUDA in LibTorch there is no GPU to count, whatever the machine has.
    if (!report.value(QStringLiteral("torch_cuda")).toBool())
        QCOMPARE(report.value(QStringLiteral("cuda_device_count")).toInt(), 0);
}

void EngineCliTest::keysMatchTheTable()
{
    int exitCode = -1;
    const QJsonArray keys = jsonOutput({QStringLiteral("keys")}, &exitCode).array();
    QCOMPARE(exitCode, 0);
    QCOMPARE(keys.size(), qsizetype(ddplab::configKeys().size()));
    const QJsonObject first = keys.first().toObject();
    QCOMPARE(first.value(QStringLiteral("key")).toString(), QStringLiteral("workload"));
    QCOMPARE(first.value(QStringLiteral("default")).toString(), QStringLiteral("toy"));
    for (const QJsonValue& value : keys) {
        const QJsonObject key = value.toObject();
        if (key.value(QStringLiteral("key")).toString() == QStringLiteral("shuffle"))
            QCOMPARE(key.value(QStringLiteral("flag")).toString(), QStringLiteral("--shuffle / --no-shuffle"));
        if (key.value(QStringLiteral("key")).toString() == QStringLiteral("batch_size"))
            QCOMPARE(key.value(QStringLiteral("default")).toInt(), 128);
    }
}

void EngineCliTest::noSubcommandIsAnError()
{
    const auto bare = runEngine({});
    QCOMPARE(bare.exitCode, int(ddplab::kExitInvalidInput));
    QVERIFY(bare.stderrText.contains("Subcommands"));
    const auto unknown = runEngine({QStringLiteral("train")});
    QCOMPARE(unknown.exitCode, int(ddplab::kExitInvalidInput));
    QVERIFY2(unknown.stderrText.contains("unknown subcommand \"train\"; use one of run, worker, runs, inspect, devices, keys, shard"),
             unknown.stderrText.constData());
}

QTEST_GUILESS_MAIN(EngineCliTest)
#include "tst_engine_cli.moc"
