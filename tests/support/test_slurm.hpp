// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A real Slurm for the tests (Debian's munge, slurmctld and slurmd), all of it in a temporary
// folder: its own munge key, socket and pid file (munged --force, as root), its own
// slurm.conf, state, spool and logs, ports of its own on 127.0.0.1 (free when it starts), one
// slurmctld and three slurmd (one per node: "multiple slurmd" on one machine, each on its own
// port). Every node declares 4 CPUs and 2 GPUs (gres backed by /dev/null links: device files
// are all Slurm asks for, so that --gpus-per-task binds them to tasks as on a real cluster).
// Nodes: this machine's own host name (so that the first node's name resolves, as the lab's
// launch template needs) and labnode2, labnode3. Partitions: `lab` (default: this machine's
// node only) and `cluster` (all three).
//
// Runs as root (SlurmUser=root, ProctrackType=proctrack/linuxproc, TaskPlugin=task/none), like
// CI. Nothing of the system's Slurm or munge is used or touched. The destructor cancels every
// job and stops every daemon and every process still running with this Slurm's SLURM_CONF in
// its environment (job steps, tasks), whatever the tests did; the daemons also die with the
// test process (PR_SET_PDEATHSIG).

#include <QList>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <vector>

namespace ddplab::test {

class TestSlurm {
public:
    TestSlurm();
    ~TestSlurm();
    TestSlurm(const TestSlurm&) = delete;
    TestSlurm& operator=(const TestSlurm&) = delete;

    bool isRunning() const { return m_problem.isEmpty(); }
    QString problem() const { return m_problem; }  // why it is not running, with its logs' tail

    QString firstNode() const { return m_nodes.front(); }
    QStringList nodes() const { return m_nodes; }
    static constexpr int kCpusPerNode = 4;
    static constexpr int kGpusPerNode = 2;

    // This machine's environment with SLURM_CONF naming this Slurm: for srun, sbatch, scancel
    // and for `ddplab-engine runs --launcher` (whose srun inherits it).
    QProcessEnvironment environment() const;

    // Runs a Slurm client command (squeue, scancel, ...) to its end; its stdout.
    QByteArray run(const QString& program, const QStringList& arguments, int timeoutMs = 30000) const;

    // The ids of this Slurm's jobs that are not finished.
    QStringList activeJobs() const;

    // Processes whose environment names this Slurm and that belong to a job: job steps
    // (slurmstepd) and their tasks.
    QList<qint64> jobProcesses() const;

    // Of those, the tasks with `SLURM_PROCID=rank` running `program` (its /proc/PID/comm).
    QList<qint64> tasks(const QString& program, int rank) const;

    // The MASTER_PORT the lab's Slurm template derives from a job id (20000 + id % 20000):
    // the suite starts job ids where the next ones give free ports.
    static int templatePort(int jobId) { return 20000 + jobId % 20000; }

private:
    bool start();
    bool write(const QString& name, const QByteArray& text);
    bool startDaemon(const QString& program, const QStringList& arguments);
    bool waitForIdleNodes();
    void stop();
    QString logsTail() const;

    QTemporaryDir m_folder;
    std::vector<std::unique_ptr<QProcess>> m_daemons;  // munged, slurmctld, slurmd x3
    QStringList m_nodes;
    QString m_problem;
};

}  // namespace ddplab::test
