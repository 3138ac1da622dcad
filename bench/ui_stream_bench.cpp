// SPDX-License-Identifier: GPL-3.0-or-later
// ddplab-ui-stream-bench: how the desktop lab copes with a fast event stream. It runs itself
// as a stand-in engine (--produce RATE SECONDS: a separate process writing step events as JSON
// Lines to a pipe at a fixed rate, each stamped with its send time) and reads that stream
// through the lab's own pipeline: EngineProcess (QProcess, partial lines, one batch per read)
// -> RunData -> RunModel -> ChartGrid, shown on the offscreen platform, smoothing on, every
// chart redrawn on its coalescing timer. Per rate it prints one Markdown table row:
//   events handled per second, redraws per second per chart, redraw time, the largest
//   backlog (events sent but not yet handled) and lag, the longest event-loop stall, CPU use.
//
//   QT_QPA_PLATFORM=offscreen ddplab-ui-stream-bench [--rates 1000,5000,20000] [--seconds 10]

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "charts/run_model.hpp"
#include "client/engine/engine_process.hpp"
#include "client/runs/run_data.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTextStream>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

using namespace ddplab::ui;

namespace {

constexpr int kProbeIntervalMs = 10;  // the event-loop stall probe's period

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

// The stand-in engine: hello, config, RATE step events a second (an eval every 100 steps),
// summary. Events are written in the batches that are due each millisecond, as a busy engine
// with many ranks would.
int produce(long rate, double seconds)
{
    const long total = long(rate * seconds);
    std::printf("{\"type\":\"hello\",\"protocol\":1,\"engine\":\"ui-stream-bench\"}\n");
    std::printf("{\"type\":\"config\",\"workload\":\"fashion_mnist\",\"world_size\":8,\"batch_size\":16,\"epochs\":1,"
                "\"effective_batch_size\":128,\"total_steps\":%ld,\"backend\":\"gloo\",\"device_name\":\"cpu\"}\n",
                total);
    std::fflush(stdout);
    const qint64 start = nowNs();
    std::string buffer;
    long step = 0;
    while (step < total) {
        const long due = std::min(total, long(double(nowNs() - start) * 1e-9 * double(rate)) + 1);
        buffer.clear();
        for (; step < due; ++step) {
            const double t = double(step + 1);
            char line[768];
            std::snprintf(line, sizeof line,
                          "{\"type\":\"step\",\"step\":%ld,\"epoch\":0,\"lr\":%.17g,\"loss\":%.17g,\"accuracy\":%.17g,"
                          "\"samples\":128,\"grad_norm\":%.17g,\"noise_scale\":%.17g,\"update_var_estimate\":%.17g,"
                          "\"samples_per_sec\":%.17g,\"data_ms\":0.11,\"compute_ms\":%.17g,\"comm_ms\":%.17g,"
                          "\"optimizer_ms\":0.02,\"step_ms\":%.17g,\"sent_ns\":%lld}\n",
                          step + 1, 0.001 * std::min(1.0, t / 500.0), 2.3 * std::exp(-t / 3000.0) + 0.05 * std::sin(t),
                          0.9 - 0.8 * std::exp(-t / 2000.0), 1.0 + 0.3 * std::cos(t * 0.01), 40.0 + 5.0 * std::sin(t * 0.001),
                          1e-9 * (1.0 + 0.1 * std::sin(t)), 4000.0 + 300.0 * std::sin(t * 0.05), 3.0 + std::sin(t),
                          1.0 + 0.5 * std::cos(t), 4.2 + std::sin(t), static_cast<long long>(nowNs()));
            buffer += line;
            if ((step + 1) % 100 == 0) {
                std::snprintf(line, sizeof line, "{\"type\":\"eval\",\"step\":%ld,\"epoch\":0,\"val_loss\":%.17g,\"val_accuracy\":%.17g}\n",
                              step + 1, 2.0 * std::exp(-t / 3000.0) + 0.1, 0.85 - 0.7 * std::exp(-t / 2000.0));
                buffer += line;
            }
        }
        if (!buffer.empty()) {
            std::fwrite(buffer.data(), 1, buffer.size(), stdout);
            std::fflush(stdout);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::printf("{\"type\":\"summary\",\"steps\":%ld}\n", total);
    std::fflush(stdout);
    return 0;
}

struct Measurement {
    long rate = 0;
    double seconds = 0;
    long expected = 0;
    long received = 0;
    double handledPerSecond = 0;
    double redrawsPerSecond = 0;  // per chart
    double meanRedrawMs = 0;
    double longestRedrawMs = 0;
    long largestBacklog = 0;      // events sent and not yet handled
    double largestLagMs = 0;
    double longestStallMs = 0;
    double cpuPercent = 0;
    double paintShare = 0;  // % of the wall time spent painting charts
    int charts = 0;
    int largestBatch = 0;
};

Measurement consume(const QString& self, long rate, double seconds)
{
    Measurement m;
    m.rate = rate;
    m.seconds = seconds;
    m.expected = long(rate * seconds);

    RunModel model;
    ChartGrid grid(model);
    grid.setSmoothing(0.6);
    grid.resize(1200, 900);
    grid.show();
    RunRecord record;
    record.id = QStringLiteral("bench");
    record.label = QStringLiteral("bench");
    auto run = QSharedPointer<RunData>::create(record);
    model.addRun(run);

    EngineProcess engine;
    QEventLoop loop;
    qint64 firstSentNs = 0;
    qint64 firstReceiptNs = 0;
    qint64 lastReceiptNs = 0;
    QObject::connect(&engine, &EngineProcess::eventsReceived, &engine, [&](const QList<QJsonObject>& events) {
        run->appendEvents(events);
        model.notifyDataAppended(run->id());
        const qint64 now = nowNs();
        m.largestBatch = std::max(m.largestBatch, int(events.size()));
        for (const QJsonObject& event : events) {
            const QJsonValue sent = event.value(QStringLiteral("sent_ns"));
            if (!sent.isDouble())
                continue;
            ++m.received;
            const qint64 sentNs = qint64(sent.toDouble());
            if (firstSentNs == 0) {
                firstSentNs = sentNs;
                firstReceiptNs = now;
            }
            m.largestLagMs = std::max(m.largestLagMs, (now - sentNs) / 1e6);
        }
        lastReceiptNs = now;
        if (firstSentNs == 0)
            return;  // hello and config: the clock starts with the first step
        // Events the producer had sent by now (its schedule is RATE a second from the first).
        const long sentByNow = std::min(m.expected, long(double(now - firstSentNs) * 1e-9 * double(rate)) + 1);
        m.largestBacklog = std::max(m.largestBacklog, sentByNow - m.received);
    });
    QObject::connect(&engine, &EngineProcess::finished, &loop, &QEventLoop::quit);

    QTimer probe;
    QElapsedTimer sinceProbe;
    QObject::connect(&probe, &QTimer::timeout, &probe, [&] {
        m.longestStallMs = std::max(m.longestStallMs, double(sinceProbe.nsecsElapsed()) / 1e6 - kProbeIntervalMs);
        sinceProbe.restart();
    });

    const double cpuBefore = cpuSeconds();
    sinceProbe.start();
    probe.start(kProbeIntervalMs);
    engine.start(self, {QStringLiteral("--produce"), QString::number(rate), QString::number(seconds)});
    loop.exec();
    probe.stop();
    grid.redrawAllNow();
    const double wall = (lastReceiptNs - firstReceiptNs) / 1e9;
    m.cpuPercent = 100.0 * (cpuSeconds() - cpuBefore) / std::max(1e-9, wall);
    m.handledPerSecond = m.received / std::max(1e-9, wall);

    qint64 redraws = 0;
    double totalMs = 0;
    double paintMs = 0;
    m.charts = int(grid.panels().size());
    for (ChartPanel* panel : grid.panels()) {
        const RedrawStats stats = panel->redrawStats();
        redraws += stats.redraws;
        totalMs += stats.totalMs;
        paintMs += stats.totalPaintMs;
        m.longestRedrawMs = std::max(m.longestRedrawMs, stats.longestMs);
    }
    m.redrawsPerSecond = double(redraws) / std::max(1, m.charts) / std::max(1e-9, wall);
    m.meanRedrawMs = redraws > 0 ? totalMs / double(redraws) : 0;
    m.paintShare = 100.0 * paintMs / 1000.0 / std::max(1e-9, wall);
    return m;
}

}  // namespace

int main(int argc, char* argv[])
{
    if (argc == 4 && std::string(argv[1]) == "--produce")
        return produce(std::stol(argv[2]), std::stod(argv[3]));

    QApplication application(argc, argv);
    QStringList rates{QStringLiteral("1000"), QStringLiteral("5000"), QStringLiteral("20000")};
    double seconds = 10;
    const QStringList arguments = QCoreApplication::arguments();
    for (qsizetype i = 1; i + 1 < arguments.size(); i += 2) {
        if (arguments.at(i) == QLatin1String("--rates"))
            rates = arguments.at(i + 1).split(QLatin1Char(','));
        else if (arguments.at(i) == QLatin1String("--seconds"))
            seconds = arguments.at(i + 1).toDouble();
    }

    QTextStream out(stdout);
    out << "| events/s sent | events handled/s | all handled | redraws/s per chart | series update ms mean / max | "
           "painting charts | largest backlog (events) | largest lag ms | longest event-loop stall ms | largest batch | GUI CPU |\n"
           "|---:|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        << Qt::flush;
    bool allReceived = true;
    for (const QString& rate : rates) {
        const Measurement m = consume(QCoreApplication::applicationFilePath(), rate.toLong(), seconds);
        allReceived = allReceived && m.received == m.expected;
        out << QStringLiteral("| %L1 | %L2 | %3 | %4 | %5 / %6 | %7 % | %L8 | %9 | %10 | %L11 | %12 % |\n")
                   .arg(m.rate)
                   .arg(m.handledPerSecond, 0, 'f', 0)
                   .arg(m.received == m.expected ? QStringLiteral("yes") : QStringLiteral("%1 of %2").arg(m.received).arg(m.expected))
                   .arg(m.redrawsPerSecond, 0, 'f', 1)
                   .arg(m.meanRedrawMs, 0, 'f', 2)
                   .arg(m.longestRedrawMs, 0, 'f', 1)
                   .arg(m.paintShare, 0, 'f', 0)
                   .arg(m.largestBacklog)
                   .arg(m.largestLagMs, 0, 'f', 1)
                   .arg(m.longestStallMs, 0, 'f', 1)
                   .arg(m.largestBatch)
                   .arg(m.cpuPercent, 0, 'f', 0)
            << Qt::flush;
    }
    return allReceived ? 0 : 1;
}
