// SPDX-License-Identifier: GPL-3.0-or-later
#include "label_order.hpp"

#include <QRegularExpression>

#include <algorithm>

namespace ddplab::ui {
namespace {

// A label cut into text and numbers ("lr_rule sqrt · lr 0.01" -> "lr_rule sqrt · lr ", 0.01).
struct Piece {
    QString text;
    double number = 0.0;
    bool isNumber = false;
};

QList<Piece> piecesOf(const QString& label)
{
    static const QRegularExpression kNumber(QStringLiteral(R"((\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)"));
    QList<Piece> pieces;
    qsizetype at = 0;
    for (auto match = kNumber.globalMatch(label); match.hasNext();) {
        const QRegularExpressionMatch number = match.next();
        if (number.capturedStart() > at)
            pieces.append({label.mid(at, number.capturedStart() - at)});
        pieces.append({number.captured(), number.captured().toDouble(), true});
        at = number.capturedEnd();
    }
    if (at < label.size())
        pieces.append({label.mid(at)});
    return pieces;
}

}  // namespace

bool numericLess(const QString& a, const QString& b)
{
    const QList<Piece> left = piecesOf(a);
    const QList<Piece> right = piecesOf(b);
    for (qsizetype i = 0; i < std::min(left.size(), right.size()); ++i) {
        const Piece& x = left[i];
        const Piece& y = right[i];
        if (x.isNumber && y.isNumber) {
            if (x.number != y.number)
                return x.number < y.number;
        } else if (x.text != y.text) {
            return x.text < y.text;
        }
    }
    return left.size() != right.size() ? left.size() < right.size() : a < b;
}

}  // namespace ddplab::ui
