// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_target.hpp"

#include "core/protocol_names.hpp"

#include <QRegularExpression>

namespace ddplab::ui {
namespace {

// A user and a host name or address as ssh reads them; never an option (no leading '-').
const QRegularExpression kHost(QStringLiteral("^(?:[A-Za-z0-9._][A-Za-z0-9._-]*@)?[A-Za-z0-9_][A-Za-z0-9._-]*$"));
// A path without anything a shell or ssh would read as more than a path.
const QRegularExpression kEnginePath(QStringLiteral("^[A-Za-z0-9._/+][A-Za-z0-9._/+-]*$"));
constexpr int kConnectTimeoutSeconds = 10;
// A dropped connection is noticed within about 15 s (3 missed keep-alives 5 s apart).
constexpr int kAliveIntervalSeconds = 5;
constexpr int kAliveCountMax = 3;

QString firstLine(const QString& text, const QString& containing)
{
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (line.contains(containing, Qt::CaseInsensitive))
            return line.trimmed();
    }
    return QString();
}

}  // namespace

QString EngineTarget::describe() const
{
    return isRemote() ? text() : QStringLiteral("this computer");
}

QString EngineTarget::text() const
{
    return port > 0 ? QStringLiteral("%1:%2").arg(host).arg(port) : host;
}

EngineTarget parseEngineTarget(const QString& text, const QString& remoteEngine, QString* error)
{
    EngineTarget target;
    target.remoteEngine = remoteEngine.trimmed().isEmpty() ? EngineTarget().remoteEngine : remoteEngine.trimmed();
    QString host = text.trimmed();
    const qsizetype colon = host.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0) {
        bool ok = false;
        const int port = host.mid(colon + 1).toInt(&ok);
        if (!ok || port < 1 || port > 65535) {
            *error = QStringLiteral("the port after \":\" must be a number from 1 to 65535 (got \"%1\")").arg(host.mid(colon + 1));
            return EngineTarget();
        }
        target.port = port;
        host.truncate(colon);
    }
    target.host = host;
    *error = engineTargetProblem(target);
    return error->isEmpty() ? target : EngineTarget();
}

QString engineTargetProblem(const EngineTarget& target)
{
    if (!target.isRemote())
        return QString();
    if (!kHost.match(target.host).hasMatch())
        return QStringLiteral("\"%1\" is not a host: give an ~/.ssh/config alias, a host name or user@host (letters, digits, "
                              "'.', '_', '-'), optionally :port")
            .arg(target.host);
    return remoteEngineProblem(target.remoteEngine);
}

QString remoteEngineProblem(const QString& path)
{
    if (!kEnginePath.match(path).hasMatch())
        return QStringLiteral("\"%1\" is not an engine path: letters, digits and . _ / + - only, not starting with - (e.g. "
                              "ddplab-engine or /opt/ddplab/bin/ddplab-engine)")
            .arg(path);
    return QString();
}

const QList<LaunchTemplate>& launchTemplates()
{
    static const QList<LaunchTemplate> templates{
        {QStringLiteral("one-node"), QStringLiteral("one node (the engine's own launcher)"), QString(), QString()},
        // Debian's torchrun (PyTorch 1.13) spells its options with underscores; --redirects 2
        // --tee 2 keeps rank 0's stdout (the events) unprefixed.
        {QStringLiteral("torchrun"), QStringLiteral("torchrun (one node)"),
         QStringLiteral("torchrun --standalone --nproc_per_node {ranks} --redirects 2 --tee 2 --no_python {engine} worker "
                        "--config {config}"),
         QString()},
        // Each task learns the first node's name from Slurm itself: MASTER_ADDR for the rendezvous;
        // the port follows the job id, so two runs starting on one node do not collide.
        // --kill-on-bad-exit: a task that dies ends the whole step at once (tests/slurm).
        {QStringLiteral("slurm"), QStringLiteral("Slurm (srun from a login node)"),
         QStringLiteral("srun --kill-on-bad-exit --ntasks {ranks} --gpus-per-task 1 sh -c 'MASTER_ADDR=$(scontrol show hostnames "
                        "\"$SLURM_JOB_NODELIST\" | head -n 1) MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000)) exec \"$0\" worker "
                        "--config \"$1\"' {engine} {config}"),
         QStringLiteral("~/.ddplab/runs")},
    };
    return templates;
}

