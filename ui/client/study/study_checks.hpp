// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The sanity checks a study's findings carry beside their numbers, in words: each says what
// makes a figure less than it looks, and what would settle it. An empty text: nothing to say.
// A finding without its check misleads: "the best LR grows as batch^0" read as a law when the
// best LR was simply the top of the grid everywhere.

#include "client/study/study_results.hpp"

#include <QString>

namespace ddplab::ui {

// While a study's runs are still missing: its figures are provisional.
QString provisionalNote(int ended, int planned);

// The best value of `settingKey` was the largest (or smallest) tried at some x: the best may
// lie beyond the grid, and an exponent fitted to such points describes the grid.
QString gridEdgeCaution(const BestSettingCurve& curve, const QString& settingKey, const QString& xTitle);

// The best value of `settingKey` rests on one seed, or its runner-up lay within noise of it
// at some x (a near-tie): which value is best there is not known, nor is the exponent.
QString bestSettingNoiseCaution(const BestSettingCurve& curve, const QString& settingKey, const QString& xTitle);

// A critical batch fitted over steps to the target at the best setting of each x carries that
// choice's caution (the best at the edge of the grid), and one whose S_min is under 2 steps
// rests on whole-step counts that cannot resolve it.
QString bestSettingBehindCaution(const BestSettingCurve* curve, const QString& settingKey, const QString& xTitle);
QString wholeStepsCaution(double sMin);

// A fitted critical batch outside the batches whose runs reached the target was extrapolated.
QString extrapolationCaution(double bCrit, const TargetCurve& curve, const QString& xTitle);

// A fit of `parameters` numbers to `points` points: too few when fewer than `needed`, and a
// fit that passes through every point (it checks nothing) when there are no more points than
// numbers.
QString fewPointsCaution(int points, int needed, int parameters);

// Repeats whose spread (standard deviation at one x) is as large as the change of the line
// across all x: the effect is not resolved.
QString repeatsCaution(const StudySeries& line);
QString repeatsCaution(const TargetCurve& curve);

// A target judged on one step's mini-batch figure (chosen explicitly): at a small batch a run
// meets it by chance before the model does (issue 22), so steps to it come out too low there.
QString noisyMeasureCaution(const StudyTarget& target);

}  // namespace ddplab::ui
