#include "run_status.hpp"

#include "client/runs/run_data.hpp"
#include "client/wire.hpp"

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
    {RunStatus::Incomplete, "incomplete"},
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

std::optional<RunStatus> statusNamed(const QString& text)
{
    for (const auto& [value, name] : kStatusNames) {
        if (text == QLatin1String(name))
            return value;
    }
    return std::nullopt;
}

RunStatus settledStatus(RunStatus ended, const RunData& run, QString* reason)
{
    if (ended != RunStatus::Finished)
        return ended;
    const auto incomplete = [&](const QString& why) {
        if (reason)
            *reason = why;
        return RunStatus::Incomplete;
    };
    // A stream cut short (a copy, a disk, a hand) must not pass for the whole run: its figures
    // would be taken for the run's last ones.
    if (!run.hasSummary())
        return incomplete(QStringLiteral("its events end after step %1 without the summary a finished run ends with")
                              .arg(run.lastStep()));
    const qint64 summarySteps = run.summary().value(wire(field::kSteps)).toInteger(-1);
    if (summarySteps >= 0 && summarySteps != run.stepCount())
        return incomplete(QStringLiteral("its events hold %1 of the %2 steps its summary counts").arg(run.stepCount()).arg(summarySteps));
    if (run.record().steps > 0 && run.record().steps != run.stepCount())
        return incomplete(QStringLiteral("its events hold %1 steps, its record says %2").arg(run.stepCount()).arg(run.record().steps));
    return RunStatus::Finished;
}

}  // namespace ddplab::ui
