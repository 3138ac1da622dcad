#pragma once
// A final figure over two of a study's axes (e.g. learning rate x effective batch), drawn with
// QPainter: a coloured cell per combination, the best cell of each column outlined, diverged
// runs marked as such, and — when the rows are a learning rate and the columns a batch — the
// linear (slope 1) and square-root (slope 1/2) rules drawn through the best cell at the
// smallest batch: the chart that says which rule a problem follows.

#include "study/study_results.hpp"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QPainter;
class QPalette;
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

class StudyHeatmapWidget : public QWidget {
    Q_OBJECT

public:
    explicit StudyHeatmapWidget(QWidget* parent = nullptr);
    void setSpec(const HeatmapSpec& spec);
    const HeatmapSpec& spec() const { return m_spec; }
    QSize minimumSizeHint() const override { return {260, 200}; }
    QSize sizeHint() const override { return {520, 360}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    HeatmapSpec m_spec;
};

}  // namespace ddplab::ui
