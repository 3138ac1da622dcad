// SPDX-License-Identifier: GPL-3.0-or-later
#include "help.hpp"

#include "client/engine/device_inventory.hpp"
#include "window/lab_actions.hpp"

#include <QMessageBox>

namespace ddplab::ui {

QString firstLessonId()
{
    return QStringLiteral("seed000-four-ways");
}

void showGettingStarted(QWidget* parent)
{
    QMessageBox box(parent);
    box.setWindowTitle(QObject::tr("Getting Started"));
    box.setTextFormat(Qt::RichText);
    box.setText(QObject::tr(
        "<h3>Getting started with DDP Lab</h3>"
        "<ol>"
        "<li><b>Press Run</b> (Ctrl+R). The first settings are seed 000's noisy neuron on 4 ranks, 1000 experiments "
        "at once: watch the loss fall, the update variance and the gradient noise scale draw their lines.</li>"
        "<li><b>Start with the lesson</b> <i>Lessons → seed 000 · One neuron, four ways to use 8 GPUs</i>, then "
        "<i>Run the Lesson</i> (Ctrl+L). It runs four configurations and overlays them; the Lesson pane says what "
        "to look for.</li>"
        "<li><b>Change one thing</b> in Setup (GPUs, batch per GPU, LR rule) and Run again with <i>View → Keep "
        "Earlier Runs on the Charts</i> on, to compare.</li>"
        "<li><b>Compare unlike batches</b> by samples seen or epochs: <i>X axis</i> above the charts.</li>"
        "<li><b>Teach</b> with <i>View → Presentation Mode</i> (F11); <b>take away</b> charts and CSVs with "
        "<i>File → Export</i> (Ctrl+E).</li>"
        "</ol>"));
    box.exec();
}

void showShortcuts(QWidget* parent, const LabActions& actions)
{
    QMessageBox::information(parent, QObject::tr("Keyboard and Mouse"), actions.shortcutHelpHtml());
}

void showAbout(QWidget* parent, const DeviceInventory& inventory, const QString& enginePath, const QString& runsFolder)
{
    const QString engine = inventory.isKnown() ? inventory.engineVersion() : QObject::tr("unknown (the engine did not answer)");
    const QString torch = inventory.isKnown() ? inventory.torchVersion() : QObject::tr("unknown");
    QMessageBox::about(parent, QObject::tr("About DDP Lab"),
                       QObject::tr("<h3>DDP Lab %1</h3>"
                                   "<p>A desktop laboratory for data-parallel training: real multi-process DDP runs "
                                   "(NCCL between GPUs, Gloo between CPU processes), plotted live.</p>"
                                   "<table>"
                                   "<tr><td>DDP Lab</td><td>%1</td></tr>"
                                   "<tr><td>Qt</td><td>%2 (built with %3)</td></tr>"
                                   "<tr><td>Engine</td><td>%4</td></tr>"
                                   "<tr><td>LibTorch</td><td>%5</td></tr>"
                                   "<tr><td>Devices</td><td>%6</td></tr>"
                                   "</table>"
                                   "<p>Engine: <code>%7</code><br>Runs: <code>%8</code></p>")
                           .arg(QStringLiteral(DDPLAB_VERSION), QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
                                engine, torch, inventory.shortDescription(), enginePath.toHtmlEscaped(),
                                runsFolder.toHtmlEscaped()));
}

}  // namespace ddplab::ui
