// SPDX-License-Identifier: GPL-3.0-or-later
// The window during a study: a MainWindow (offscreen) runs a built-in study from its Study page
// while a 5 ms timer measures how late the event loop comes back. Prints one Markdown table row:
// the study, its runs, its wall time, and the event loop's gaps (median, 99th percentile, worst,
// and how many exceeded 100 ms). Run by bench/ui_study_bench.py.

#include "client/session/lab_identity.hpp"
#include "study/study_page.hpp"
#include "window/main_window.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QTimer>

#include <algorithm>

int main(int argc, char* argv[])
{
    QApplication application(argc, argv);
    ddplab::ui::setLabIdentity();
    const QString study = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("seed000-variance-curve");
    QTextStream out(stdout);
    ddplab::ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    ddplab::ui::StudyPage* page = window.studyPage();
    QString error;
    if (!page->chooseStudy(study, &error)) {
        out << "cannot choose " << study << ": " << error << Qt::endl;
        return 2;
    }

    QList<double> gapsMs;
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setInterval(5);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        if (sinceTick.isValid())
            gapsMs.append(double(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
    });
    QElapsedTimer wall;
    QObject::connect(page, &ddplab::ui::StudyPage::studyEnded, [&] {
        QTimer::singleShot(200, &application, &QApplication::quit);  // the last redraw included
    });
    QTimer::singleShot(1000, [&] {  // once the window is up and the devices are known
        wall.start();
        ticker.start();
        if (!page->runStudy(true)) {
            out << "the study did not start: " << page->planText() << Qt::endl;
            application.exit(2);
        }
    });
    const int code = application.exec();
    if (code != 0 || gapsMs.isEmpty())
        return code == 0 ? 1 : code;
    std::sort(gapsMs.begin(), gapsMs.end());
    const auto at = [&](double share) { return gapsMs.at(std::min<qsizetype>(gapsMs.size() - 1, qsizetype(share * gapsMs.size()))); };
    const qsizetype over = std::count_if(gapsMs.begin(), gapsMs.end(), [](double gap) { return gap > 100.0; });
    out << "| " << study << " | " << page->currentStudy()->points.size() << " | " << QString::number(wall.elapsed() / 1000.0, 'f', 1)
        << " | " << QString::number(at(0.5), 'f', 1) << " | " << QString::number(at(0.99), 'f', 1) << " | "
        << QString::number(gapsMs.last(), 'f', 1) << " | " << over << " |" << Qt::endl;
    return 0;
}
