// SPDX-License-Identifier: GPL-3.0-or-later
// ddplab-render-icon: draws the lab's SVG icon as the PNGs a desktop's hicolor theme wants
// (16, 32, 48, 64, 128, 256 pixels square), at build time, so the PNGs never drift from the
// SVG and none is committed. A build tool only: the package installs its output, not it.
//
//   ddplab-render-icon SVG NAME OUTDIR SIZE...   writes OUTDIR/<SIZE>x<SIZE>/apps/NAME.png for each SIZE

#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextStream>

int main(int argc, char** argv)
{
    // No display at build time: the offscreen platform draws into memory.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication application(argc, argv);
    QTextStream err(stderr);
    const QStringList arguments = QGuiApplication::arguments();
    if (arguments.size() < 5) {
        err << "usage: ddplab-render-icon SVG NAME OUTDIR SIZE..." << Qt::endl;
        return 2;
    }
    QSvgRenderer renderer(arguments.at(1));
    if (!renderer.isValid()) {
        err << "ddplab-render-icon: cannot read " << arguments.at(1) << " as SVG" << Qt::endl;
        return 1;
    }
    const QString name = arguments.at(2);
    for (qsizetype i = 4; i < arguments.size(); ++i) {
        bool ok = false;
        const int size = arguments.at(i).toInt(&ok);
        if (!ok || size < 1 || size > 1024) {
            err << "ddplab-render-icon: not a size in pixels: " << arguments.at(i) << Qt::endl;
            return 2;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter);
        painter.end();
        const QString folder = QStringLiteral("%1/%2x%2/apps").arg(arguments.at(3)).arg(size);
        const QString file = QStringLiteral("%1/%2.png").arg(folder, name);
        if (!QDir().mkpath(folder) || !image.save(file, "PNG")) {
            err << "ddplab-render-icon: cannot write " << file << Qt::endl;
            return 1;
        }
    }
    return 0;
}
