// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_legend.hpp"

#include "charts/run_model.hpp"
#include "client/runs/run_data.hpp"

namespace ddplab::ui {

RunLegend::RunLegend(RunModel& model, QWidget* parent)
    : QLabel(parent)
    , m_model(model)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    connect(&m_model, &RunModel::runsChanged, this, &RunLegend::refresh);
    refresh();
}

void RunLegend::refresh()
{
    QStringList entries;
    for (const DisplayedRun& run : m_model.runs()) {
        entries.append(QStringLiteral("<span style='color:%1; font-size:large'>■</span>&nbsp;%2")
                           .arg(run.color.name(), run.label.toHtmlEscaped()));
    }
    setText(entries.join(QStringLiteral("&nbsp;&nbsp;&nbsp; ")));
    setVisible(!entries.isEmpty());
}

}  // namespace ddplab::ui
