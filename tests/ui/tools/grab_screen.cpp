// SPDX-License-Identifier: GPL-3.0-or-later
// ddplab-grab-screen FILE.png [DELAY_MS]: saves what the X display shows (the whole screen of
// $DISPLAY) as a PNG. With Xvfb it photographs the real ddplab window for docs/screenshots:
//   xvfb-run -a -s "-screen 0 1600x1000x24" sh -c 'build/bin/ddplab ... & sleep 15;
//       build/bin/ddplab-grab-screen docs/screenshots/main-window.png; kill $!'

#include <QGuiApplication>
#include <QImage>
#include <QPixmap>
#include <QScreen>
#include <QTextStream>
#include <QThread>

int main(int argc, char* argv[])
{
    QGuiApplication application(argc, argv);
    QTextStream err(stderr);
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() < 2) {
        err << "usage: ddplab-grab-screen FILE.png [DELAY_MS]" << Qt::endl;
        return 2;
    }
    if (arguments.size() > 2)
        QThread::msleep(arguments.at(2).toULong());
    QScreen* screen = QGuiApplication::primaryScreen();
    const QImage image = screen ? screen->grabWindow(0).toImage() : QImage();
    if (image.isNull() || !image.save(arguments.at(1), "PNG")) {
        err << "ddplab-grab-screen: cannot grab the screen or write " << arguments.at(1) << Qt::endl;
        return 1;
    }
    return 0;
}
