// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless_runner.hpp"

#include "charts/chart_grid.hpp"
#include "charts/run_model.hpp"
#include "client/engine/engine_locator.hpp"
#include "client/library/lesson_library.hpp"
#include "client/library/preset_library.hpp"
#include "client/runs/run_comparison.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/runs/throughput_model.hpp"
#include "client/wire.hpp"
#include "client/session/lab_session.hpp"
#include "client/session/preset_resolver.hpp"
#include "client/session/run_progress.hpp"
#include "client/study/study_estimate.hpp"
#include "core/protocol_names.hpp"
#include "export/export_service.hpp"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>

#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {
constexpr qint64 kProgressEveryMs = 2000;  // long runs print a progress line this often

// A lesson about speed: what this computer measured beside a model of as many GPUs, each line.
QString throughputModelText(const QList<QSharedPointer<RunData>>& runs, const ThroughputModel& model)
{
    double compute = std::numeric_limits<double>::quiet_NaN();
    for (const QSharedPointer<RunData>& run : runs) {
        const double perSample = computeSecondsPerSample(*run);
        if (std::isfinite(perSample) && !(perSample >= compute))
            compute = perSample;
    }
    QString text = QStringLiteral("Images per second, measured here and modelled for GPUs (compute %1 ms a sample as measured "
                                  "on one rank here, a ring all-reduce at %2: %3):\n")
                       .arg(QString::number(compute * 1000, 'g', 3), model.bandwidthText(), model.link);
    for (const QSharedPointer<RunData>& run : runs) {
        const int ranks = run->config().value(wire(key::kWorldSize)).toInt();
        const int batch = run->config().value(wire(key::kBatchSize)).toInt();
        const double modelled = modelledSamplesPerSecond(ranks, batch, compute, gradientBytes(*run), model.bandwidthBytesPerSecond);
        text += QStringLiteral("  %1: measured %2/s, model of %3 GPU(s) %4/s\n")
                    .arg(run->label(), QString::number(run->summary().value(wire(field::kSamplesPerSec)).toDouble(), 'f', 0))
                    .arg(ranks)
                    .arg(QString::number(modelled, 'f', 0));
    }
    return text;
}

}  // namespace

HeadlessRunner::HeadlessRunner(LaunchOptions options, QTextStream& out, QTextStream& err, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_out(out)
    , m_err(err)
{
}

int HeadlessRunner::exec()
{
    const LessonLibrary lessons = LessonLibrary::load();
    const ResolvedPreset resolved = resolvePreset(m_options.preset, lessons, PresetLibrary::load());
    if (!resolved.error.isEmpty()) {
        m_err << "ddplab: " << resolved.error << Qt::endl;
        return kExitInvalidInput;
    }

    RunStore store;
    RunModel model;
    // A lesson's own charts, as the window shows them (the slides of its point); for a preset,
    // every chart the runs have data for.
    ChartGrid charts(model);
    charts.resize(m_options.imageSize);
    if (!resolved.lessonId.isEmpty())
        charts.setFocusCharts(chartsForMetrics(resolved.chartMetrics));
    if (resolved.xAxis)
        charts.setXAxis(*resolved.xAxis);
    charts.setThroughputModel(resolved.throughputModel);
    LabSession session(store, locateEngine(m_options.enginePath));
    session.setTarget(m_options.runOn);
    model.follow(session);  // the charts get the session's runs and data as the window's do

    // How long it will take, from this machine's recent runs (the estimate the window shows),
    // and, for a lesson whose ranks outnumber the cores, what holds here instead of a speed-up.
    const double estimate = estimatedSeconds(resolved.runs, MachineSpeed::measure(store));
    QElapsedTimer sinceStart;
    sinceStart.start();
    QElapsedTimer sinceProgress;
    const int count = int(resolved.runs.size());
    m_out << "DDP Lab: " << resolved.title << " (" << count << (count == 1 ? " run" : " runs") << "), engine "
          << session.enginePath() << ", " << durationText(estimate) << Qt::endl;
    if (const Lesson* lesson = lessons.find(resolved.lessonId)) {
        if (const QString note = machineNote(*lesson, QThread::idealThreadCount()); !note.isEmpty())
            m_out << note << Qt::endl;
    }

    connect(&session, &LabSession::runStarted, this, [&](int index, const QSharedPointer<RunData>& run) {
        sinceProgress.start();
        m_out << QStringLiteral("[%1/%2] %3: started").arg(index + 1).arg(count).arg(run->label()) << Qt::endl;
    });
    connect(&session, &LabSession::runUpdated, this, [&](const QSharedPointer<RunData>& run) {
        if (sinceProgress.elapsed() >= kProgressEveryMs) {
            sinceProgress.restart();
            m_out << "      " << describeProgress(*run, session.msSinceFirstStep()).text << Qt::endl;
        }
    });
    connect(&session, &LabSession::runFinished, this, [&](int index, const QSharedPointer<RunData>& run) {
        const RunRecord& record = run->record();
        QString line = QStringLiteral("[%1/%2] %3: %4, %5 steps")
                           .arg(index + 1)
                           .arg(count)
                           .arg(run->label(), statusText(record.status))
                           .arg(run->stepCount());
        if (record.status != RunStatus::Finished)
            line += QStringLiteral(" — ") + record.error;
        m_out << line << Qt::endl;
    });
    connect(&session, &LabSession::logMessage, this, [&](const QString& text, bool isWarning) {
        if (isWarning)
            m_err << "ddplab: " << text << Qt::endl;
    });

    QEventLoop loop;
    connect(&session, &LabSession::sequenceFinished, &loop, &QEventLoop::quit);
    session.start(resolved.runs);
    if (session.isRunning())
        loop.exec();

    const QList<QSharedPointer<RunData>>& runs = session.runs();
    int exitCode = session.firstFailureCode();
    if (!m_options.exportDirectory.isEmpty()) {
        charts.redrawAllNow();
        QString error;
        const ImageFormat format{m_options.imageSize, m_options.imageScale, m_options.slides, resolved.title};
        const QStringList written = ExportService::exportAll(charts.panels(), model.runs(), m_options.exportDirectory, format, &error);
        if (!error.isEmpty()) {
            m_err << "ddplab: export failed: " << error << Qt::endl;
            exitCode = exitCode == 0 ? 1 : exitCode;
        }
        m_out << "Wrote " << written.size() << " files (" << charts.panels().size() << " charts as PNG and SVG, "
              << runs.size() << " CSV) to " << m_options.exportDirectory << Qt::endl;
    }
    m_out << Qt::endl << comparisonText(compareRuns(runs));
    if (resolved.throughputModel)
        m_out << Qt::endl << throughputModelText(runs, *resolved.throughputModel);
    m_out << Qt::endl << "The " << (count == 1 ? "run " : "runs ") << tookText(double(sinceStart.elapsed()) / 1000.0, estimate) << Qt::endl;
    if (exitCode != 0)
        m_err << "ddplab: not every run succeeded (exit code " << exitCode << ")" << Qt::endl;
    return exitCode;
}

}  // namespace ddplab::ui
