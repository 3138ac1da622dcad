// SPDX-License-Identifier: GPL-3.0-or-later
#include "dark_palette.hpp"

namespace ddplab::ui {

QPalette darkPalette()
{
    QPalette palette;
    // Fusion outlines a check box in the window colour darkened: the fields (Base) must be
    // lighter than that outline, or an unticked box (Runs list, Drop last) is invisible.
    const QColor window(0x26, 0x28, 0x2c);
    const QColor base(0x34, 0x37, 0x3c);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabledText(0x80, 0x80, 0x80);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(0x3b, 0x3e, 0x44));
    palette.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, window);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    palette.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4e));
    palette.setColor(QPalette::Midlight, QColor(0x3a, 0x3d, 0x42));
    palette.setColor(QPalette::Mid, QColor(0x55, 0x58, 0x5e));
    palette.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1e));
    palette.setColor(QPalette::Shadow, QColor(0x10, 0x10, 0x12));
    palette.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xd8));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, disabledText);
    return palette;
}

}  // namespace ddplab::ui
