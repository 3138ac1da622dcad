// SPDX-License-Identifier: GPL-3.0-or-later
#include "study/wrapping_combo_box.hpp"

#include <QStyleOptionComboBox>
#include <QStylePainter>

#include <algorithm>

namespace ddplab::ui {

WrappingComboBox::WrappingComboBox(QWidget* parent) : QComboBox(parent)
{
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // Taller where it wraps: a fixed height (a combo box's own policy) would cut the second line.
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred, QSizePolicy::ComboBox);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void WrappingComboBox::setHintsOneLine(bool oneLine)
{
    m_hintsOneLine = oneLine;
    updateGeometry();
}

int WrappingComboBox::textWidthAt(int width) const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    option.rect = QRect(0, 0, width, QComboBox::sizeHint().height());
    return style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this).width() - 2;
}

QStringList WrappingComboBox::linesFor(const QString& text, int textWidth) const
{
    const QFontMetrics metrics = fontMetrics();
    if (metrics.horizontalAdvance(text) <= textWidth)
        return {text};
    // Greedy at the words; a word longer than the line is broken where the line ends.
    QStringList lines;
    QString line;
    for (QString word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString joined = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (metrics.horizontalAdvance(joined) <= textWidth) {
            line = joined;
            continue;
        }
        if (!line.isEmpty())
            lines.append(line);
        while (word.size() > 1 && metrics.horizontalAdvance(word) > textWidth) {
            qsizetype fits = 1;
            while (fits + 1 < word.size() && metrics.horizontalAdvance(word.left(fits + 1)) <= textWidth)
                ++fits;
            lines.append(word.left(fits));
            word.remove(0, fits);
        }
        line = word;
    }
    if (!line.isEmpty())
        lines.append(line);
    return lines;
}

QStringList WrappingComboBox::shownLines(const QString& text) const
{
    return linesFor(text, textWidthAt(width()));
}

int WrappingComboBox::oneLineWidth() const
{
    int widest = 0;
    for (int i = 0; i < count(); ++i)
        widest = std::max(widest, fontMetrics().horizontalAdvance(itemText(i)));
    // The style's frame and arrow around the text: the same at any width.
    const int probe = 200;
    return widest + probe - textWidthAt(probe);
}

QSize WrappingComboBox::sizeHint() const
{
    QSize hint = QComboBox::sizeHint();
    if (m_hintsOneLine)
        hint.setWidth(std::max(hint.width(), oneLineWidth()));
    hint.setHeight(heightForWidth(hint.width()));
    return hint;
}

int WrappingComboBox::heightForWidth(int width) const
{
    // As tall as one line (the combo box's own height), or as the lines the chosen text wraps
    // onto with the style's frame above and below them.
    const int lines = currentText().isEmpty() ? 1 : int(linesFor(currentText(), textWidthAt(width)).size());
    const int oneLine = QComboBox::sizeHint().height();
    if (lines == 1)
        return oneLine;
    QStyleOptionComboBox option;
    initStyleOption(&option);
    option.rect = QRect(0, 0, width, oneLine);
    const int frame = oneLine - style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this).height();
    return std::max(oneLine, lines * fontMetrics().lineSpacing() + frame);
}

void WrappingComboBox::paintEvent(QPaintEvent* /*event*/)
{
    // Another choice may need another number of lines. Asked here, where every change of the
    // choice ends, since a page fills its choosers with their signals blocked.
    if (heightForWidth(width()) != height())
        updateGeometry();
    // As QComboBox paints itself, but with the chosen text on its lines.
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = shownLines(option.currentText).join(QLatin1Char('\n'));
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

}  // namespace ddplab::ui
