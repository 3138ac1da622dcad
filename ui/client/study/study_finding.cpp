// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_finding.hpp"

#include <cmath>

namespace ddplab::ui {

QString StudyFinding::line() const
{
    QString text = this->text;
    for (const QString& caution : cautions)
        text += QStringLiteral("  [caution: %1]").arg(caution);
    return text;
}

QString findingNumber(double value, int digits)
{
    // A difference of equal figures computed in floating point (-1e-32) is a zero, said as one.
    constexpr double kRoundingNoise = 1e-20;
    return QString::number(std::abs(value) < kRoundingNoise ? 0.0 : value, 'g', digits);
}

QStringList cautionsThatSay(std::initializer_list<QString> texts)
{
    QStringList kept;
    for (const QString& text : texts) {
        if (!text.isEmpty())
            kept.append(text);
    }
    return kept;
}

}  // namespace ddplab::ui
