// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_slurm.hpp"

#include "process_table.hpp"

#include <QDir>
#include <QFileInfo>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ddplab::test {
namespace {

constexpr int kNodes = 3;
// Ports of 127.0.0.1 for slurmctld, one slurmd per node and srun's own (SrunPortRange).
constexpr int kSrunPorts = 32;
constexpr int kPortBlock = 1 + kNodes + kSrunPorts;
// Job ids whose template ports (20000 + id % 20000) must be free when the suite starts.
constexpr int kJobsPerSuite = 64;

bool portIsFree(int port)
{
    const int socket = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (socket < 0)
        return false;
    const int reuse = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof reuse);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(quint16(port));
    address.sin_addr.s_addr = htonl(INADDR_ANY);  // the daemons listen on every address
    const bool free = ::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(socket);
    return free;
}

bool portsAreFree(int first, int count, int step = 1)
{
    for (int i = 0; i < count; ++i) {
        if (!portIsFree(first + i * step))
            return false;
    }
    return true;
}

// The first port the kernel picks for a bind to port 0 or a connect (32768 unless set otherwise).
int ephemeralPortsStart()
{
    QFile range(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    bool number = false;
    const int first = range.open(QIODevice::ReadOnly) ? QString::fromLatin1(range.readAll()).simplified().section(QLatin1Char(' '), 0, 0).toInt(&number) : 0;
    return number && first > 0 ? first : 32768;
}

// A process's environment, one "NAME=value" per entry; empty when it is gone or unreadable.
QList<QByteArray> environmentOf(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/environ").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().split('\0');
}

QList<qint64> allProcesses()
{
    QList<qint64> pids;
    for (const QString& name : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool number = false;
        const qint64 pid = name.toLongLong(&number);
        if (number)
            pids.append(pid);
    }
    return pids;
}

// This machine's short host name, when it resolves to an address ("" otherwise).
QString resolvableHostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return {};
    const QString host = QString::fromLatin1(name).section(QLatin1Char('.'), 0, 0);
    addrinfo* found = nullptr;
    if (::getaddrinfo(host.toLatin1().constData(), nullptr, nullptr, &found) != 0)
        return {};
    ::freeaddrinfo(found);
    return host;
}

}  // namespace

