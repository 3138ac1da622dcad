// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the engine runs: this computer, or another machine over SSH (docs/remote.md). The
// system's OpenSSH client does the work, so the user's keys, agent, ~/.ssh/config and jump
// hosts all apply and the lab keeps no password or key. BatchMode means a host that would ask
// for a password fails at once instead of waiting. Every argument of the remote command is
// quoted; configs travel on stdin, never on a command line.

#include <QList>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct EngineTarget {
    QString host;  // empty: this computer; else an ~/.ssh/config alias or user@host
    int port = 0;  // 0: what ssh (its config) chooses
    QString remoteEngine = QStringLiteral("ddplab-engine");  // on the remote PATH by default
    // How each run starts there: empty, the engine's own launcher; else a launch template
    // (torchrun, srun) that `ddplab-engine runs --launcher` fills in and runs.
    QString launcher;
    QString runDirectory;  // where its config is kept while it runs (Slurm: a folder every node sees)

    bool isRemote() const { return !host.isEmpty(); }
    QString describe() const;  // "this computer", "gpu1", "me@gpu1:2222"
    QString text() const;      // what the Run on field shows: "me@gpu1:2222"
    bool operator==(const EngineTarget& other) const
    {
        return host == other.host && port == other.port && remoteEngine == other.remoteEngine && launcher == other.launcher &&
               runDirectory == other.runDirectory;
    }
};

// "gpu1", "me@gpu1", "me@gpu1:2222" (empty: this computer); `error` says what is allowed.
EngineTarget parseEngineTarget(const QString& text, const QString& remoteEngine, QString* error);
// Why the host or the engine path cannot be used; empty when they can.
QString engineTargetProblem(const EngineTarget& target);
// Why `path` cannot be a remote engine's path (it must stay one word to ssh and the shell there).
QString remoteEngineProblem(const QString& path);

// The launch templates Setup offers (docs/remote.md): one node (the engine's own launcher),
// torchrun on one node, and srun from a Slurm login node. {engine}, {config} and {ranks} are
// filled in on the remote side.
struct LaunchTemplate {
    QString id;    // what `ddplab --launch` takes: one-node, torchrun, slurm
    QString name;  // what Setup shows
    QString command;       // empty: the built-in launcher
    QString runDirectory;  // empty: the remote $TMPDIR
};
const QList<LaunchTemplate>& launchTemplates();
// The template with this id; nullptr when none has it.
const LaunchTemplate* findLaunchTemplate(const QString& id);
// `target` with the template's command and run folder (the first, the engine's own launcher,
// clears them).
EngineTarget withLaunchTemplate(EngineTarget target, const LaunchTemplate& launch);

// The arguments of `ddplab-engine runs` for `target`: the lab's own, and its launcher.
QStringList runsArguments(const EngineTarget& target);

struct EngineCommand {
    QString program;
    QStringList arguments;
};
// The command that runs the engine with `engineArguments` on `target`: the local engine
// itself, or ssh with the remote engine and its arguments each quoted for the remote shell.
EngineCommand engineCommand(const EngineTarget& target, const QString& localEngine, const QStringList& engineArguments);

// The ssh program: DDPLAB_SSH when set (tests give one with their own config), else "ssh".
QString sshProgram();
// POSIX shell single quotes: the remote shell sees `text` as one word, whatever it holds.
QString shellQuoted(const QString& text);

// Which engine runs on `target`, and where the user sets it, to follow "The engine" in a
// sentence: "at /x/ddplab-engine (--engine, DDPLAB_ENGINE)", or over SSH the remote one:
// "at \"/opt/ddplab-engine\" on gpu1 (--remote-engine, or Run on in Setup)".
QString engineWhere(const EngineTarget& target, const QString& localEngine);

// One sentence on what went wrong reaching `target`, from ssh's exit code and its stderr
// (255: ssh's own failure; 127/126: no engine there), saying what to do; empty when the
// failure was the engine's own.
QString explainRemoteFailure(const EngineTarget& target, int exitCode, const QString& stderrText);

}  // namespace ddplab::ui