const LaunchTemplate* findLaunchTemplate(const QString& id)
{
    for (const LaunchTemplate& launch : launchTemplates()) {
        if (launch.id == id)
            return &launch;
    }
    return nullptr;
}

EngineTarget withLaunchTemplate(EngineTarget target, const LaunchTemplate& launch)
{
    target.launcher = launch.command;
    target.runDirectory = launch.command.isEmpty() ? QString() : launch.runDirectory;
    return target;
}

QStringList runsArguments(const EngineTarget& target)
{
    // --stop-when-input-ends: if the lab goes (killed, or its SSH connection drops), the
    // engine's stdin ends and it stops the run in progress; nothing is left running.
    QStringList arguments{QString::fromLatin1(protocol::role::kRuns), QStringLiteral("--stop-when-input-ends")};
    if (!target.launcher.isEmpty())
        arguments << QStringLiteral("--launcher") << target.launcher;
    if (!target.runDirectory.isEmpty())
        arguments << QStringLiteral("--run-dir") << target.runDirectory;
    return arguments;
}

QString shellQuoted(const QString& text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString sshProgram()
{
    const QString configured = qEnvironmentVariable("DDPLAB_SSH");
    return configured.isEmpty() ? QStringLiteral("ssh") : configured;
}

EngineCommand engineCommand(const EngineTarget& target, const QString& localEngine, const QStringList& engineArguments)
{
    if (!target.isRemote())
        return {localEngine, engineArguments};
    QStringList remote{shellQuoted(target.remoteEngine)};
    for (const QString& argument : engineArguments)
        remote.append(shellQuoted(argument));
    QStringList arguments{QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                          QStringLiteral("-o"), QStringLiteral("ConnectTimeout=%1").arg(kConnectTimeoutSeconds),
                          QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=%1").arg(kAliveIntervalSeconds),
                          QStringLiteral("-o"), QStringLiteral("ServerAliveCountMax=%1").arg(kAliveCountMax),
                          QStringLiteral("-T")};
    if (target.port > 0)
        arguments << QStringLiteral("-p") << QString::number(target.port);
    arguments << QStringLiteral("--") << target.host << remote.join(QLatin1Char(' '));
    return {sshProgram(), arguments};
}

QString engineWhere(const EngineTarget& target, const QString& localEngine)
{
    if (!target.isRemote())
        return QStringLiteral("at %1 (--engine, DDPLAB_ENGINE)").arg(localEngine);
    return QStringLiteral("at \"%1\" on %2 (--remote-engine, or Run on in Setup)").arg(target.remoteEngine, target.describe());
}

QString explainRemoteFailure(const EngineTarget& target, int exitCode, const QString& stderrText)
{
    const QString host = target.host;
    if (exitCode == 127 || exitCode == 126 || stderrText.contains(QLatin1String("command not found")))
        return QStringLiteral("There is no engine at \"%1\" on %2: build it there (docs/remote.md) and give its path under "
                              "Run on (--remote-engine), or put ddplab-engine on the remote PATH.")
            .arg(target.remoteEngine, host);
    if (exitCode != 255)
        return QString();
    if (stderrText.contains(QLatin1String("Host key verification failed")) || stderrText.contains(QLatin1String("REMOTE HOST IDENTIFICATION")))
        return QStringLiteral("The host key of %1 is not known (or has changed): connect once with `ssh %1` in a terminal and "
                              "check and accept its key.")
            .arg(host);
    if (stderrText.contains(QLatin1String("Permission denied")))
        return QStringLiteral("%1 refused the login: the lab logs in with your SSH keys or agent, never a password; set up a "
                              "key (`ssh-copy-id %1`) and check that `ssh %1` works without asking.")
            .arg(host);
    for (const char* unreachable : {"Connection refused", "timed out", "Could not resolve", "No route to host", "Network is unreachable",
                                    "Connection closed", "Connection reset"}) {
        const QString line = firstLine(stderrText, QLatin1String(unreachable));
        if (!line.isEmpty())
            return QStringLiteral("Cannot reach %1 (%2): check the host name, the port and that `ssh %1` works.").arg(host, line);
    }
    const QString last = stderrText.trimmed().section(QLatin1Char('\n'), -1);
    return QStringLiteral("ssh could not run the engine on %1%2: check that `ssh %1` works.")
        .arg(host, last.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(last));
}

}  // namespace ddplab::ui
