// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One thing a study found, in words (a fitted slope, B_crit against B_simple, an exponent), with
// the checks that qualify it beside the number (study_checks.hpp); and how every finding writes
// its numbers and keeps its cautions.

#include <QString>
#include <QStringList>

#include <initializer_list>

namespace ddplab::ui {

struct StudyFinding {
    QString text;
    QStringList cautions;
    QString line() const;  // the text, then each caution: "…  [caution: …]"
};

// A figure as findings print it: `digits` significant digits, floating-point rounding noise
// (a difference of equal figures, -1e-32) as 0.
QString findingNumber(double value, int digits = 3);
// The cautions that say something: empty texts left out.
QStringList cautionsThatSay(std::initializer_list<QString> texts);

}  // namespace ddplab::ui
