// SPDX-License-Identifier: GPL-3.0-or-later
#include "eliding_label.hpp"

#include <QFontMetrics>

namespace ddplab::ui {

ElidingLabel::ElidingLabel(QWidget* parent)
    : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText);
}

void ElidingLabel::setFullText(const QString& text)
{
    m_fullText = text;
    setToolTip(text);
    elide();
}

void ElidingLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidingLabel::elide()
{
    const QFontMetrics metrics(font());
    const int room = contentsRect().width();
    if (metrics.horizontalAdvance(m_fullText) <= room) {
        setText(m_fullText);
        return;
    }
    // Whole words only: drop words from the end until the rest and "…" fit.
    const QString ellipsis = QStringLiteral(" …");
    QString shown = m_fullText;
    while (!shown.isEmpty() && metrics.horizontalAdvance(shown + ellipsis) > room) {
        const qsizetype space = shown.lastIndexOf(QLatin1Char(' '));
        shown.truncate(std::max<qsizetype>(0, space));
    }
    setText(shown.isEmpty() ? QString() : shown.trimmed() + ellipsis);
}

}  // namespace ddplab::ui
