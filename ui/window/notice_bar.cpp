// SPDX-License-Identifier: GPL-3.0-or-later
#include "notice_bar.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace ddplab::ui {

NoticeBar::NoticeBar(QWidget* parent)
    : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::RichText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close = new QToolButton(this);
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss"));
    connect(m_close, &QToolButton::clicked, this, &NoticeBar::dismiss);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 4, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void NoticeBar::showNotice(Kind kind, const QString& title, const QString& details)
{
    if (m_brief && kind == Kind::Information) {
        emit briefNotice(details.isEmpty() ? title : QStringLiteral("%1: %2").arg(title, details));
        return;
    }
    m_kind = kind;
    QString html = QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped());
    if (!details.isEmpty())
        html += QStringLiteral("<br>") + details.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    m_label->setText(html);
    applyColors();
    show();
}

void NoticeBar::dismiss()
{
    hide();
}

void NoticeBar::setBrief(bool brief)
{
    m_brief = brief;
    if (brief && m_kind == Kind::Information)
        hide();
}

QString NoticeBar::text() const
{
    return m_label->text();
}

void NoticeBar::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_applyingColors)
        applyColors();
}

void NoticeBar::applyColors()
{
    const bool dark = parentWidget() && isDarkPalette(parentWidget()->palette());
    QPalette colors = palette();
    colors.setColor(QPalette::Window, noticeBackground(m_kind, dark));
    colors.setColor(QPalette::WindowText, noticeText(dark));
    // Setting our own palette causes a PaletteChange of its own, which must not come back here.
    m_applyingColors = true;
    setPalette(colors);
    m_applyingColors = false;
}

}  // namespace ddplab::ui
