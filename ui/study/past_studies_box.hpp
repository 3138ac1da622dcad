// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Study page's "Studies run before": each study in the studies folder with how many of its
// runs are done, newest first. One is always chosen when there is one (the one the page shows,
// else the newest), so Resume says at once whether something is left to run: enabled while the
// chosen study has points without a finished run, disabled once they are all done.

#include <QGroupBox>

QT_BEGIN_NAMESPACE
class QListWidget;
class QPushButton;
QT_END_NAMESPACE

namespace ddplab::ui {

class RunStore;
class StudyStore;

class PastStudiesBox : public QGroupBox {
    Q_OBJECT

public:
    PastStudiesBox(const RunStore& runs, const StudyStore& studies, QWidget* parent = nullptr);

    // Reads the studies folder again and chooses `preferred` (the study the page shows), else
    // the one chosen before, else the newest.
    void refresh(const QString& preferred = QString());
    void choose(const QString& studyId);
    QString chosenId() const;
    // While the session runs something, nothing resumes.
    void setSessionBusy(bool busy);

signals:
    void showRequested(const QString& studyId);
    void resumeRequested(const QString& studyId);

private:
    void updateResume();

    const RunStore& m_runs;
    const StudyStore& m_studies;
    QListWidget* m_list = nullptr;
    QPushButton* m_show = nullptr;
    QPushButton* m_resume = nullptr;
    bool m_busy = false;
};

}  // namespace ddplab::ui
