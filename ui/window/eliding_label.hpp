// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A one-line label that never widens its window: text that does not fit ends at the last whole
// word that does, with "…", and the whole of it is the tooltip.

#include <QLabel>

namespace ddplab::ui {

class ElidingLabel : public QLabel {
    Q_OBJECT

public:
    explicit ElidingLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    const QString& fullText() const { return m_fullText; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QString m_fullText;
};

}  // namespace ddplab::ui
