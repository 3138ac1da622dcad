// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The recommendation on the Advise page, on top of the evidence: the batch per GPU with its
// accumulation and effective batch, the LR with the rule that gives it and its safe range,
// warmup, the critical batch, the steps to match the base, the objective and horizon, the
// confidence with its reason, the cautions (each a wrapped sentence) and what the plan trimmed.

#include <QFrame>

QT_BEGIN_NAMESPACE
class QGridLayout;
class QLabel;
class QVBoxLayout;
QT_END_NAMESPACE

namespace ddplab::ui {

struct Advice;

class AdviceCard : public QFrame {
    Q_OBJECT

public:
    explicit AdviceCard(QWidget* parent = nullptr);

    void showAdvice(const Advice& advice);
    // While an advice runs: what its finished phases found so far (the model, the batch the
    // branch test chose with each batch's verdict, the critical batch), and what is measured now.
    void showProgress(const Advice& soFar, const QString& now);
    // Before any advice, or after a failed one: one sentence instead of the numbers.
    void showMessage(const QString& text);
    // Everything the card shows, in reading order, one item a line (for tests and copying).
    QString text() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void clear();
    void addRow(const QString& name, const QString& value);
    void addSentences(const QString& heading, const QStringList& sentences, bool caution);
    void colourCautions();
    void addVerdicts(const Advice& advice);

    QLabel* m_heading = nullptr;
    QGridLayout* m_rows = nullptr;
    int m_rowsUsed = 0;  // a grid layout's row count never shrinks
    QVBoxLayout* m_notes = nullptr;  // cautions and what was trimmed
    QList<QLabel*> m_cautions;
};

}  // namespace ddplab::ui
