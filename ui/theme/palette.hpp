// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The colours the lab chooses for data: the lines runs are drawn in (on the live charts and the
// study charts), the metrics of one run, the marks and reference lines of study charts, the
// heatmap's scale, the sharding grid's marks and the colour of each run status. Messages take
// theirs from message_colors.hpp and the dark theme from dark_palette.hpp; other backgrounds and
// text follow the window's palette (QPalette).

#include "client/runs/run_status.hpp"

#include <QColor>

#include <array>
#include <cmath>

namespace ddplab::ui {

// Tableau 10: distinct hues that stay readable on light and dark backgrounds, one after the
// other: a run on the live charts, a line of a study chart.
inline constexpr std::array<QRgb, 10> kLinePalette{0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                                   0x8c564b, 0xe377c2, 0x17becf, 0xbcbd22, 0x7f7f7f};

// The colour of the line at `index`: Tableau's ten, then hues a golden angle apart at two
// lightnesses, so no two lines of a chart (a study's 35 runs) share one.
inline QColor lineColor(qsizetype index)
{
    if (index < qsizetype(kLinePalette.size()))
        return QColor(kLinePalette[size_t(index)]);
    constexpr double kGoldenAngle = 137.508;
    const qsizetype beyond = index - qsizetype(kLinePalette.size());
    const int hue = int(std::fmod(20.0 + double(beyond) * kGoldenAngle, 360.0));
    return QColor::fromHsv(hue, 200, beyond % 2 == 0 ? 170 : 220);
}

// One run, several metrics: the first keeps the run's colour, the others take these in turn
// (skipping the run's own), so that no two lines are told apart by dash pattern alone.
inline constexpr std::array<QRgb, 5> kMetricPalette{0xd62728, 0x2ca02c, 0x9467bd, 0xff7f0e, 0x1f77b4};

// Study charts: greys that stay behind the data's hues, and one warm mark.
inline constexpr QRgb kMeasuredMarkRgb = 0x606060;     // B_simple, measured from the runs
inline constexpr QRgb kExcessMarkRgb = 0xb05020;       // B*, where the excess reaches 20 %
inline constexpr QRgb kLinearRuleRgb = 0x808080;       // the linear rule's (slope 1) reference line
inline constexpr QRgb kSquareRootRuleRgb = 0xb0b0b0;   // the square-root rule's (slope ½)
inline constexpr QRgb kSafeRangeRgb = 0x2ca02c;        // the advisor's safe LR range, shaded faintly
inline constexpr QRgb kRecommendedMarkRgb = 0xd62728;  // the advisor's recommended LR

// Heatmaps: a cell without a finite value, the hatching over a diverged one, and the patch
// behind a rule line's name (dark under light text, light under dark text).
inline constexpr QRgb kNoValueRgb = 0x999999;
inline constexpr QRgb kDivergedHatchRgb = 0x555555;
inline constexpr QRgb kDarkPatchRgba = 0xa0000000;   // black at 160/255
inline constexpr QRgb kLightPatchRgba = 0xbeffffff;  // white at 190/255

// The sharding grid: a sample repeated to pad a rank's shard, and one dropped by drop_last.
inline constexpr QRgb kPaddingRgb = 0xe67e22;
inline constexpr QRgb kDroppedRgb = 0xd64541;
inline constexpr QRgb kCellBorderRgba = 0x3c000000;  // a plain cell's border: black at 60/255

// Saved images (the study and advice charts as PNG and SVG) are paper, whatever the window's
// theme: black ink on white, as they are printed and pasted into slides.
inline constexpr QRgb kPaperRgb = 0xffffff;
inline constexpr QRgb kInkRgb = 0x000000;

// Text written on a filled cell (a heatmap's value, a sample's index in the sharding grid): ink
// on a light fill, paper on a dark one, so that it reads on either end of a scale.
inline QColor textOn(const QColor& fill)
{
    return QColor(fill.lightnessF() > 0.55 ? kInkRgb : kPaperRgb);
}

// The sharding grid's colour of sample `sample` of `examples`: pale hues around the wheel, so
// neighbouring indices differ and any one sample is found again across ranks.
QColor sampleColor(int sample, int examples);

// Viridis, sampled: dark for t = 0, yellow for t = 1, readable in grey too.
QColor viridis(double t);

// A run's status in the Runs list (running blue, finished green, failed red, …).
QColor statusColor(RunStatus status);

}  // namespace ddplab::ui
