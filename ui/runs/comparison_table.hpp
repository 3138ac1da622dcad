// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Compare page: the runs on display side by side, one column each (in its chart colour),
// one row per final figure. The columns share the page's width and each run's name wraps at its
// words within its column, so three runs fit a 1280 x 720 projector with their names whole.

#include <QWidget>

QT_BEGIN_NAMESPACE
class QTableWidget;
class QLabel;
QT_END_NAMESPACE

namespace ddplab::ui {

class RunModel;

class ComparisonTable : public QWidget {
    Q_OBJECT

public:
    explicit ComparisonTable(RunModel& model, QWidget* parent = nullptr);

    void refresh();
    // For tests: a run's column, and its name's lines as the header draws them.
    int columnWidth(int column) const;
    QStringList headerLines(int column) const;
    QTableWidget* table() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitColumns();

    RunModel& m_model;
    QTableWidget* m_table = nullptr;
    QLabel* m_hint = nullptr;
};

}  // namespace ddplab::ui
