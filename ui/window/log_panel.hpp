// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Log: the engine's stderr as it arrives, whole lines as the session's line reader gives
// them, and the lab's own messages (what was started, how it ended, bad engine output), each
// stamped with the time. Bounded, so a chatty run cannot grow it without end.

#include <QPlainTextEdit>
#include <QStringList>

namespace ddplab::ui {

class LogPanel : public QPlainTextEdit {
    Q_OBJECT

public:
    static constexpr int kMaxLines = 20000;

    explicit LogPanel(QWidget* parent = nullptr);

    void appendEngineLines(const QStringList& lines);
    void appendMessage(const QString& text, bool isWarning = false);

private:
    void appendLine(const QString& text, const QColor& color);  // invalid colour: the theme's text colour
};

}  // namespace ddplab::ui
