// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the command line of `ddplab` (and of `ddplab-headless`, its commands without a window)
// asks for; app/command_line.cpp is the one parser, and every command is handed this:
//   ddplab [--preset NAME | --study NAME | --resume STUDY] [--run] [--yes] [--export DIR]
//          [--image-size WxH] [--slides] [--present] [--quit] [--engine PATH]
//          [--run-on HOST [--remote-engine PATH]] [--launch one-node|torchrun|slurm]
//   ddplab --export-tensorboard RUN_OR_STUDY... DIR --quit   (docs/tensorboard.md)
//   ddplab --export-script RUN_OR_PRESET FILE --quit         (docs/pytorch-script.md)
//   ddplab --advise [--preset FILE] --gpus N [--max-batch-per-gpu B] [--budget-min M] --export DIR --quit [--run-on HOST]
//                                                             (docs/advisor.md)
// NAME is a lesson id or a preset (or lesson) JSON file, or for --study a built-in study or a
// study file. With --quit nothing is shown: the runs go, the files are written, a summary is
// printed, and the exit code tells how it went (a study runs with --quit alone).

#include <QSize>
#include "client/engine/engine_target.hpp"

#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct LaunchOptions {
    QString preset;
    QString study;        // --study: a built-in study's id or a study file
    QString resumeStudy;  // --resume: a stored study's folder or name (with --advise: a stopped advice's)
    bool yes = false;     // --yes: a study of more than 500 runs needs no confirmation
    bool run = false;
    QString exportDirectory;
    QSize imageSize{1200, 800};
    double imageScale = 1.0;  // --slides: 1920 x 1080 with presentation fonts
    bool slides = false;      // --slides: words by the image's height, title and settings
    bool present = false;  // open in presentation mode
    bool quit = false;
    // --export-tensorboard: the runs and studies (folders, ids, names) and the folder to write them to
    QStringList tensorBoardSources;
    QString tensorBoardDirectory;
    // --export-script: the run or preset, and the Python file to write
    QString scriptSource;
    QString scriptFile;
    // --advise: which batch per GPU and LR for --gpus N GPUs, measured (docs/advisor.md)
    bool advise = false;
    int adviseGpus = 8;
    qint64 maxBatchPerGpu = 0;   // 0: what one GPU's memory holds (batch_memory.hpp), at most the training set over the GPUs
    qint64 horizonSamples = 0;   // 0: the preset's whole training
    double budgetMinutes = 5.0;
    QString enginePath;  // --engine; empty: DDPLAB_ENGINE or beside the executable
    EngineTarget runOn;  // --run-on HOST (--remote-engine PATH): runs go there over SSH; --launch: how they start
    QString launch;      // --launch: the launch template's id (one-node, torchrun, slurm); empty when not given

    bool showHelp = false;
    bool showVersion = false;
    QString helpText;
    QString error;  // a clear sentence when the command line is wrong
};

}  // namespace ddplab::ui
