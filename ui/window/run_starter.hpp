// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Starting runs from the window, and saying how each ended: Run (Setup's settings, once they
// pass the engine's checks), a lesson's runs, or any list of requests (with the charts and the
// x axis a lesson's point needs). Earlier runs leave the charts unless View → Keep Earlier Runs
// is on. A run that fails or is stopped says so in the notice bar, and a key the engine refused
// is marked in Setup. A study's runs are the Study page's to show and report.

#include "client/series/x_axis.hpp"

#include <QList>
#include <QObject>
#include <QSharedPointer>
#include <QStringList>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
class QTabWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartPage;
class ComparisonTable;
class LabSession;
class LessonLibrary;
class NoticeBar;
class ParameterPanel;
class RunData;
class RunListPanel;
class RunModel;
class StoredRuns;
struct RunRequest;

class RunStarter : public QObject {
    Q_OBJECT

public:
    struct Panes {
        ParameterPanel& parameters;
        NoticeBar& notice;
        RunListPanel& runList;
        ChartPage& charts;
        QTabWidget& pages;
        ComparisonTable& comparison;
        StoredRuns& storedRuns;
    };
    // `keepRuns`: the checkable View → Keep Earlier Runs; `showLesson`: the lesson's pane in sight.
    RunStarter(LabSession& session, RunModel& model, const LessonLibrary& lessons, const QAction& keepRuns, Panes panes,
               std::function<void(const QString& lessonId)> showLesson, QObject* parent = nullptr);

    void startRun();
    void startLesson(const QString& lessonId);
    void startSequence(const QList<RunRequest>& requests, const QStringList& chartMetrics = {},
                       std::optional<XAxis> xAxis = std::nullopt);

private:
    void onRunStarted(const QSharedPointer<RunData>& run);
    void onRunFinished(const QSharedPointer<RunData>& run);

    LabSession& m_session;
    RunModel& m_model;
    const LessonLibrary& m_lessons;
    const QAction& m_keepRuns;
    Panes m_panes;
    std::function<void(const QString&)> m_showLesson;
};

}  // namespace ddplab::ui
