// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Python programs run by forks of one Debian python3 that has imported torch once
// (tests/tools/forked_python.py): each `import torch` costs about 2 s of CPU, so a suite that
// runs many Python programs (scripts' ranks, tools that write or read models) pays it once.
// A forked program runs as `python3 PROGRAM ARG...` would, torch already imported.

#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <utility>

namespace ddplab::test {

struct PythonProgram {
    QStringList argv;                                // PROGRAM ARG...
    QList<std::pair<QString, QString>> environment;  // added to the suite's
};

struct PythonExit {
    int code = -1;  // -9 when killed at the timeout
    QString out, err;
};

class ForkedPython {
public:
    ForkedPython() = default;
    ForkedPython(const ForkedPython&) = delete;
    ForkedPython& operator=(const ForkedPython&) = delete;
    ~ForkedPython();

    // Starts Debian's python3 with `tool` (tests/tools/forked_python.py) and waits until it has
    // imported torch; "" then, else why not (missingPythonTorch()'s sentence when that is why).
    QString start(const QString& tool);
    // Runs `programs` at once (the ranks of one script) and returns when all have ended; as
    // torchrun's agent does, the first that fails ends the others (code -9), and so does
    // `timeoutSeconds` (*timedOut then). Codes -1 when the forking python3 itself failed; err says why.
    QList<PythonExit> run(const QList<PythonProgram>& programs, int timeoutSeconds, bool* timedOut = nullptr);
    PythonExit run(const QStringList& argv, int timeoutSeconds = 120);

private:
    QByteArray readLine(int timeoutMs);
    QProcess m_python;
};

// The environment torchrun (PyTorch 1.13's local elastic agent) gives rank `rank` of
// `worldSize` on one node, but for its store: no agent hosts one, so rank 0's process group
// does (TORCHELASTIC_USE_AGENT_STORE False), on 127.0.0.1:`port`.
QList<std::pair<QString, QString>> torchrunEnvironment(int rank, int worldSize, int port);

}  // namespace ddplab::test
