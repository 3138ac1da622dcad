// SPDX-License-Identifier: GPL-3.0-or-later
#include "launcher_report.hpp"

#include "core/protocol_names.hpp"

#include <algorithm>
#include <cstdlib>

namespace ddplab {
namespace {

// The leading number of `text` at `at`, or -1.
int leadingNumber(const std::string& text, size_t at)
{
    if (at >= text.size() || text[at] < '0' || text[at] > '9')
        return -1;
    return std::atoi(text.c_str() + at);
}

bool startsWith(const std::string& text, const std::string& prefix)
{
    return text.rfind(prefix, 0) == 0;
}

// A rank's error that only says a peer went away (Gloo's words for a closed connection).
bool lostItsConnection(const std::string& error)
{
    for (const char* words : {"Connection reset by peer", "Connection closed by peer", "Broken pipe"}) {
        if (error.find(words) != std::string::npos)
            return true;
    }
    return false;
}

// srun's task list: "1", "0-1", "0,2-3". Empty when it is not one.
std::vector<int> taskList(const std::string& text)
{
    // A job step has at most this many tasks to list here; more is not a list srun wrote.
    constexpr int kMaxListed = 1 << 20;
    std::vector<int> tasks;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t comma = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, comma - at);
        const size_t dash = item.find('-');
        const int first = leadingNumber(item, 0);
        const int last = dash == std::string::npos ? first : leadingNumber(item, dash + 1);
        if (first < 0 || last < first || last - first > kMaxListed || tasks.size() > size_t(kMaxListed))
            return {};
        for (int task = first; task <= last; ++task)
            tasks.push_back(task);
        at = comma + 1;
    }
    return tasks;
}

}  // namespace

void LauncherReport::addLine(const std::string& line)
{
    // Each worker's own last word (launch/worker.cpp).
    const std::string worker = "ddplab-engine: rank ";
    if (startsWith(line, worker)) {
        const int rank = leadingNumber(line, worker.size());
        const size_t error = line.find(": error: ");
        const bool known = std::any_of(m_rankErrors.begin(), m_rankErrors.end(), [&](const auto& e) { return e.first == rank; });
        if (rank >= 0 && error != std::string::npos && !known)
            m_rankErrors.emplace_back(rank, line.substr(error + 9));
        return;
    }
    if (line.find("*** STEP ") != std::string::npos && line.find(" CANCELLED AT ") != std::string::npos) {
        if (!m_first && !m_stepEnding && m_cancelled.empty())
            m_cancelled = line;
        return;
    }
    if (!startsWith(line, "srun: "))
        return;
    if (line.find("Terminating StepId") != std::string::npos || line.find("Terminating job step") != std::string::npos) {
        m_stepEnding = true;
        return;
    }
    // srun: error: NODE: task 1: Killed      srun: error: NODE: tasks 0-1: Exited with exit code 2
    const std::string error = "srun: error: ";
    if (m_signalledLater || !startsWith(line, error) || (!m_first && !m_cancelled.empty()))
        return;
    size_t task = line.find(": task ", error.size());
    size_t number = task == std::string::npos ? task : task + 7;
    if (task == std::string::npos) {
        task = line.find(": tasks ", error.size());
        number = task == std::string::npos ? task : task + 8;
    }
    if (task == std::string::npos)
        return;
    const size_t reason = line.find(": ", number);
    const std::vector<int> tasks = reason == std::string::npos ? std::vector<int>() : taskList(line.substr(number, reason - number));
    if (tasks.empty())
        return;
    TaskEnd end;
    // Ended together: the one whose own error came first failed first.
    end.rank = tasks.front();
    for (auto e = m_rankErrors.rbegin(); e != m_rankErrors.rend(); ++e) {
        if (std::find(tasks.begin(), tasks.end(), e->first) != tasks.end())
            end.rank = e->first;
    }
    end.node = line.substr(error.size(), task - error.size());
    end.reason = line.substr(reason + 2);
    end.bySignal = !startsWith(end.reason, "Exited with exit code");
    if (!m_first && !m_stepEnding)
        m_first = end;
    else if (m_first && end.bySignal && end.rank != m_first->rank)
        m_signalledLater = end;
}

const std::string* LauncherReport::ownError(int rank) const
{
    const auto own = std::find_if(m_rankErrors.begin(), m_rankErrors.end(), [&](const auto& e) { return e.first == rank; });
    return own == m_rankErrors.end() ? nullptr : &own->second;
}

std::optional<protocol::ErrorReport> LauncherReport::firstFailure() const
{
    if (!m_cancelled.empty())
        return protocol::ErrorReport{"Slurm cancelled the run (" + m_cancelled + ")", std::nullopt, "", kExitCancelled};
    if (!m_first)
        return std::nullopt;
    const std::string* firstError = ownError(m_first->rank);
    const TaskEnd& failed = !m_first->bySignal && firstError && lostItsConnection(*firstError) && m_signalledLater
                                ? *m_signalledLater
                                : *m_first;
    if (failed.rank == 0 && !failed.bySignal)
        return std::nullopt;
    const std::string rank = "rank " + std::to_string(failed.rank);
    const std::string srun = "srun: \"task " + std::to_string(failed.rank) + ": " + failed.reason + "\" on " + failed.node;
    std::string message;
    const std::string* own = ownError(failed.rank);
    if (failed.bySignal)
        message = rank + " died without a word (" + srun + ")";
    else if (own)
        message = rank + " failed: " + *own;
    else
        message = rank + " failed (" + srun + ")";
    return protocol::ErrorReport{message, failed.rank, "", kExitRankFailed};
}

}  // namespace ddplab
