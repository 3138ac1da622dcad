// MainWindow, continued: the panes it is made of (the tabs in the middle, the docks around
// them and the status bar), built once by the constructor.

#include "window/main_window.hpp"

#include "charts/chart_grid.hpp"
#include "client/engine/model_inspector.hpp"
#include "client/session/lab_session.hpp"
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
#include "window/status_area.hpp"

#include <QAction>
#include <QDockWidget>
#include <QGroupBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ddplab::ui {

QWidget* MainWindow::createCentralArea()
{
    m_notice = new NoticeBar;
    m_chartPage = new ChartPage(m_model, m_actions->resetViews);
    m_sharding = new ShardingView;
    m_comparison = new ComparisonTable(m_model);
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_chartPage, tr("Charts"));
    m_tabs->addTab(m_sharding, tr("Sharding"));
    m_tabs->addTab(m_comparison, tr("Compare"));
    // Settings come from the Setup pane only when asked for, so it may be built after this.
    m_studyPage = new StudyPage(m_store, *m_session, [this] { return m_parameters->values(); });
    m_tabs->addTab(m_studyPage, tr("Study"));
    for (int page = 0; page < m_tabs->count(); ++page)
        m_tabs->setTabToolTip(page, m_actions->pages.at(page)->shortcut().toString(QKeySequence::NativeText));

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(4);
    layout->addWidget(m_notice);
    layout->addWidget(m_tabs, 1);
    return central;
}

void MainWindow::createDocks()
{
    m_parameters = new ParameterPanel;
    m_derived = new DerivedPanel;
    auto* derivedBox = new QGroupBox(tr("What the engine will do"));
    auto* derivedLayout = new QVBoxLayout(derivedBox);
    derivedLayout->setContentsMargins(0, 4, 0, 0);
    // Scrolled, so wrapped values get the height they need however short the screen.
    auto* derivedScroll = new QScrollArea;
    derivedScroll->setWidget(m_derived);
    derivedScroll->setWidgetResizable(true);
    derivedScroll->setFrameShape(QFrame::NoFrame);
    derivedScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    derivedLayout->addWidget(derivedScroll);
    // Where runs go, above what they are: every run, lesson and study follows it.
    m_runTarget = new RunTargetBox(m_enginePath);
    m_inspector = new ModelInspector(m_enginePath, this);
    connect(m_runTarget, &RunTargetBox::targetChanged, this, [this](const EngineTarget& target) {
        m_session->setTarget(target);
        m_inspector->setTarget(target);
        m_log->appendMessage(tr("Runs go to %1").arg(target.describe()));
    });
    auto* parameters = new QWidget;
    auto* parametersLayout = new QVBoxLayout(parameters);
    parametersLayout->setContentsMargins(0, 0, 0, 0);
    parametersLayout->setSpacing(0);
    parametersLayout->addWidget(m_runTarget);
    parametersLayout->addWidget(m_parameters, 1);
    auto* setup = new QSplitter(Qt::Vertical);
    setup->setObjectName(QStringLiteral("setupSplitter"));
    setup->addWidget(parameters);
    setup->addWidget(derivedBox);
    setup->setStretchFactor(0, 2);
    setup->setStretchFactor(1, 1);
    setup->setSizes({660, 340});  // scaled to the dock: the settings keep the larger share
    setup->setChildrenCollapsible(false);

    const auto dock = [this](const QString& title, const char* name, QWidget* content, Qt::DockWidgetArea area) {
        auto* widget = new QDockWidget(title, this);
        widget->setObjectName(QString::fromLatin1(name));
        widget->setWidget(content);
        widget->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetFloatable);
        addDockWidget(area, widget);
        return widget;
    };
    m_setupDock = dock(tr("Setup"), "setupDock", setup, Qt::LeftDockWidgetArea);
    m_lessonPanel = new LessonPanel(m_lessons);
    m_lessonDock = dock(tr("Lesson"), "lessonDock", m_lessonPanel, Qt::RightDockWidgetArea);
    m_runList = new RunListPanel;
    m_runsDock = dock(tr("Runs"), "runsDock", m_runList, Qt::RightDockWidgetArea);
    m_log = new LogPanel;
    m_logDock = dock(tr("Log"), "logDock", m_log, Qt::BottomDockWidgetArea);
    // The side panes run down to the status bar, the Log lies under the middle only: on a
    // 720-pixel screen Setup's fields and the lesson's text get the height a full-width Log took.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
}

void MainWindow::createStatusBar()
{
    m_status = new StatusArea(*statusBar(), *m_session, m_inventory, m_model);
}

}  // namespace ddplab::ui
