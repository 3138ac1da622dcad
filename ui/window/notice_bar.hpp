// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A message strip above the charts: why a run failed, or that a preset was adjusted. Stays
// until dismissed or replaced, so an error is never missed while looking elsewhere. In
// presentation mode (setBrief) a notice that only informs (an export written) is handed on as a
// brief line for the status bar instead: the strip would take its height from the lead chart.

#include "theme/message_colors.hpp"

#include <QFrame>

QT_BEGIN_NAMESPACE
class QLabel;
class QToolButton;
QT_END_NAMESPACE

namespace ddplab::ui {

class NoticeBar : public QFrame {
    Q_OBJECT

public:
    using Kind = NoticeKind;

    explicit NoticeBar(QWidget* parent = nullptr);

    void showNotice(Kind kind, const QString& title, const QString& details = QString());
    void dismiss();
    QString text() const;
    // While on, Information notices become briefNotice (and one shown now is dismissed).
    void setBrief(bool brief);

signals:
    void briefNotice(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyColors();

    Kind m_kind = Kind::Information;
    bool m_brief = false;
    bool m_applyingColors = false;
    QLabel* m_label = nullptr;
    QToolButton* m_close = nullptr;
};

}  // namespace ddplab::ui
