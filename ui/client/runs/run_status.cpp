#include "run_status.hpp"

#include "client/runs/run_data.hpp"

#include <array>
#include <utility>

namespace ddplab::ui {
namespace {

constexpr std::array<std::pair<RunStatus, const char*>, 7> kStatusNames{{
    {RunStatus::Running, "running"},
    {RunStatus::Finished, "finished"},
    {RunStatus::Failed, "failed"},
    {RunStatus::Cancelled, "cancelled"},
    {RunStatus::Interrupted, "interrupted"},
    {RunStatus::Damaged, "damaged"},
    {RunStatus::Diverged, "diverged"},
}};

}  // namespace

QString statusText(RunStatus status)
{
    for (const auto& [value, name] : kStatusNames) {
        if (value == status)
            return QString::fromLatin1(name);
    }
    return QStringLiteral("running");
}

RunStatus statusNamed(const QString& text)
{
    for (const auto& [value, name] : kStatusNames) {
        if (text == QLatin1String(name))
            return value;
    }
    return RunStatus::Interrupted;
}

RunStatus settledStatus(RunStatus ended, const RunData& run)
{
    if (ended == RunStatus::Finished && run.divergence())
        return RunStatus::Diverged;
    return ended;
}

void settleStatus(RunData& run, RunStatus ended)
{
    RunRecord& record = run.record();
    record.status = settledStatus(ended, run);
    if (record.status == RunStatus::Diverged && run.divergence()) {
        record.divergedAtStep = run.divergence()->step;
        record.error = run.divergence()->describe();
    }
}

}  // namespace ddplab::ui