TestSlurm::TestSlurm()
{
    if (::geteuid() != 0) {
        m_problem = QStringLiteral("the Slurm suite starts its own slurmd, which runs tasks as root: run it as root (as CI does)");
        return;
    }
    for (const char* program : {"/usr/sbin/munged", "/usr/sbin/mungekey", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/srun"}) {
        if (!QFile::exists(QString::fromLatin1(program))) {
            m_problem = QStringLiteral("%1 is missing: scripts/setup-deps.sh installs munge, slurmctld, slurmd and slurm-client")
                            .arg(QString::fromLatin1(program));
            return;
        }
    }
    if (!start())
        m_problem += logsTail();
}

TestSlurm::~TestSlurm()
{
    stop();
}

bool TestSlurm::start()
{
    const QString dir = m_folder.path();
    // The first node is this machine by name: the lab's template makes its name MASTER_ADDR.
    const QString host = resolvableHostName();
    if (host.isEmpty()) {
        m_problem = QStringLiteral("this machine's host name does not resolve (the lab's Slurm template uses the first "
                                   "node's name as MASTER_ADDR): add it to /etc/hosts");
        return false;
    }
    m_nodes = QStringList{host, QStringLiteral("labnode2"), QStringLiteral("labnode3")};

    // Every port of this Slurm lies below the ports the kernel hands out to a bind to port 0 or a
    // connect (ip_local_port_range, 32768 and up by default), where the other suites' engines,
    // Gloo and sshd take theirs: the daemons' block between 10000 and 20000, the jobs' template
    // ports from 20000 up to that range. So the suite can run beside them (no RUN_SERIAL).
    QRandomGenerator* random = QRandomGenerator::global();
    int base = 0;
    for (int attempt = 0; attempt < 50 && base == 0; ++attempt) {
        const int candidate = 10000 + int(random->bounded(10000 - kPortBlock));
        if (portsAreFree(candidate, kPortBlock))
            base = candidate;
    }
    const int jobIds = std::min(20000, ephemeralPortsStart() - 20000) - kJobsPerSuite;
    int firstJob = 0;
    for (int attempt = 0; attempt < 50 && firstJob == 0 && jobIds > 0; ++attempt) {
        const int candidate = 1 + int(random->bounded(jobIds));
        if (portsAreFree(templatePort(candidate), kJobsPerSuite))
            firstJob = candidate;
    }
    if (base == 0 || firstJob == 0) {
        m_problem = QStringLiteral("no free block of ports for the test Slurm");
        return false;
    }

    QDir().mkpath(dir + QStringLiteral("/state"));
    QDir().mkpath(dir + QStringLiteral("/spool"));
    QDir().mkpath(dir + QStringLiteral("/dev"));
    for (int gpu = 0; gpu < kGpusPerNode; ++gpu) {
        if (!QFile::link(QStringLiteral("/dev/null"), dir + QStringLiteral("/dev/nvidia%1").arg(gpu))) {
            m_problem = QStringLiteral("cannot make the GPU device links in %1").arg(dir);
            return false;
        }
    }
    const QByteArray folder = QFile::encodeName(dir);
    const QByteArray nodeList = m_nodes.join(QLatin1Char(',')).toLatin1();
    const QByteArray conf =
        "ClusterName=ddplabtest\n"
        "SlurmctldHost=" + host.toLatin1() + "(127.0.0.1)\n"
        "SlurmctldPort=" + QByteArray::number(base) + "\n"
        "SrunPortRange=" + QByteArray::number(base + 1 + kNodes) + "-" + QByteArray::number(base + kPortBlock - 1) + "\n"
        "SlurmUser=root\nSlurmdUser=root\n"
        "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" + folder + "/munge.socket\n"
        "StateSaveLocation=" + folder + "/state\nSlurmdSpoolDir=" + folder + "/spool/%n\n"
        "SlurmctldPidFile=" + folder + "/slurmctld.pid\nSlurmdPidFile=" + folder + "/slurmd-%n.pid\n"
        "SlurmctldLogFile=" + folder + "/slurmctld.log\nSlurmdLogFile=" + folder + "/slurmd-%n.log\n"
        "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n"
        "AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\nMpiDefault=none\n"
        "SchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
        "ReturnToService=2\nGresTypes=gpu\nSlurmdParameters=config_overrides\n"
        // Seconds between a step's SIGTERM and SIGKILL: the tests wait for it.
        "KillWait=2\n"
        "FirstJobId=" + QByteArray::number(firstJob) + "\n"
        "NodeName=" + nodeList + " NodeAddr=127.0.0.1 NodeHostname=" + host.toLatin1() + " Port=" +
        QByteArray::number(base + 1) + "-" + QByteArray::number(base + kNodes) + " CPUs=" + QByteArray::number(kCpusPerNode) +
        " Gres=gpu:" + QByteArray::number(kGpusPerNode) + " State=UNKNOWN\n"
        "PartitionName=lab Nodes=" + host.toLatin1() + " Default=YES MaxTime=INFINITE State=UP\n"
        "PartitionName=cluster Nodes=" + nodeList + " MaxTime=INFINITE State=UP\n";
    const QByteArray gres = "NodeName=" + nodeList + " Name=gpu File=" + folder + "/dev/nvidia[0-" +
                            QByteArray::number(kGpusPerNode - 1) + "]\n";
    // Slurm 22.05's slurmd starts a cgroup plugin even when nothing uses one (linuxproc,
    // task/none), and the default, autodetect, refuses to start without a cgroup filesystem at
    // /sys/fs/cgroup: in a chroot (../shared/tools/fresh-machine) every node stayed "unk*".
    // Named outright, cgroup/v1 is loaded and never touches the filesystem in this setup.
    const QByteArray cgroup = "CgroupPlugin=cgroup/v1\n";
    if (!write(QStringLiteral("slurm.conf"), conf) || !write(QStringLiteral("gres.conf"), gres) ||
        !write(QStringLiteral("cgroup.conf"), cgroup))
        return false;

    const QString key = dir + QStringLiteral("/munge.key");
    QProcess mungekey;
    mungekey.start(QStringLiteral("/usr/sbin/mungekey"), {QStringLiteral("-c"), QStringLiteral("-k"), key, QStringLiteral("-b"), QStringLiteral("1024")});
    if (!mungekey.waitForFinished(30000) || mungekey.exitCode() != 0) {
        m_problem = QStringLiteral("mungekey failed: ") + QString::fromLocal8Bit(mungekey.readAllStandardError());
        return false;
    }
    if (!startDaemon(QStringLiteral("/usr/sbin/munged"),
                     {QStringLiteral("-F"), QStringLiteral("--force"), QStringLiteral("--key-file=") + key,
                      QStringLiteral("--socket=") + dir + QStringLiteral("/munge.socket"),
                      QStringLiteral("--pid-file=") + dir + QStringLiteral("/munged.pid"),
                      QStringLiteral("--log-file=") + dir + QStringLiteral("/munged.log"),
                      QStringLiteral("--seed-file=") + dir + QStringLiteral("/munged.seed")}))
        return false;
    QElapsedTimer clock;
    clock.start();
    while (!QFile::exists(dir + QStringLiteral("/munge.socket")) && clock.elapsed() < 10000)
        QThread::msleep(50);
    const QString slurmConf = dir + QStringLiteral("/slurm.conf");
    if (!startDaemon(QStringLiteral("/usr/sbin/slurmctld"), {QStringLiteral("-D"), QStringLiteral("-i"), QStringLiteral("-f"), slurmConf}))
        return false;
    for (const QString& node : std::as_const(m_nodes)) {
        if (!startDaemon(QStringLiteral("/usr/sbin/slurmd"), {QStringLiteral("-D"), QStringLiteral("-N"), node, QStringLiteral("-f"), slurmConf}))
            return false;
    }
    return waitForIdleNodes();
}

bool TestSlurm::write(const QString& name, const QByteArray& text)
{
    QFile file(m_folder.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) {
        m_problem = QStringLiteral("cannot write %1").arg(file.fileName());
        return false;
    }
    return true;
}

bool TestSlurm::startDaemon(const QString& program, const QStringList& arguments)
{
    auto daemon = std::make_unique<QProcess>();
    daemon->setProcessEnvironment(environment());
    const QString name = QFileInfo(program).fileName() + QStringLiteral("-%1.out").arg(m_daemons.size());
    daemon->setStandardOutputFile(m_folder.filePath(name));
    daemon->setStandardErrorFile(m_folder.filePath(name));
    // Dies with the test process, however that ends.
    daemon->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    daemon->start(program, arguments);
    if (!daemon->waitForStarted(10000)) {
        m_problem = QStringLiteral("%1 did not start: %2").arg(program, daemon->errorString());
        return false;
    }
    m_daemons.push_back(std::move(daemon));
    return true;
}

bool TestSlurm::waitForIdleNodes()
{
    QElapsedTimer clock;
    clock.start();
    QByteArray states;
    while (clock.elapsed() < 60000) {
        states = run(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-p"),
                                               QStringLiteral("cluster"), QStringLiteral("-o"), QStringLiteral("%N %t")});
        if (states.count(" idle\n") == kNodes)
            return true;
        for (const auto& daemon : m_daemons) {
            if (daemon->state() != QProcess::Running) {
                m_problem = QStringLiteral("%1 exited (code %2)").arg(daemon->program()).arg(daemon->exitCode());
                return false;
            }
        }
        QThread::msleep(200);
    }
    m_problem = QStringLiteral("the test Slurm's nodes did not become idle within 60 s: ") + QString::fromLocal8Bit(states);
    return false;
}

