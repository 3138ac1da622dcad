// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where runs diverged. A run whose loss blew up (RunData::divergence) gets a triangle near the
// top edge of each chart it has a line on whose values blow up with it (the loss, the update
// variance, the gradient norm: ChartDefinition::blowsUp; ChartLines decides), at the step it
// diverged; each place is labelled once
// ("diverged at step N", or "2 runs diverged at step N" where runs diverged together), inside the
// plot even at its right edge, where a run that stops at its divergence ends. Its line counts for
// the y range only while it is sane (saneEnd), so one value of 3e27 does not flatten every other
// curve. Marks and labels are items of the chart, so PNG and SVG exports show them as the screen
// does; a thumbnail shows the triangles without the words.

#include "charts/chart_line.hpp"
#include "charts/run_model.hpp"
#include "client/series/x_axis.hpp"

#include <QList>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

#include <QFont>
#include <QRectF>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QGraphicsSimpleTextItem;
QT_END_NAMESPACE

namespace ddplab::ui {

// How many of `data`'s points count for the y range: all, unless the run diverged on a chart
// that `blowsUp`. Remembered in the line until it forgets what it drew.
qsizetype saneEnd(ChartLine& line, const QList<QPointF>& data, bool blowsUp, XAxis axis);

class DivergenceMarks {
public:
    explicit DivergenceMarks(QChart* chart);
    ~DivergenceMarks();

    // Drops the marks of runs no longer on display and gives the rest their run's colour.
    void setRuns(const QList<DisplayedRun>& runs);
    // A mark for each run on display that has a line here and has diverged; true when one was added.
    bool sync(const QList<DisplayedRun>& runs, const std::function<bool(const RunData&)>& hasLine, QAbstractAxis* xAxis,
              QAbstractAxis* yAxis);
    void style(double lineScale);
    // The labels' font (bold is added), and whether they are shown at all.
    void setLabelFont(const QFont& font);
    void setLabelsVisible(bool visible);
    // Puts each mark at the top of the y range shown, at its run's divergence on `axis`, and
    // one label over each place, inside the plot area.
    void place(double yLow, double yHigh, bool logScale, XAxis axis);
    // The labels drawn, one per place, in the order of the runs: "diverged at step 28".
    QStringList labels() const;
    // Where each label is drawn, in the chart's coordinates (for tests: inside the plot area).
    QList<QRectF> labelRects() const;

private:
    struct Mark;

    QChart* m_chart;
    std::vector<std::unique_ptr<Mark>> m_marks;
    std::vector<std::unique_ptr<QGraphicsSimpleTextItem>> m_labels;
    QFont m_labelFont;
    bool m_labelsVisible = true;
};

}  // namespace ddplab::ui
