// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_panes.hpp"

#include "client/engine/model_inspector.hpp"
#include "lessons/lesson_panel.hpp"
#include "runs/comparison_table.hpp"
#include "runs/run_list_panel.hpp"
#include "setup/derived_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "setup/run_target_box.hpp"
#include "sharding/sharding_view.hpp"
#include "study/study_page.hpp"
#include "window/chart_page.hpp"
#include "window/lab_actions.hpp"
#include "window/log_panel.hpp"
#include "window/notice_bar.hpp"

#include <QAction>
#include <QDockWidget>
#include <QGroupBox>
#include <QMainWindow>
#include <QObject>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

QWidget* buildCentralArea(WindowPanes& panes, const PaneSources& sources)
{
    panes.notice = new NoticeBar;
    panes.chartPage = new ChartPage(sources.model, sources.actions.resetViews);
    panes.sharding = new ShardingView;
    panes.comparison = new ComparisonTable(sources.model);
    panes.tabs = new QTabWidget;
    panes.tabs->setDocumentMode(true);
    panes.tabs->addTab(panes.chartPage, QObject::tr("Charts"));
    panes.tabs->addTab(panes.sharding, QObject::tr("Sharding"));
    panes.tabs->addTab(panes.comparison, QObject::tr("Compare"));
    panes.studyPage = new StudyPage(sources.store, sources.session, sources.setupSettings);
    panes.tabs->addTab(panes.studyPage, QObject::tr("Study"));
    for (int page = 0; page < panes.tabs->count(); ++page)
        panes.tabs->setTabToolTip(page, sources.actions.pages.at(page)->shortcut().toString(QKeySequence::NativeText));

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(4);
    layout->addWidget(panes.notice);
    layout->addWidget(panes.tabs, 1);
    return central;
}

QWidget* buildSetup(WindowPanes& panes, QMainWindow& window, const PaneSources& sources)
{
    panes.parameters = new ParameterPanel;
    panes.derived = new DerivedPanel;
    auto* derivedBox = new QGroupBox(QObject::tr("What the engine will do"));
    auto* derivedLayout = new QVBoxLayout(derivedBox);
    derivedLayout->setContentsMargins(0, 4, 0, 0);
    // Scrolled, so wrapped values get the height they need however short the screen.
    auto* derivedScroll = new QScrollArea;
    derivedScroll->setWidget(panes.derived);
    derivedScroll->setWidgetResizable(true);
    derivedScroll->setFrameShape(QFrame::NoFrame);
    derivedScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    derivedLayout->addWidget(derivedScroll);
    // Where runs go, above what they are: every run, lesson and study follows it.
    panes.runTarget = new RunTargetBox(sources.enginePath);
    panes.inspector = new ModelInspector(sources.enginePath, &window);
    auto* parameters = new QWidget;
    auto* parametersLayout = new QVBoxLayout(parameters);
    parametersLayout->setContentsMargins(0, 0, 0, 0);
    parametersLayout->setSpacing(0);
    parametersLayout->addWidget(panes.runTarget);
    parametersLayout->addWidget(panes.parameters, 1);
    auto* setup = new QSplitter(Qt::Vertical);
    setup->setObjectName(QStringLiteral("setupSplitter"));
    setup->addWidget(parameters);
    setup->addWidget(derivedBox);
    setup->setStretchFactor(0, 2);
    setup->setStretchFactor(1, 1);
    setup->setSizes({660, 340});  // scaled to the dock: the settings keep the larger share
    setup->setChildrenCollapsible(false);
    return setup;
}

}  // namespace

WindowPanes buildWindowPanes(QMainWindow& window, const PaneSources& sources)
{
    WindowPanes panes;
    window.setCentralWidget(buildCentralArea(panes, sources));
    QWidget* setup = buildSetup(panes, window, sources);

    const auto dock = [&window](const QString& title, const char* name, QWidget* content, Qt::DockWidgetArea area) {
        auto* widget = new QDockWidget(title, &window);
        widget->setObjectName(QString::fromLatin1(name));
        widget->setWidget(content);
        widget->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetFloatable);
        window.addDockWidget(area, widget);
        return widget;
    };
    panes.setupDock = dock(QObject::tr("Setup"), "setupDock", setup, Qt::LeftDockWidgetArea);
    panes.lessonPanel = new LessonPanel(sources.lessons);
    panes.lessonDock = dock(QObject::tr("Lesson"), "lessonDock", panes.lessonPanel, Qt::RightDockWidgetArea);
    panes.runList = new RunListPanel;
    panes.runsDock = dock(QObject::tr("Runs"), "runsDock", panes.runList, Qt::RightDockWidgetArea);
    panes.log = new LogPanel;
    panes.logDock = dock(QObject::tr("Log"), "logDock", panes.log, Qt::BottomDockWidgetArea);
    // The side panes run down to the status bar, the Log lies under the middle only: on a
    // 720-pixel screen Setup's fields and the lesson's text get the height a full-width Log took.
    window.setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window.setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    return panes;
}

}  // namespace ddplab::ui
