#pragma once
// The Compare page: the runs on display side by side, one column each (in its chart colour),
// one row per final figure.

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

private:
    RunModel& m_model;
    QTableWidget* m_table = nullptr;
    QLabel* m_hint = nullptr;
};

}  // namespace ddplab::ui
