// SPDX-License-Identifier: GPL-3.0-or-later
#include "message_colors.hpp"

namespace ddplab::ui {

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor problemTextColor(const QPalette& palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x7b, 0x72) : QColor(0xc0, 0x39, 0x2b);
}

QColor noticeBackground(NoticeKind kind, bool dark)
{
    switch (kind) {
    case NoticeKind::Information: return dark ? QColor(0x1d, 0x3b, 0x57) : QColor(0xe3, 0xf0, 0xfb);
    case NoticeKind::Warning: return dark ? QColor(0x4d, 0x3a, 0x12) : QColor(0xfd, 0xf1, 0xd6);
    case NoticeKind::Error: return dark ? QColor(0x5a, 0x1f, 0x1d) : QColor(0xfb, 0xe3, 0xe1);
    }
    return QColor();
}

QColor noticeText(bool dark)
{
    return dark ? QColor(0xf0, 0xf0, 0xf0) : QColor(0x20, 0x20, 0x20);
}

}  // namespace ddplab::ui
