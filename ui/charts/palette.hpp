#pragma once
// The colours lines are drawn in, one after the other: a run on the live charts, a line of a
// study chart. Tableau 10: distinct hues that stay readable on light and dark backgrounds.

#include <QColor>

#include <array>

namespace ddplab::ui {

inline constexpr std::array<QRgb, 10> kLinePalette{0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                                   0x8c564b, 0xe377c2, 0x17becf, 0xbcbd22, 0x7f7f7f};

// The colour of the line at `index`: hues repeat after the tenth.
inline QColor lineColor(qsizetype index)
{
    return QColor(kLinePalette[size_t(index) % kLinePalette.size()]);
}

}  // namespace ddplab::ui
