// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The colours of messages: a setting's problem in Setup and the status bar, the notice bar's
// kinds, the log's own lines, a caution in the study results. Each reads on light and dark
// backgrounds; where one colour cannot, it is chosen from the palette the widget has now, so a
// theme switch is followed.

#include <QColor>
#include <QPalette>

namespace ddplab::ui {

enum class NoticeKind { Information, Warning, Error };

// Whether `palette` is a dark one (its window darker than mid-grey).
bool isDarkPalette(const QPalette& palette);

// A setting that needs attention: its field's label and message in Setup, Run blocked in the
// status bar (lighter on a dark theme).
QColor problemTextColor(const QPalette& palette);

// A short refusal under a box that has no palette of its own to follow (the run target's
// status, the study's plan line), as a style sheet's `color`.
inline constexpr QRgb kRefusalTextRgb = 0xc62828;

// A caution among the study results' lines (HTML).
inline constexpr QRgb kCautionTextRgb = 0xb54a00;

// The notice bar: its background for each kind, and its text, on a dark window or a light one.
QColor noticeBackground(NoticeKind kind, bool dark);
QColor noticeText(bool dark);

// The log: the lab's warnings, and its other lines (the engine's own lines take the text colour).
inline constexpr QRgb kLogWarningRgb = 0xd64541;
inline constexpr QRgb kLogMessageRgb = 0x80868c;

}  // namespace ddplab::ui
