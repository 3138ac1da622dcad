// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab_actions.hpp"

#include "charts/chart_gestures.hpp"

#include <QAction>
#include <QIcon>
#include <QKeySequence>

namespace ddplab::ui {
namespace {

QIcon icon(const char* name)
{
    return QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name)));
}

QAction* make(QObject* owner, const QString& text, const QList<QKeySequence>& shortcuts, const QString& tip = QString(),
              const char* iconName = nullptr)
{
    auto* action = iconName ? new QAction(icon(iconName), text, owner) : new QAction(text, owner);
    action->setShortcuts(shortcuts);
    if (!tip.isEmpty())
        action->setToolTip(tip);
    return action;
}

QString plain(QString text)
{
    return text.remove(QLatin1Char('&')).remove(QStringLiteral("…"));
}

}  // namespace

LabActions::LabActions(QObject* owner)
{
    using Keys = QList<QKeySequence>;
    run = make(owner, QObject::tr("&Run"), Keys{Qt::CTRL | Qt::Key_R, Qt::Key_F5},
               QObject::tr("Run with the settings on the left (Ctrl+R)"), "run");
    stop = make(owner, QObject::tr("&Stop"), Keys{Qt::CTRL | Qt::Key_Period, Qt::SHIFT | Qt::Key_F5},
                QObject::tr("Stop the run: the engine stops every rank (Ctrl+.)"), "stop");
    runLesson = make(owner, QObject::tr("Run the &Lesson"), Keys{Qt::CTRL | Qt::Key_L},
                     QObject::tr("Run every run of the selected lesson and overlay them (Ctrl+L)"), "lesson");
    openPreset = make(owner, QObject::tr("&Open Preset…"), QKeySequence::keyBindings(QKeySequence::Open),
                      QObject::tr("Load settings from a preset file (an engine config JSON)"), "open");
    savePreset = make(owner, QObject::tr("&Save Settings as Preset…"), QKeySequence::keyBindings(QKeySequence::Save),
                      QObject::tr("Save the settings as a preset (ddplab-engine run --config FILE runs it)"), "save");
    copyScript = make(owner, QObject::tr("Copy Settings as &PyTorch Script"), {},
                      QObject::tr("The settings as a PyTorch DDP script for torchrun that trains the same losses "
                                  "(docs/pytorch-script.md), on the clipboard"));
    exportAll = make(owner, QObject::tr("&Export Charts and CSVs…"), Keys{Qt::CTRL | Qt::Key_E},
                     QObject::tr("Every chart as PNG and SVG (screen or slide size), and every displayed run's metrics as "
                                 "CSV, into a folder (Ctrl+E)"),
                     "export");
    exportCsv = make(owner, QObject::tr("Export Run Metrics as &CSV…"), Keys{Qt::CTRL | Qt::SHIFT | Qt::Key_E});
    exportTensorBoard = make(owner, QObject::tr("Export Runs to &TensorBoard…"), {},
                             QObject::tr("The runs selected in the Runs list (none: every stored run) as TensorBoard runs, a study's "
                                         "with its hyperparameters, into a folder for tensorboard --logdir"));
    streamTensorBoard = make(owner, QObject::tr("&Write TensorBoard Files During Runs"), {});
    streamTensorBoard->setCheckable(true);
    quit = make(owner, QObject::tr("&Quit"), QKeySequence::keyBindings(QKeySequence::Quit));
    keepRuns = make(owner, QObject::tr("&Keep Earlier Runs on the Charts"), {},
                    QObject::tr("A new run is added to the charts instead of replacing what they show"));
    keepRuns->setCheckable(true);
    openGl = make(owner, QObject::tr("Draw Charts with &OpenGL"), {});
    openGl->setCheckable(true);
    resetViews = make(owner, QObject::tr("&Reset All Chart Views"), Keys{Qt::CTRL | Qt::Key_0},
                      QObject::tr("Fit every chart to its data (Ctrl+0)"), "fit");
    const QStringList pageNames{QObject::tr("&Charts"), QObject::tr("S&harding"), QObject::tr("C&ompare"), QObject::tr("St&udy"), QObject::tr("Ad&vise")};
    for (qsizetype i = 0; i < pageNames.size(); ++i)
        pages.append(make(owner, QObject::tr("Show %1").arg(pageNames.at(i)), Keys{QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i))}));
    presentation = make(owner, QObject::tr("&Presentation Mode"), Keys{Qt::Key_F11, Qt::CTRL | Qt::SHIFT | Qt::Key_P},
                        QObject::tr("For a class: large fonts and lines, one chart large with the others beside it, "
                                    "Setup and Log out of the way (F11; Esc leaves)"));
    presentation->setCheckable(true);
    leavePresentation = make(owner, QObject::tr("Leave Presentation Mode"), Keys{Qt::Key_Escape});
    predictFirst = make(owner, QObject::tr("P&redict First"), {},
                        QObject::tr("For a class: a lesson's charts and what to look for stay hidden under its question "
                                    "until the class has guessed; F9 reveals them"));
    predictFirst->setCheckable(true);
    reveal = make(owner, QObject::tr("Re&veal the Outcome"), Keys{Qt::Key_F9},
                  QObject::tr("Show the lesson's charts and what to look for (F9)"));
    reveal->setEnabled(false);
    gettingStarted = make(owner, QObject::tr("&Getting Started"), {});
    shortcuts = make(owner, QObject::tr("&Keyboard and Mouse"), QKeySequence::keyBindings(QKeySequence::HelpContents));
    about = make(owner, QObject::tr("&About DDP Lab"), {});
}

QList<QAction*> LabActions::all() const
{
    return QList<QAction*>{run,        stop,         runLesson,         openPreset,     savePreset, exportAll, exportCsv,
                           resetViews, presentation, leavePresentation, reveal, gettingStarted, shortcuts, about, quit} +
           pages;
}

QString LabActions::shortcutHelpHtml() const
{
    QString rows;
    for (const QAction* action : all()) {
        if (action->shortcuts().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence& sequence : action->shortcuts())
            keys.append(sequence.toString(QKeySequence::NativeText).toHtmlEscaped());
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(keys.join(QStringLiteral(", ")), plain(action->text()).toHtmlEscaped());
    }
    for (const auto& [gesture, effect] : chartGestures())
        rows += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(gesture.toHtmlEscaped(), effect.toHtmlEscaped());
    rows += QStringLiteral("<tr><td>F2 / Delete</td><td>%1</td></tr>").arg(QObject::tr("Rename / delete the selected runs"));
    return QStringLiteral("<table cellspacing='4'>%1</table>").arg(rows);
}

}  // namespace ddplab::ui