QProcessEnvironment TestSlurm::environment() const
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SLURM_CONF"), m_folder.filePath(QStringLiteral("slurm.conf")));
    return environment;
}

QByteArray TestSlurm::run(const QString& program, const QStringList& arguments, int timeoutMs) const
{
    QProcess process;
    process.setProcessEnvironment(environment());
    process.start(program, arguments);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(1000);
    }
    return process.readAllStandardOutput();
}

QStringList TestSlurm::activeJobs() const
{
    const QString listed = QString::fromLatin1(run(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%i")}));
    return listed.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QList<qint64> TestSlurm::jobProcesses() const
{
    const QByteArray marker = "SLURM_CONF=" + QFile::encodeName(m_folder.filePath(QStringLiteral("slurm.conf")));
    QList<qint64> daemons;
    for (const auto& daemon : m_daemons)
        daemons.append(daemon->processId());
    QList<qint64> found;
    for (qint64 pid : allProcesses()) {
        if (pid == ::getpid() || daemons.contains(pid) || !test::isRunning(pid))
            continue;
        const QList<QByteArray> environment = environmentOf(pid);
        if (!environment.contains(marker))
            continue;
        // A step (slurmstepd) or a task (Slurm gave it its job id); not the clients that
        // merely name this Slurm (srun, ddplab-engine runs).
        const bool task = std::any_of(environment.begin(), environment.end(),
                                      [](const QByteArray& entry) { return entry.startsWith("SLURM_JOB_ID="); });
        if (task || processName(pid) == QLatin1String("slurmstepd"))
            found.append(pid);
    }
    return found;
}

QList<qint64> TestSlurm::tasks(const QString& program, int rank) const
{
    const QByteArray procid = "SLURM_PROCID=" + QByteArray::number(rank);
    QList<qint64> found;
    for (qint64 pid : jobProcesses()) {
        if (processName(pid) == program && environmentOf(pid).contains(procid))
            found.append(pid);
    }
    return found;
}

void TestSlurm::stop()
{
    if (!m_daemons.empty()) {
        const QStringList jobs = activeJobs();
        if (!jobs.isEmpty())
            run(QStringLiteral("scancel"), jobs);
    }
    // Job steps and tasks: Slurm's own ending first, then ours.
    QElapsedTimer clock;
    clock.start();
    while (!jobProcesses().isEmpty() && clock.elapsed() < 8000)
        QThread::msleep(100);
    for (auto it = m_daemons.rbegin(); it != m_daemons.rend(); ++it) {
        QProcess& daemon = **it;
        if (daemon.state() == QProcess::NotRunning)
            continue;
        daemon.terminate();
        if (!daemon.waitForFinished(5000)) {
            daemon.kill();
            daemon.waitForFinished(3000);
        }
    }
    for (qint64 pid : jobProcesses())
        ::kill(pid_t(pid), SIGKILL);
    m_daemons.clear();
}

QString TestSlurm::logsTail() const
{
    QString tail;
    for (const QString& name : QDir(m_folder.path()).entryList({QStringLiteral("*.log"), QStringLiteral("*.out")}, QDir::Files)) {
        QFile file(m_folder.filePath(name));
        if (file.open(QIODevice::ReadOnly))
            tail += QStringLiteral("\n--- %1:\n%2").arg(name, QString::fromLocal8Bit(file.readAll().right(1500)));
    }
    return tail;
}

}  // namespace ddplab::test
