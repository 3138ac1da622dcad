// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One way to write a chart as an image, for every chart of the lab (the live run charts, the
// study charts and the advice's): given a function that paints it into a rectangle and a size, a PNG or an SVG of
// exactly that size. Both check the size, and both write beside and rename: a failed write never
// leaves half a file where an earlier export was.

#include <QColor>
#include <QRect>
#include <QSize>
#include <QString>

#include <functional>
#include <utility>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace ddplab::ui {

// A slide's words: 30 pixels high on a 1080-pixel image (and in proportion on others), so that a
// 720p projector still shows 20.
constexpr double kSlideTextPixels = 30.0;

// How large an exported chart is, and its fonts and lines against the screen's.
struct ImageFormat {
    ImageFormat() = default;
    ImageFormat(QSize imageSize, double lineScale = 1.0, bool forSlide = false, QString slideTitle = QString())
        : size(imageSize), scale(lineScale), slide(forSlide), title(std::move(slideTitle))
    {
    }

    QSize size{1200, 800};
    double scale = 1.0;  // lines (and, for a screen image, fonts) against the screen's
    // A slide: every word sized against the image's height, not the screen's font
    // (kSlideTextPixels), with `title` (the lesson's or the study's) above the chart and the
    // runs' settings below it.
    bool slide = false;
    QString title;
};

using PaintFunction = std::function<void(QPainter& painter, const QRect& area)>;

// False (with `error`) outside 16 .. 16384 pixels a side.
bool validImageSize(QSize size, QString* error);

bool writePngImage(const QString& path, QSize size, const QColor& background, const PaintFunction& paint, QString* error);
// An SVG shown by browsers at `size` CSS pixels; `title` is its <title>.
bool writeSvgImage(const QString& path, QSize size, const QString& title, const PaintFunction& paint, QString* error);

}  // namespace ddplab::ui
