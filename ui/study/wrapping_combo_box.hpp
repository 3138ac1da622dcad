// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A chooser that shows its choice whole: where the box is narrower than the chosen text, the
// text wraps at its words onto more lines and the box grows taller (its height follows its
// width), instead of being cut at the box's right edge. The Study page's results showed
// "update va" and "mean of tl" at 1280 x 720 in presentation mode, and a chart's title
// ("update variance (pooled) against the effective batch") is longer than any column there.

#include <QComboBox>

namespace ddplab::ui {

class WrappingComboBox : public QComboBox {
    Q_OBJECT

public:
    explicit WrappingComboBox(QWidget* parent = nullptr);

    // The lines `text` is drawn on at the box's present width: one where it fits.
    QStringList shownLines(const QString& text) const;
    // The least width at which every choice is drawn on one line.
    int oneLineWidth() const;
    // Whether the size hint asks for oneLineWidth() (true, the default) or only for the least
    // contents length, as a chooser whose choices are longer than any column would be.
    void setHintsOneLine(bool oneLine);

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    // Where the style draws the text at `width`: its edit field less a pixel each side, as
    // QCommonStyle's CE_ComboBoxLabel does.
    int textWidthAt(int width) const;
    QStringList linesFor(const QString& text, int textWidth) const;

    bool m_hintsOneLine = true;
};

}  // namespace ddplab::ui
