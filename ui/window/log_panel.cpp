// SPDX-License-Identifier: GPL-3.0-or-later
#include "log_panel.hpp"

#include "theme/message_colors.hpp"

#include <QScrollBar>
#include <QTextCharFormat>
#include <QTime>

namespace ddplab::ui {

LogPanel::LogPanel(QWidget* parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setMaximumBlockCount(kMaxLines);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont monospace(QStringLiteral("monospace"));
    monospace.setStyleHint(QFont::Monospace);
    monospace.setPointSizeF(font().pointSizeF() * 0.92);
    setFont(monospace);
    setPlaceholderText(tr("The engine's messages (its stderr) and the lab's notes appear here."));
}

void LogPanel::appendEngineLines(const QStringList& lines)
{
    for (const QString& line : lines)
        appendLine(QStringLiteral("engine │ ") + line, QColor());
}

void LogPanel::appendMessage(const QString& text, bool isWarning)
{
    // Colours that read on light and dark backgrounds; the engine's own lines take the text colour
    // of whichever theme is on, even after a switch.
    const QColor color(isWarning ? kLogWarningRgb : kLogMessageRgb);
    appendLine(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")) + QStringLiteral(" │ ") + text, color);
}

void LogPanel::appendLine(const QString& text, const QColor& color)
{
    QScrollBar* bar = verticalScrollBar();
    const bool following = bar->value() == bar->maximum();
    QTextCharFormat format;
    if (color.isValid())
        format.setForeground(color);
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    if (!document()->isEmpty())
        cursor.insertBlock();
    cursor.insertText(text, format);
    if (following)
        bar->setValue(bar->maximum());
}

}  // namespace ddplab::ui
