// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Advice kept like studies (docs/advisor.md): each finished advice in its own folder under the
// user's data location (AppDataLocation/advice/<id>/), advice.json and advice.md as the advisor
// wrote them, so the Advise page lists past advice and reopens one without its runs (advice.json
// holds every figure its card and charts show). A folder whose advice.json cannot be read is
// listed as damaged, with the reason, never dropped and never a crash. An advice under way has its
// folder from the start (begin()): its progress file and the base run's checkpoint are kept there,
// so one that was stopped (Stop, a closed window) is listed as stopped, to be resumed
// (AdviceJob::resume); saving the finished advice into it removes them. A folder is claimed with
// mkdir, which only one of two advisors started together wins, and an advice holds its folder's
// lock (advice_lock.hpp) while it runs: one that runs is listed as running, never as stopped.
// Everything an advice keeps is addressed relative to its own folder, wherever it was copied.

#include "advice.hpp"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace ddplab::ui {

struct StoredAdvice {
    QString id;                    // the folder's name: "20261127-103235-8gpus"
    QString directory;
    QDateTime created;             // the folder's time, from its name
    std::optional<Advice> advice;  // nullopt: damaged, or stopped
    QString problem;               // why it could not be read, in words
    bool stopped = false;          // no advice.json but a progress file: an advice stopped before its end
    bool running = false;          // its lock is held: an advisor (this one or another) runs it now
    qint64 runningPid = 0;         // a running one's: the process that holds it, when it said so
    int gpus = 0;                  // a stopped one's: the GPUs planned for
    int runsEnded = 0;             // a stopped one's: the runs it had finished, which resuming takes
    QString model, data;           // a stopped or running one's: what it is about (a finished one's advice names them)
    QString progressFile() const;
    QString checkpointFolder() const;
    // "8 GPUs: 32 per GPU, LR 0.4 (moderate) · Fashion-MNIST MLP on Fashion-MNIST (60,000 training
    // images)", "stopped: ...", "running: ..." or "damaged: <problem>".
    QString title() const;
};

class AdviceStore {
public:
    explicit AdviceStore(QString root = defaultRoot());
    static QString defaultRoot();
    const QString& root() const { return m_root; }

    // A new folder for an advice about to start, made by this call alone (mkdir, never a folder
    // that was there); its id, or "" with `error` set.
    QString begin(int gpus, QString* error) const;
    // advice.json and advice.md into a new folder, or into `into` (an id under the root, or a
    // folder of its own: a resumed copy elsewhere is saved where it is), whose progress file and
    // checkpoints are then removed; its id, or "" with `error` set.
    QString save(const Advice& advice, QString* error, const QString& into = {}) const;
    // A folder (or a folder's name under the root) read back; damaged ones say why. A name is one
    // folder's name: one holding "/" or being "." or ".." is refused, never looked up.
    StoredAdvice open(const QString& idOrDirectory) const;
    // Newest first, damaged ones included.
    QList<StoredAdvice> list() const;

private:
    QString m_root;
};

}  // namespace ddplab::ui
