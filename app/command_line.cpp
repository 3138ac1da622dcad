// SPDX-License-Identifier: GPL-3.0-or-later
#include "command_line.hpp"

#include "client/advisor/advice_request.hpp"

#include <QCommandLineParser>
#include <QRegularExpression>

namespace ddplab::ui {

namespace {

// Blank lines apart, so that the manual page (help2man) keeps each example on a line of its own.
QString descriptionOf(Program program)
{
    if (program == Program::Headless)
        return QStringLiteral("DDP Lab's commands without a window, linking no widget library (ddplab hands them here): "
                              "a study, the advisor, a run's settings as a PyTorch script, runs and studies for TensorBoard. "
                              "The window and a preset's runs with their live charts (--preset NAME --run) are ddplab's.\n\n"
                              "Examples:\n\n"
                              "  ddplab-headless --study seed000-variance-curve --export out/ --quit\n\n"
                              "  ddplab-headless --advise --gpus 8 --export advice/ --quit");
    return QStringLiteral("DDP Lab: a desktop laboratory for data-parallel training.\n\n"
                          "Examples (headless):\n\n"
                          "  ddplab --preset seed000-four-ways --run --export out/ --quit\n\n"
                          "  ddplab --study seed000-variance-curve --export out/ --quit");
}

}  // namespace

QString programName(Program program)
{
    return program == Program::Headless ? QStringLiteral("ddplab-headless") : QStringLiteral("ddplab");
}

LaunchOptions parseLaunchOptions(const QStringList& arguments, Program program)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(descriptionOf(program));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")}, QStringLiteral("Show the version."));
    const QCommandLineOption preset(QStringLiteral("preset"),
                                    QStringLiteral("A lesson id (e.g. seed000-four-ways) or a preset JSON file to load."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Start the preset's run(s), or the study, right away."));
    const QCommandLineOption study(QStringLiteral("study"),
                                   QStringLiteral("A built-in study (e.g. seed000-variance-curve) or a study file (docs/studies.md): "
                                                  "many runs, and the scaling curves they make."),
                                   QStringLiteral("NAME"));
    const QCommandLineOption resume(QStringLiteral("resume"),
                                    QStringLiteral("Resume a stored study (its folder, or its name under the studies folder): "
                                                   "only the runs it has not finished run. With --advise: a stopped advice (its folder, "
                                                   "or its name under the advice folder), taking the runs it finished."),
                                    QStringLiteral("STUDY"));
    const QCommandLineOption yes(QStringLiteral("yes"), QStringLiteral("Run a study of more than 500 runs without asking."));
    const QCommandLineOption exportDirectory(QStringLiteral("export"),
                                             QStringLiteral("When the runs end, write every chart (PNG and SVG) and every run's CSV "
                                                            "(a study: its charts, study.csv and findings.txt) into DIR."),
                                             QStringLiteral("DIR"));
    const QCommandLineOption imageSize(QStringLiteral("image-size"), QStringLiteral("PNG/SVG size for --export (default 1200x800)."),
                                       QStringLiteral("WxH"));
    const QCommandLineOption slides(QStringLiteral("slides"),
                                    QStringLiteral("Export for slides: 1920x1080 (unless --image-size says otherwise) with the "
                                                   "large fonts and lines of presentation mode."));
    QCommandLineOption present(QStringLiteral("present"),
                               QStringLiteral("Open in presentation mode, for a class (F11 toggles it, Esc leaves)."));
    const QCommandLineOption quit(QStringLiteral("quit"),
                                  QStringLiteral("Run headless (no window): print progress and a summary, then exit "
                                                 "(non-zero when a run fails or NAME is unknown)."));
    const QCommandLineOption exportTensorBoard(
        QStringLiteral("export-tensorboard"),
        QStringLiteral("With --quit: write the runs and studies named (a folder, a run's id or name, a study's id) as "
                       "TensorBoard runs into the last argument's folder, a study with its hyperparameters "
                       "(docs/tensorboard.md): ddplab --export-tensorboard RUN_OR_STUDY... DIR --quit"));
    const QCommandLineOption exportScript(
        QStringLiteral("export-script"),
        QStringLiteral("With --quit: write a run's or a preset's settings (a run's folder, id or name; a preset as --preset "
                       "takes one) as a PyTorch DDP script for torchrun that trains the same losses (docs/pytorch-script.md): "
                       "ddplab --export-script RUN_OR_PRESET FILE --quit"));
    const QCommandLineOption advise(QStringLiteral("advise"),
                                    QStringLiteral("With --quit: measure which batch per GPU and LR --preset's settings (else the "
                                                   "defaults) want on --gpus N GPUs, and write advice.json and advice.md into --export DIR "
                                                   "(docs/advisor.md). With --run-on HOST its runs go there, and each batch per GPU is timed there for goodput."));
    const QCommandLineOption gpus(QStringLiteral("gpus"), QStringLiteral("With --advise: the GPUs to plan for, 1 to %1 (default 8).").arg(kMostAdviceGpus), QStringLiteral("N"));
    const QCommandLineOption maxBatch(QStringLiteral("max-batch-per-gpu"),
                                      QStringLiteral("With --advise: the most samples one GPU holds (default: what one GPU's memory holds, "
                                                     "measured by inspect for your own model or estimated for the built-in ones, at most the "
                                                     "training set over the GPUs and never below the preset's batch per GPU, which is also the least it takes; docs/advisor.md)."),
                                      QStringLiteral("B"));
    const QCommandLineOption horizon(QStringLiteral("horizon-samples"),
                                     QStringLiteral("With --advise: the samples the batches and LRs are compared at (default: the preset's whole "
                                                    "training; never more, nor less than two steps of the preset's batch per GPU on --gpus GPUs)."),
                                     QStringLiteral("S"));
    const QCommandLineOption budget(QStringLiteral("budget-min"), QStringLiteral("With --advise: minutes the measuring may take, 0.2 to 1440 (default 5)."),
                                    QStringLiteral("M"));
    const QCommandLineOption engine(QStringLiteral("engine"),
                                    QStringLiteral("The ddplab-engine to use (default: $DDPLAB_ENGINE, else beside ddplab)."),
                                    QStringLiteral("PATH"));
    const QCommandLineOption runOn(QStringLiteral("run-on"),
                                   QStringLiteral("Run on an SSH host (an ~/.ssh/config alias or user@host[:port]) instead of this "
                                                  "computer (docs/remote.md)."),
                                   QStringLiteral("HOST"));
    const QCommandLineOption remoteEngine(QStringLiteral("remote-engine"),
                                          QStringLiteral("The engine's path on the --run-on host (default: ddplab-engine on its PATH)."),
                                          QStringLiteral("PATH"));
    QStringList launchIds;
    for (const LaunchTemplate& launch : launchTemplates())
        launchIds.append(launch.id);
    const QCommandLineOption launch(QStringLiteral("launch"),
                                    QStringLiteral("How each run starts, here or on the --run-on host (docs/remote.md): one-node "
                                                   "(the engine's own launcher, the default), torchrun, or slurm (srun from a "
                                                   "login node)."),
                                    QStringLiteral("TEMPLATE"));
    if (program == Program::Headless)
        present.setFlags(QCommandLineOption::HiddenFromHelp);  // refused there, as every window's command
    // --help lists them in this order (and so does the manual page, made from it): the everyday
    // options first, then the exports of stored runs and the advisor.
    parser.addOptions({help, version, preset, study, resume, yes, run, exportDirectory, imageSize, slides, present, quit, engine, runOn,
                       remoteEngine, launch, exportTensorBoard, exportScript, advise, gpus, maxBatch, budget, horizon});

    LaunchOptions options;
    options.helpText = parser.helpText();
    if (!parser.parse(arguments)) {
        options.error = parser.errorText() + QStringLiteral(" (see %1 --help)").arg(programName(program));
        return options;
    }
    if (parser.isSet(exportScript) && parser.isSet(exportTensorBoard)) {
        options.error = QStringLiteral("give one of --export-script and --export-tensorboard");
        return options;
    }
    if (parser.isSet(exportScript)) {
        // RUN_OR_PRESET FILE
        const QStringList names = parser.positionalArguments();
        if (names.size() != 2) {
            options.error = QStringLiteral("--export-script needs a run or a preset, then the file to write: "
                                           "ddplab --export-script RUN_OR_PRESET FILE --quit");
            return options;
        }
        options.scriptSource = names.first();
        options.scriptFile = names.last();
    } else if (parser.isSet(exportTensorBoard)) {
        // RUN_OR_STUDY... DIR: the names, then where they go.
        const QStringList names = parser.positionalArguments();
        if (names.size() < 2) {
            options.error = QStringLiteral("--export-tensorboard needs one run or study or more, then the folder to write to");
            return options;
        }
        options.tensorBoardSources = names.mid(0, names.size() - 1);
        options.tensorBoardDirectory = names.last();
    } else if (!parser.positionalArguments().isEmpty()) {
        options.error = QStringLiteral("Unexpected argument \"%1\" (see %2 --help)").arg(parser.positionalArguments().first(), programName(program));
        return options;
    }
    options.showHelp = parser.isSet(help);
    options.showVersion = parser.isSet(version);
    options.preset = parser.value(preset);
    options.study = parser.value(study);
    options.resumeStudy = parser.value(resume);
    options.yes = parser.isSet(yes);
    options.run = parser.isSet(run);
    options.exportDirectory = parser.value(exportDirectory);
    options.quit = parser.isSet(quit);
    options.present = parser.isSet(present);
    options.enginePath = parser.value(engine);
    options.advise = parser.isSet(advise);
    if (parser.isSet(gpus) || parser.isSet(maxBatch) || parser.isSet(budget) || parser.isSet(horizon)) {
        bool ok = true;
        if (parser.isSet(gpus))
            options.adviseGpus = parser.value(gpus).toInt(&ok);
        if (!ok || options.adviseGpus < 1 || options.adviseGpus > kMostAdviceGpus)
            options.error = QStringLiteral("--gpus must be a whole number from 1 to %1 (got \"%2\")").arg(kMostAdviceGpus).arg(parser.value(gpus));
        if (parser.isSet(maxBatch)) {
            options.maxBatchPerGpu = parser.value(maxBatch).toLongLong(&ok);
            if (!ok || options.maxBatchPerGpu < 1)
                options.error = QStringLiteral("--max-batch-per-gpu must be a whole number of at least 1 (got \"%1\")").arg(parser.value(maxBatch));
        }
        if (parser.isSet(budget)) {
            options.budgetMinutes = parser.value(budget).toDouble(&ok);
            if (!ok || !(options.budgetMinutes >= 0.2) || options.budgetMinutes * 60.0 > kMostBudgetSeconds)
                options.error = QStringLiteral("--budget-min must be a number of minutes from 0.2 to 1440 (got \"%1\")").arg(parser.value(budget));
        }
        if (parser.isSet(horizon)) {
            options.horizonSamples = parser.value(horizon).toLongLong(&ok);
            if (!ok || options.horizonSamples < 1)
                options.error = QStringLiteral("--horizon-samples must be a whole number of samples from 1 up to your whole training (got \"%1\")").arg(parser.value(horizon));
        }
        if (options.error.isEmpty() && !options.advise)
            options.error = QStringLiteral("--gpus, --max-batch-per-gpu, --budget-min and --horizon-samples belong to --advise");
        if (!options.error.isEmpty())
            return options;
    }
    if (parser.isSet(runOn)) {
        // Each value is checked on its own, so that the error names the option to change.
        QString targetError;
        options.runOn = parseEngineTarget(parser.value(runOn), QString(), &targetError);
        if (!targetError.isEmpty()) {
            options.error = QStringLiteral("--run-on: ") + targetError;
            return options;
        }
        if (parser.isSet(remoteEngine)) {
            options.runOn.remoteEngine = parser.value(remoteEngine).trimmed();
            if (const QString problem = remoteEngineProblem(options.runOn.remoteEngine); !problem.isEmpty()) {
                options.error = QStringLiteral("--remote-engine: ") + problem;
                return options;
            }
        }
    } else if (parser.isSet(remoteEngine)) {
        options.error = QStringLiteral("--remote-engine needs --run-on HOST");
        return options;
    }
    if (parser.isSet(launch)) {
        const LaunchTemplate* chosen = findLaunchTemplate(parser.value(launch).trimmed());
        if (!chosen) {
            options.error = QStringLiteral("--launch must be one of %1 (got \"%2\")").arg(launchIds.join(QStringLiteral(", ")), parser.value(launch));
            return options;
        }
        options.launch = chosen->id;
        options.runOn = withLaunchTemplate(options.runOn, *chosen);
    }
    if (parser.isSet(slides)) {
        options.imageSize = QSize(1920, 1080);
        options.imageScale = 1.6;
        options.slides = true;
    }
    if (parser.isSet(imageSize)) {
        static const QRegularExpression kSize(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
        const QRegularExpressionMatch match = kSize.match(parser.value(imageSize));
        if (!match.hasMatch()) {
            options.error = QStringLiteral("--image-size must look like 1600x1000 (got \"%1\")").arg(parser.value(imageSize));
            return options;
        }
        options.imageSize = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    }
    const int things = int(!options.preset.isEmpty()) + int(!options.study.isEmpty()) + int(!options.resumeStudy.isEmpty());
    const bool aStudy = !options.study.isEmpty() || !options.resumeStudy.isEmpty();
    const bool tensorBoard = !options.tensorBoardDirectory.isEmpty();
    const bool script = !options.scriptFile.isEmpty();
    if (options.advise && !options.quit)
        options.error = QStringLiteral("--advise measures and writes its advice without a window: add --quit (the window has the Advise page)");
    else if (options.advise && options.exportDirectory.isEmpty())
        options.error = QStringLiteral("--advise needs --export DIR: the folder advice.json and advice.md go into");
    else if (options.advise && (!options.study.isEmpty() || options.run))
        options.error = QStringLiteral("--advise takes its settings from --preset FILE (or the defaults): give it no --study or --run");
    else if (options.advise && !options.resumeStudy.isEmpty() && !options.preset.isEmpty())
        options.error = QStringLiteral("--advise --resume goes on with a stopped advice's own settings: give it no --preset");
    else if (options.advise && !options.resumeStudy.isEmpty() &&
             (parser.isSet(gpus) || parser.isSet(maxBatch) || parser.isSet(budget) || parser.isSet(horizon)))
        options.error = QStringLiteral("--advise --resume goes on with the question the stopped advice was asked (its GPUs, budget, most batch "
                                       "per GPU and horizon): give it no --gpus, --budget-min, --max-batch-per-gpu or --horizon-samples");
    else if (options.advise) {
        // fine: --advise [--preset FILE] --export DIR --quit
    } else if (script && !options.quit)
        options.error = QStringLiteral("--export-script writes its file and exits: add --quit");
    else if (script && (things > 0 || options.run))
        options.error = QStringLiteral("--export-script names its run or preset itself: give it no --preset, --study, --resume or --run");
    else if (tensorBoard && !options.quit)
        options.error = QStringLiteral("--export-tensorboard writes its files and exits: add --quit");
    else if (tensorBoard && (things > 0 || options.run))
        options.error = QStringLiteral("--export-tensorboard exports stored runs and studies: give it no --preset, --study, --resume or --run");
    else if (things > 1)
        options.error = QStringLiteral("give one of --preset, --study and --resume");
    else if (options.run && things == 0)
        options.error = QStringLiteral("--run needs --preset NAME (a lesson id or a preset file) or --study NAME");
    else if (options.quit && !options.run && !aStudy && !tensorBoard && !script)
        options.error = QStringLiteral("--quit runs headless and needs --preset NAME --run or --study NAME (nothing to do otherwise)");
    else if (options.quit && options.present)
        options.error = QStringLiteral("--present shows the window and --quit runs without one: choose one");
    return options;
}

Needs needsOf(const LaunchOptions& options)
{
    if (!options.tensorBoardDirectory.isEmpty() || !options.scriptFile.isEmpty())
        return Needs::Core;
    if (options.advise || (options.quit && (!options.study.isEmpty() || !options.resumeStudy.isEmpty())))
        return Needs::Painting;  // their charts, as PNG and SVG
    return Needs::Widgets;
}

std::optional<int> answerWithoutRunning(const LaunchOptions& options, Program program, QTextStream& out, QTextStream& err)
{
    if (options.showHelp) {
        out << options.helpText;
        return 0;
    }
    if (options.showVersion) {
        out << programName(program) << ' ' << DDPLAB_VERSION << Qt::endl;
        return 0;
    }
    if (!options.error.isEmpty()) {
        err << programName(program) << ": " << options.error << Qt::endl;
        return 2;
    }
    return std::nullopt;
}

void paintOffscreenWithoutDisplay()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

}  // namespace ddplab::ui
