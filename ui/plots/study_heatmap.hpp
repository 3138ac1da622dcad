// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A final figure over two of a study's axes (e.g. learning rate x effective batch), drawn with
// QPainter: a coloured cell per combination, the best cell of each column outlined, diverged
// runs marked as such, and — when the rows are a learning rate and the columns a batch — the
// linear (slope 1) and square-root (slope 1/2) rules drawn through the best cell at the
// smallest batch: the chart that says which rule a problem follows.

#include "client/study/study_results.hpp"


QT_BEGIN_NAMESPACE
class QPainter;
class QPalette;
class QRect;
QT_END_NAMESPACE

namespace ddplab::ui {

struct HeatmapSpec {
    QString id;
    QString title;
    QString subtitle;
    QString figureTitle;
    bool lowerIsBetter = true;
    bool logValues = false;
    StudyHeatmap map;
    QString emptyText;
};

void paintHeatmap(QPainter& painter, const QRect& area, const HeatmapSpec& spec, double scale = 1.0,
                  const QPalette* palette = nullptr);

}  // namespace ddplab::ui
