// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The order a study's lines and legends are listed in: the numbers in their labels compared as
// numbers, so "lr 5", "lr 10", "lr 20" (not 10, 20, 5) and "0.0005" before "0.001".

#include <QString>

namespace ddplab::ui {

// Whether `a` comes before `b`: numbers by value, the text between them as text.
bool numericLess(const QString& a, const QString& b);

}  // namespace ddplab::ui
