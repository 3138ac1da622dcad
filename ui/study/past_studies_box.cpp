// SPDX-License-Identifier: GPL-3.0-or-later
#include "past_studies_box.hpp"

#include "client/runs/run_store.hpp"
#include "client/study/study_store.hpp"

#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

constexpr int kIdRole = Qt::UserRole;
constexpr int kRunsLeftRole = Qt::UserRole + 1;  // points without a finished run

}  // namespace

PastStudiesBox::PastStudiesBox(const RunStore& runs, const StudyStore& studies, QWidget* parent)
    : QGroupBox(tr("Studies run before"), parent), m_runs(runs), m_studies(studies)
{
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("pastStudies"));
    m_list->setMinimumHeight(80);
    m_show = new QPushButton(tr("Show"));
    m_show->setToolTip(tr("The study's charts and settings, as it ran"));
    m_resume = new QPushButton(tr("Resume"));
    m_resume->setObjectName(QStringLiteral("resumeStudy"));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_show);
    buttons->addWidget(m_resume);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);

    const auto showChosen = [this] {
        if (!chosenId().isEmpty())
            emit showRequested(chosenId());
    };
    connect(m_show, &QPushButton::clicked, this, showChosen);
    connect(m_list, &QListWidget::itemDoubleClicked, this, showChosen);
    connect(m_resume, &QPushButton::clicked, this, [this] {
        if (!chosenId().isEmpty())
            emit resumeRequested(chosenId());
    });
    connect(m_list, &QListWidget::currentRowChanged, this, &PastStudiesBox::updateResume);
}

void PastStudiesBox::refresh(const QString& preferred)
{
    const QString selected = preferred.isEmpty() ? chosenId() : preferred;
    const QList<RunRecord> runs = m_runs.listRuns();
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const StoredStudy& study : m_studies.list()) {
        const qsizetype left = StudyStore::pointsToRun(study, runs).size();
        const QString state = left == 0 ? tr("all %1 runs done").arg(study.points.size())
                                        : tr("%1 of %2 runs done").arg(study.points.size() - left).arg(study.points.size());
        auto* item = new QListWidgetItem(tr("%1 — %2 · %3").arg(study.title(), study.created.toString(QStringLiteral("yyyy-MM-dd HH:mm")), state));
        item->setData(kIdRole, study.id);
        item->setData(kRunsLeftRole, int(left));
        item->setToolTip(study.directory);
        m_list->addItem(item);
        if (study.id == selected)
            m_list->setCurrentItem(item);
    }
    if (!m_list->currentItem() && m_list->count() > 0)
        m_list->setCurrentRow(0);
    updateResume();
}

void PastStudiesBox::choose(const QString& studyId)
{
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->data(kIdRole).toString() == studyId)
            m_list->setCurrentRow(row);
    }
}

QString PastStudiesBox::chosenId() const
{
    return m_list->currentItem() ? m_list->currentItem()->data(kIdRole).toString() : QString();
}

void PastStudiesBox::setSessionBusy(bool busy)
{
    m_busy = busy;
    updateResume();
}

void PastStudiesBox::updateResume()
{
    const QListWidgetItem* chosen = m_list->currentItem();
    const int left = chosen ? chosen->data(kRunsLeftRole).toInt() : 0;
    m_show->setEnabled(chosen != nullptr);
    m_resume->setEnabled(!m_busy && left > 0);
    if (!chosen)
        m_resume->setToolTip(tr("No study has run yet"));
    else if (left == 0)
        m_resume->setToolTip(tr("Every run of this study is done: nothing to resume"));
    else
        m_resume->setToolTip(tr("Runs the %1 of its points without a finished run (a half-finished one runs again)").arg(left));
}

}  // namespace ddplab::ui
