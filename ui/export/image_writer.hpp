#pragma once
// One way to write a chart as an image, for every chart of the lab (the live run charts and the
// study charts): given a function that paints it into a rectangle and a size, a PNG or an SVG of
// exactly that size. Both check the size, and both write beside and rename: a failed write never
// leaves half a file where an earlier export was.

#include <QColor>
#include <QRect>
#include <QSize>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace ddplab::ui {

// How large an exported chart is, and its fonts and lines against the screen's.
struct ImageFormat {
    QSize size{1200, 800};
    double scale = 1.0;
};

using PaintFunction = std::function<void(QPainter& painter, const QRect& area)>;

// False (with `error`) outside 16 .. 16384 pixels a side.
bool validImageSize(QSize size, QString* error);

bool writePngImage(const QString& path, QSize size, const QColor& background, const PaintFunction& paint, QString* error);
// An SVG shown by browsers at `size` CSS pixels; `title` is its <title>.
bool writeSvgImage(const QString& path, QSize size, const QString& title, const PaintFunction& paint, QString* error);

}  // namespace ddplab::ui
