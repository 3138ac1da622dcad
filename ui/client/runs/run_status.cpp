// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_status.hpp"

#include <array>
#include <utility>

namespace ddplab::ui {
namespace {

constexpr std::array<std::pair<RunStatus, const char*>, 8> kStatusNames{{
    {RunStatus::Running, "running"},
    {RunStatus::Finished, "finished"},
    {RunStatus::Failed, "failed"},
    {RunStatus::Cancelled, "cancelled"},
    {RunStatus::Interrupted, "interrupted"},
    {RunStatus::Damaged, "damaged"},
    {RunStatus::Diverged, "diverged"},
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

QString statusLine(RunStatus status, qint64 divergedAtStep)
{
    if (status == RunStatus::Diverged && divergedAtStep >= 0)
        return QStringLiteral("%1 at step %2").arg(statusText(status)).arg(divergedAtStep);
    return statusText(status);
}

RunStatus statusNamed(const QString& text)
{
    for (const auto& [value, name] : kStatusNames) {
        if (text == QLatin1String(name))
            return value;
    }
    return RunStatus::Interrupted;
}

}  // namespace ddplab::ui
