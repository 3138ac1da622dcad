// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One legend for the whole page of charts: a colour swatch and the label of each run on
// display, wrapping onto more lines when there are many. The charts themselves then need no
// legend of their own on screen and keep their space for data.

#include <QLabel>

namespace ddplab::ui {

class RunModel;

class RunLegend : public QLabel {
    Q_OBJECT

public:
    explicit RunLegend(RunModel& model, QWidget* parent = nullptr);

private:
    void refresh();

    RunModel& m_model;
};

}  // namespace ddplab::ui
