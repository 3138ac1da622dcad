// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_writer.hpp"

#include "client/io/save_file.hpp"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace ddplab::ui {
namespace {

constexpr int kMinSide = 16;
constexpr int kMaxSide = 16384;  // larger images stop fitting in memory comfortably
constexpr int kCssPixelsPerInch = 96;

}  // namespace

bool validImageSize(QSize size, QString* error)
{
    if (size.width() >= kMinSide && size.height() >= kMinSide && size.width() <= kMaxSide && size.height() <= kMaxSide)
        return true;
    if (error)
        *error = QStringLiteral("An image must be between %1 and %2 pixels on each side (asked for %3 × %4).")
                     .arg(kMinSide)
                     .arg(kMaxSide)
                     .arg(size.width())
                     .arg(size.height());
    return false;
}

bool writePngImage(const QString& path, QSize size, const QColor& background, const PaintFunction& paint, QString* error)
{
    if (!validImageSize(size, error))
        return false;
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(background);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        paint(painter, QRect(QPoint(0, 0), size));
    }
    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) {
        if (error)
            *error = QStringLiteral("Cannot encode the image %1 as PNG").arg(path);
        return false;
    }
    return writeFileAtomically(path, png, error);
}

bool writeSvgImage(const QString& path, QSize size, const QString& title, const PaintFunction& paint, QString* error)
{
    if (!validImageSize(size, error))
        return false;
    QByteArray svg;
    QBuffer buffer(&svg);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(kCssPixelsPerInch);  // browsers then show it at `size` CSS pixels
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("DDP Lab chart"));
    QPainter painter;
    if (!painter.begin(&generator)) {
        if (error)
            *error = QStringLiteral("Cannot draw the SVG file %1").arg(path);
        return false;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    paint(painter, QRect(QPoint(0, 0), size));
    painter.end();
    return writeFileAtomically(path, svg, error);
}

}  // namespace ddplab::ui
