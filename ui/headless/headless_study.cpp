// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless_study.hpp"

#include "client/engine/engine_locator.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "client/study/own_model_steps.hpp"
#include "client/study/study_estimate.hpp"
#include "client/study/study_file.hpp"
#include "client/study/study_library.hpp"
#include "client/study/study_runner.hpp"
#include "client/wire.hpp"
#include "plots/study_charts.hpp"

#include <QElapsedTimer>
#include <QEventLoop>

#include <cmath>

namespace ddplab::ui {
namespace {

QString figureText(double value)
{
    return std::isfinite(value) ? QString::number(value, 'g', 5) : QStringLiteral("—");
}

// One line per run: its point, how it ended, the study's figure and the steps to the target.
QString resultsTable(const StoredStudy& study, const QList<StudyRunResult>& results, const QString& figure, FigureSummary summary)
{
    QStringList lines;
    int labelWidth = 5;
    int statusWidth = 9;
    QStringList labels, statuses;
    for (const StudyRunResult& result : results) {
        labels.append(study.points.value(result.point).displayLabel());
        labelWidth = std::max<int>(labelWidth, labels.last().size());
        statuses.append(statusLine(result.status, result.divergedAtStep));
        statusWidth = std::max<int>(statusWidth, statuses.last().size());
    }
    const bool target = study.spec.target.isSet();
    QString header =
        QStringLiteral("%1  %2  %3").arg(QStringLiteral("run"), -labelWidth).arg(QStringLiteral("status"), -statusWidth).arg(figure, 12);
    if (target)
        header += QStringLiteral("  %1").arg(QStringLiteral("steps to target"), 15);
    lines.append(header);
    for (qsizetype i = 0; i < results.size(); ++i) {
        const StudyRunResult& result = results[i];
        QString line = QStringLiteral("%1  %2  %3")
                           .arg(labels[i], -labelWidth)
                           .arg(statuses[i], -statusWidth)
                           .arg(figureText(result.figure(figure, summary)), 12);
        if (target)
            line += QStringLiteral("  %1").arg(result.stepsToTarget >= 0 ? QString::number(result.stepsToTarget) : QStringLiteral("not reached"), 15);
        if (result.status == RunStatus::Incomplete)
            line += QStringLiteral("  (%1)").arg(result.error);  // why its figures are left out of the charts
        lines.append(line);
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace

HeadlessStudy::HeadlessStudy(LaunchOptions options, QTextStream& out, QTextStream& err, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_out(out)
    , m_err(err)
{
}

int HeadlessStudy::exec()
{
    const StudyStore studies;
    const RunStore runs;
    std::optional<StoredStudy> study;
    QString error;
    if (!m_options.resumeStudy.isEmpty()) {
        study = studies.open(m_options.resumeStudy, &error);
    } else {
        const StudyReadResult read = resolveStudy(m_options.study, StudyLibrary::load());
        if (read.spec) {
            const StudyPlan plan = planStudy(*read.spec);
            if (!plan.error.isEmpty()) {
                error = plan.error;
            } else if (plan.points.size() > studyLimits::kConfirmAbove && !m_options.yes) {
                error = QStringLiteral("the study \"%1\" makes %2 runs (%3), more than %4: pass --yes to run it")
                            .arg(read.spec->title.isEmpty() ? read.spec->id : read.spec->title)
                            .arg(plan.points.size())
                            .arg(plan.shape)
                            .arg(studyLimits::kConfirmAbove);
            } else {
                study = studies.create(*read.spec, plan, &error);
                if (!study)
                    error = QStringLiteral("cannot store the study: %1").arg(error);
            }
        } else {
            error = read.error;
        }
    }
    if (!study) {
        m_err << "ddplab: " << error << Qt::endl;
        return kExitInvalidInput;
    }

    LabSession session(runs, locateEngine(m_options.enginePath));
    session.setTarget(m_options.runOn);
    StudyRunner runner(session);
    // How long what is left takes here: this machine's recent runs, and a step of each model of
    // your own timed by the engine first (as the Study page does), seconds instead of a guess.
    StudyPlan left;
    left.points = StudyStore::pointsToRun(*study, runs.listRuns());
    left.trainedShare = study->spec.target.stop ? study->spec.target.trainedShare : 0.0;
    OwnModelSteps ownSteps(session.enginePath());
    if (m_options.runOn.isRemote()) {
        // Timed here, a step would say nothing of the host the runs go to.
    } else {
        QEventLoop timing;
        connect(&ownSteps, &OwnModelSteps::changed, &timing, [&] {
            if (!ownSteps.isMeasuring())
                timing.quit();
        });
        ownSteps.measure(left);
        if (ownSteps.isMeasuring())
            timing.exec();
    }
    const MachineSpeed speed = MachineSpeed::measure(runs);
    const double estimate = estimatedSeconds(left, speed, ownSteps.steps());
    runner.setEstimates(pointSeconds(left, speed, ownSteps.steps()));  // each line's time left, re-timed as runs finish
    QElapsedTimer sinceStart;
    sinceStart.start();
    m_out << "DDP Lab study: " << study->title() << " (" << study->points.size() << " runs";
    if (left.points.size() < study->points.size())
        m_out << ", " << left.points.size() << " to run";
    m_out << "), stored in " << study->directory << ", " << durationText(estimate) << Qt::endl;
    connect(&runner, &StudyRunner::runFinished, this, [&](const QSharedPointer<RunData>& run) {
        const RunRecord& record = run->record();
        QString line = QStringLiteral("[%1/%2] %3: %4").arg(runner.done()).arg(runner.total()).arg(record.label, statusText(record.status));
        if (record.status != RunStatus::Finished)
            line += QStringLiteral(" — ") + record.error;
        if (!runner.timeLeftText().isEmpty())
            line += QStringLiteral("  (%1)").arg(runner.timeLeftText());
        m_out << line << Qt::endl;
    });
    connect(&runner, &StudyRunner::logMessage, this, [&](const QString& text, bool isWarning) {
        if (isWarning)
            m_err << "ddplab: " << text << Qt::endl;
    });
    QEventLoop loop;
    connect(&runner, &StudyRunner::finished, &loop, &QEventLoop::quit);
    switch (runner.start(*study)) {
    case StudyRunner::StartResult::Started:
        loop.exec();
        break;
    case StudyRunner::StartResult::AllDone:
        m_out << "Every run of this study has finished already." << Qt::endl;
        break;
    case StudyRunner::StartResult::Refused:
        m_err << "ddplab: " << runner.refusal() << Qt::endl;
        return kExitInvalidInput;
    }
    int exitCode = runner.session().firstFailureCode();

    const QList<StudyRunResult> results = collectStudyResults(*study, runs, runs.listRuns());
    const StudyChartChoices choices = defaultChartChoices(*study);
    const StudyCharts charts = buildStudyCharts(*study, results, choices);
    if (!m_options.exportDirectory.isEmpty()) {
        QString exportError;
        const QStringList written = exportStudy(*study, results, charts, m_options.exportDirectory,
                                                ImageFormat(m_options.imageSize, m_options.imageScale, m_options.slides), &exportError);
        if (!exportError.isEmpty()) {
            m_err << "ddplab: export failed: " << exportError << Qt::endl;
            exitCode = exitCode == 0 ? 1 : exitCode;
        }
        m_out << "Wrote " << written.size() << " files (" << charts.plots.size() + charts.heatmaps.size()
              << " charts as PNG and SVG, study.csv, findings.txt) to " << m_options.exportDirectory << Qt::endl;
    }
    m_out << Qt::endl << resultsTable(*study, results, choices.figure, choices.summary);
    for (const QString& finding : charts.findingLines())
        m_out << finding << Qt::endl;
    m_out << Qt::endl << "The study's runs " << tookText(double(sinceStart.elapsed()) / 1000.0, estimate) << Qt::endl;
    if (runner.left() > 0)
        m_err << "ddplab: " << runner.left() << " of " << runner.total() << " runs have not finished; ddplab --resume " << study->id
              << " --quit carries on" << Qt::endl;
    if (exitCode != 0)
        m_err << "ddplab: not every run succeeded (exit code " << exitCode << ")" << Qt::endl;
    return exitCode;
}

}  // namespace ddplab::ui
