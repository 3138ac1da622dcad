// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A message strip above the charts: why a run failed, or that a preset was adjusted. Stays
// until dismissed or replaced, so an error is never missed while looking elsewhere.

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

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyColors();

    Kind m_kind = Kind::Information;
    bool m_applyingColors = false;
    QLabel* m_label = nullptr;
    QToolButton* m_close = nullptr;
};

}  // namespace ddplab::ui
