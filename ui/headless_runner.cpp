#include "headless_runner.hpp"

#include "chart_grid.hpp"
#include "engine_locator.hpp"
#include "export_service.hpp"
#include "lesson_library.hpp"
#include "preset_library.hpp"
#include "preset_resolver.hpp"
#include "run_comparison.hpp"
#include "run_data.hpp"
#include "run_model.hpp"
#include "run_progress.hpp"
#include "run_sequence.hpp"
#include "run_store.hpp"

#include <QElapsedTimer>
#include <QEventLoop>

namespace ddplab::ui {
namespace {
constexpr int kExitInvalidInput = 2;         // as the engine's: NAME unknown or invalid
constexpr qint64 kProgressEveryMs = 2000;    // long runs print a progress line this often
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
    // Every chart the runs have data for: the window shows a lesson's own charts first, but
    // what is taken away should be complete.
    ChartGrid charts(model);
    charts.resize(m_options.imageSize);
    RunSequence sequence(store, locateEngine(m_options.enginePath));

    QList<QSharedPointer<RunData>> runs;
    QElapsedTimer sinceProgress;
    int firstFailureCode = 0;
    const int count = int(resolved.runs.size());
    m_out << "DDP Lab: " << resolved.title << " (" << count << (count == 1 ? " run" : " runs") << "), engine "
          << sequence.enginePath() << Qt::endl;

    connect(&sequence, &RunSequence::runStarted, this, [&](int index, const QSharedPointer<RunData>& run) {
        runs.append(run);
        model.addRun(run);
        sinceProgress.start();
        m_out << QStringLiteral("[%1/%2] %3: started").arg(index + 1).arg(count).arg(run->label()) << Qt::endl;
    });
    connect(&sequence, &RunSequence::runUpdated, this, [&](const QSharedPointer<RunData>& run) {
        model.notifyDataAppended(run->id());
        if (sinceProgress.elapsed() >= kProgressEveryMs) {
            sinceProgress.restart();
            m_out << "      " << describeProgress(*run, sequence.msSinceFirstStep()).text << Qt::endl;
        }
    });
    connect(&sequence, &RunSequence::runFinished, this, [&](int index, const QSharedPointer<RunData>& run) {
        const RunRecord& record = run->record();
        QString line = QStringLiteral("[%1/%2] %3: %4, %5 steps")
                           .arg(index + 1)
                           .arg(count)
                           .arg(run->label(), statusText(record.status))
                           .arg(run->stepCount());
        if (record.status != RunStatus::Finished) {
            line += QStringLiteral(" — ") + record.error;
            if (firstFailureCode == 0)
                firstFailureCode = record.exitCode > 0 ? record.exitCode : 1;
        }
        m_out << line << Qt::endl;
    });
    connect(&sequence, &RunSequence::logMessage, this, [&](const QString& text, bool isWarning) {
        if (isWarning)
            m_err << "ddplab: " << text << Qt::endl;
    });

    QEventLoop loop;
    connect(&sequence, &RunSequence::sequenceFinished, &loop, &QEventLoop::quit);
    sequence.start(resolved.runs);
    if (sequence.isRunning())
        loop.exec();

    int exitCode = firstFailureCode;
    if (!m_options.exportDirectory.isEmpty()) {
        charts.redrawAllNow();
        QString error;
        const QStringList written = ExportService::exportAll(charts.panels(), runs, m_options.exportDirectory, m_options.imageSize, &error);
        if (!error.isEmpty()) {
            m_err << "ddplab: export failed: " << error << Qt::endl;
            exitCode = exitCode == 0 ? 1 : exitCode;
        }
        m_out << "Wrote " << written.size() << " files (" << charts.panels().size() << " charts as PNG and SVG, "
              << runs.size() << " CSV) to " << m_options.exportDirectory << Qt::endl;
    }
    m_out << Qt::endl << comparisonText(compareRuns(runs)) << Qt::flush;
    if (exitCode != 0)
        m_err << "ddplab: not every run succeeded (exit code " << exitCode << ")" << Qt::endl;
    return exitCode;
}

}  // namespace ddplab::ui
