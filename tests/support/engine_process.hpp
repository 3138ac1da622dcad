// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Running ddplab-engine from a test and reading what it said.

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace ddplab::test {

QString enginePath();

struct EngineResult {
    int exitCode = -1;
    bool crashed = false;
    QList<QJsonObject> events;  // stdout, one JSON object per line
    QList<QByteArray> badLines; // stdout lines that were not JSON objects
    QByteArray stderrText;

    QList<QJsonObject> ofType(const QString& type) const;
    QJsonObject first(const QString& type) const;  // empty when absent
    QJsonObject last(const QString& type) const;
    QString summaryText() const;  // for failure messages: exit code, stderr, last event
};

// A run a test needs to have succeeded: otherwise the test stops with what the engine said.
#define REQUIRE_OK(result) QVERIFY2((result).exitCode == 0, qPrintable((result).summaryText()))

// Each step event's `field`, in step order (0 where a step lacks it).
QList<double> stepValues(const EngineResult& result, const char* field);
QList<double> stepValues(const EngineResult& result, const QString& field);

// The largest |a - b| / |b| over two series of the same length (|b| at least 1e-12). NaN when
// their lengths differ or they are empty, so that neither "the same" (< tolerance) nor "visibly
// different" (> threshold) holds for a run that failed or stopped short.
double maxRelativeDifference(const QList<double>& a, const QList<double>& b);

// Runs `ddplab-engine <arguments>` to completion (the timeout is a safety net, not a check).
EngineResult runEngine(const QStringList& arguments, int timeoutMs = 300000,
                       const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment());

// Runs a config object (written to a temporary file) as `ddplab-engine run --config FILE` would:
// without `extra` flags through the test process's one `ddplab-engine runs` session (the same code,
// forked instead of started: docs/ci.md), with them by `ddplab-engine run --config FILE EXTRA`.
EngineResult runConfig(const QJsonObject& config, const QStringList& extra = {});

// Runs what `ddplab-engine run FLAGS` would, through runConfig's session: each flag becomes the
// config key it sets (`ddplab-engine keys`). For suites about what a run does, not about the
// command line: a flag that is not a key's, or a value not of its type, runs `run FLAGS` itself.
EngineResult runFlags(const QStringList& flags);

// `ddplab-engine COMMAND FLAGS`: `run` through runFlags (the session), any other command started.
EngineResult engineCommand(const QString& command, const QStringList& flags);

// `config` with the keys of `overrides` set to theirs.
QJsonObject withOverrides(QJsonObject config, const QJsonObject& overrides);

// Reads what a finished (or killed) engine process said.
EngineResult collect(QProcess& process);

// Parses JSON Lines text.
QList<QJsonObject> parseEvents(const QByteArray& text, QList<QByteArray>* badLines = nullptr);

// The events of a file written with --events (empty when it cannot be read).
QList<QJsonObject> readEventsFile(const QString& path);

}  // namespace ddplab::test
