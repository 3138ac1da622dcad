// SPDX-License-Identifier: GPL-3.0-or-later
// One short run asked of a session as one sequence, as an advice asks a phase: the suites that
// check the engine kept between an advice's phases (tst_engine_process here, tst_remote_runs on
// an SSH host) ask several in a row.
#pragma once

#include "client/library/preset_file.hpp"
#include "client/session/lab_session.hpp"

#include <QJsonDocument>
#include <QSignalSpy>

namespace ddplab::ui::test {

class ShortPhases {
public:
    explicit ShortPhases(LabSession& session, int patienceMs) : m_session(session), m_done(&session, &LabSession::sequenceFinished), m_patienceMs(patienceMs) {}

    // A short run (the default workload, 64 samples in batches of 8) as the sequence `name`: true
    // when it ended and every run succeeded.
    bool run(const QString& name)
    {
        static const ddplab::Config config = coreConfigOf(QJsonDocument::fromJson(R"({"batch_size": 8, "num_examples": 64})").object()).value();
        m_session.start({{name, name, QString(), config}});
        return m_done.wait(m_patienceMs) && m_done.last().at(0).toBool();
    }

private:
    LabSession& m_session;
    QSignalSpy m_done;
    int m_patienceMs;
};

}  // namespace ddplab::ui::test
