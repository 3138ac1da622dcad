// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_model.hpp"

#include "theme/palette.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_names.hpp"
#include "client/session/lab_session.hpp"

#include <algorithm>

namespace ddplab::ui {

RunModel::RunModel(QObject* parent)
    : QObject(parent)
{
}

void RunModel::follow(const LabSession& session)
{
    connect(&session, &LabSession::runStarted, this, [this](int, const QSharedPointer<RunData>& run) {
        if (!run->record().belongsToStudy())
            addRun(run);
    });
    connect(&session, &LabSession::runUpdated, this, [this](const QSharedPointer<RunData>& run) { notifyDataAppended(run->id()); });
    connect(&session, &LabSession::runFinished, this, [this](int, const QSharedPointer<RunData>& run) {
        if (!run->record().belongsToStudy())
            notifyLabelsChanged();  // its config arrived: names that tell runs apart may change
    });
}

bool RunModel::contains(const QString& runId) const
{
    return std::any_of(m_runs.begin(), m_runs.end(), [&](const DisplayedRun& run) { return run.data->id() == runId; });
}

void RunModel::addRun(const QSharedPointer<RunData>& run)
{
    for (DisplayedRun& shown : m_runs) {
        if (shown.data->id() == run->id()) {
            shown.data = run;
            relabel();
            emit runsChanged();
            return;
        }
    }
    // In the order the runs were started: a run ticked again goes back to its place, so legends
    // and lines keep their order.
    const auto later = std::find_if(m_runs.begin(), m_runs.end(), [&](const DisplayedRun& shown) {
        return shown.data->record().started > run->record().started;
    });
    m_runs.insert(later, {run, unusedColor(), run->label()});
    relabel();
    emit runsChanged();
}

void RunModel::removeRun(const QString& runId)
{
    const auto removed = m_runs.removeIf([&](const DisplayedRun& run) { return run.data->id() == runId; });
    if (removed > 0) {
        relabel();
        emit runsChanged();
    }
}

void RunModel::clear()
{
    if (m_runs.isEmpty())
        return;
    m_runs.clear();
    emit runsChanged();
}

void RunModel::notifyDataAppended(const QString& runId)
{
    emit dataAppended(runId);
}

void RunModel::notifyLabelsChanged()
{
    relabel();
    emit runsChanged();
}

void RunModel::relabel()
{
    QList<const RunData*> runs;
    for (const DisplayedRun& run : m_runs)
        runs.append(run.data.data());
    const QStringList labels = distinguishingLabels(runs);
    for (qsizetype i = 0; i < m_runs.size(); ++i)
        m_runs[i].label = labels.at(i);
}

QColor RunModel::unusedColor() const
{
    for (const QRgb rgb : kLinePalette) {
        const QColor candidate(rgb);
        const bool used = std::any_of(m_runs.begin(), m_runs.end(), [&](const DisplayedRun& run) { return run.color == candidate; });
        if (!used)
            return candidate;
    }
    // More runs than Tableau's ten: the next colour no run on display has.
    for (qsizetype index = qsizetype(kLinePalette.size());; ++index) {
        const QColor candidate = lineColor(index);
        const bool used = std::any_of(m_runs.begin(), m_runs.end(), [&](const DisplayedRun& run) { return run.color == candidate; });
        if (!used)
            return candidate;
    }
}

}  // namespace ddplab::ui
