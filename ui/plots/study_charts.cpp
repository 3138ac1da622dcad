// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_charts.hpp"

#include "client/io/save_file.hpp"
#include "client/study/study_axis_text.hpp"
#include "client/study/study_checks.hpp"
#include "client/study/study_csv.hpp"
#include "client/study/study_findings.hpp"
#include "client/wire.hpp"
#include "plots/image_writer.hpp"
#include "theme/palette.hpp"

#include <QDir>
#include <QFont>
#include <QPainter>
#include <QRegularExpression>

#include <cmath>

namespace ddplab::ui {
namespace {

constexpr double kNaN = StudyRunResult::kNone;

// One colour per value of the colour axis, in the order they first appear.
class Colours {
public:
    QColor of(const QString& value)
    {
        qsizetype index = m_seen.indexOf(value);
        if (index < 0) {
            m_seen.append(value);
            index = m_seen.size() - 1;
        }
        return lineColor(index);
    }

private:
    QStringList m_seen;
};

// Every line of a chart in a colour of its own: lines that share their colour axis's value (one
// per value of another axis) get darker and lighter shades of it, in turn. Reference lines
// (dashed, without markers: the rules, a fit) keep theirs.
void distinctColours(PlotSpec& plot)
{
    QList<QRgb> used;
    for (PlotLine& line : plot.lines) {
        if (line.dashed && !line.markers)
            continue;
        const QColor base = line.color;
        for (int shade = 1; used.contains(line.color.rgb()); ++shade)
            line.color = shade % 2 == 1 ? base.darker(100 + 45 * ((shade + 1) / 2)) : base.lighter(100 + 35 * (shade / 2));
        used.append(line.color.rgb());
    }
}

// The engine's B_simple as the runs ended, marked where the x is the effective batch.
void markBSimple(PlotSpec& plot, const QList<StudyRunResult>& results, const StudyXAxis& axis)
{
    const double bSimple = meanFinalBSimple(results);
    if (axis.key != kEffectiveBatchAxis || !(bSimple > 0))
        return;
    plot.markers.append({bSimple, QStringLiteral("B_simple %1").arg(findingNumber(bSimple)), QColor(kMeasuredMarkRgb)});
    plot.notes.append(QStringLiteral("B_simple %1 (measured as the runs ended, mean)").arg(findingNumber(bSimple)));
}

PlotSpec figurePlot(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices,
                    const StudyXAxis& axis)
{
    const StudyFigure* figure = findStudyFigure(choices.figure);
    const QString figureTitle = figure ? figure->titleFor(choices.summary) : choices.figure;
    PlotSpec plot;
    plot.id = QStringLiteral("figure-vs-") + (axis.key.isEmpty() ? QStringLiteral("run") : axis.key);
    plot.title = QStringLiteral("%1 against the %2").arg(figureTitle, axis.title);
    plot.xTitle = axis.title;
    plot.yTitle = figureTitle;
    plot.logX = axis.log;
    plot.logY = figure && figure->logScale;
    plot.emptyText = QStringLiteral("No finished run has this figure yet.");
    const QList<StudySeries> series = figureSeries(results, study, choices.figure, axis, choices.colourBy, choices.summary);
    bool repeats = false;
    Colours colours;
    for (const StudySeries& one : series) {
        PlotLine line;
        line.label = one.label;
        line.color = colours.of(one.colourValue);
        for (const SeriesPoint& point : one.points) {
            line.points.append(QPointF(point.x, point.y.mean));
            line.errors.append(point.y.standardError);
            line.hollow.append(point.diverged > 0);
            repeats = repeats || point.y.count > 1;
        }
        if (plot.logX && plot.logY) {
            const PowerLawFit fit = figureLineFit(one);
            if (fit.ok)
                plot.notes.append(slopeText(one.label.isEmpty() ? plot.yTitle : one.label, fit));
        }
        plot.lines.append(line);
    }
    plot.subtitle = QStringLiteral("%1 runs of \"%2\"%3; hollow marks: diverged.")
                        .arg(results.size())
                        .arg(study.title())
                        .arg(repeats ? QStringLiteral(", mean over repeats with a band of ± one standard error") : QString());
    markBSimple(plot, results, axis);
    return plot;
}

// Zhang et al.'s critical batch: a marker and a note (its finding: client/study/study_findings.cpp).
void markExcessSteps(PlotSpec& plot, const TargetCurve& curve, const QString& colourBy)
{
    if (!curve.excess.ok)
        return;
    const QString who = curve.colourValue.isEmpty() ? QString() : colouredLabel(colourBy, curve.colourValue) + QStringLiteral(": ");
    if (!curve.excess.beyond)
        plot.markers.append({curve.excess.batch, QStringLiteral("B* %1 (+20 %)").arg(findingNumber(curve.excess.batch)), QColor(kExcessMarkRgb)});
    plot.notes.append(curve.excess.beyond ? QStringLiteral("%1B* above %2").arg(who, findingNumber(curve.excess.batch))
                                          : QStringLiteral("%1B* %2 (steps 20 % over linear scaling)").arg(who, findingNumber(curve.excess.batch)));
}

// Steps (or samples) to the target, the fit, the critical batch and the measured B_simple.
PlotSpec targetPlot(const StoredStudy& study, const QList<TargetCurve>& curves, const StudyXAxis& axis, const QString& colourBy,
                    bool samples)
{
    PlotSpec plot;
    plot.id = samples ? QStringLiteral("samples-to-target") : QStringLiteral("steps-to-target");
    plot.title = samples ? QStringLiteral("Samples to reach %1").arg(study.spec.target.describe())
                         : QStringLiteral("Optimizer steps to reach %1").arg(study.spec.target.describe());
    plot.subtitle = QStringLiteral("At each %1 the best setting of the other axes (Shallue et al. 2018); dashed: the fit "
                                   "%2 (McCandlish et al. 2018); hollow: not reached by the end of the run, drawn where it ended "
                                   "(the figure lies above).")
                        .arg(axis.title, samples ? QStringLiteral("E = E_min (1 + B / B_crit)") : QStringLiteral("S = S_min (1 + B_crit / B)"));
    plot.xTitle = axis.title;
    plot.yTitle = samples ? QStringLiteral("samples seen") : QStringLiteral("optimizer steps");
    plot.logX = axis.log;
    plot.logY = true;
    plot.emptyText = QStringLiteral("No run reached %1.").arg(study.spec.target.describe());
    Colours colours;
    for (const TargetCurve& curve : curves) {
        PlotLine line;
        line.label = colouredLabel(colourBy, curve.colourValue);
        line.color = colours.of(curve.colourValue);
        for (const TargetPoint& point : curve.points) {
            // Never reached: hollow, at the steps it ran without reaching it, which the figure exceeds.
            const double reachedAt = samples ? point.samples : point.steps;
            const double ranFor = samples ? point.samplesRun : point.stepsRun;
            line.points.append(QPointF(point.x, point.reached ? reachedAt : (ranFor > 0 && std::isfinite(ranFor) ? ranFor : kNaN)));
            line.hollow.append(!point.reached);
        }
        plot.lines.append(line);
        const QString who = curve.colourValue.isEmpty() ? QString() : colouredLabel(colourBy, curve.colourValue) + QStringLiteral(": ");
        if (axis.key.isEmpty() || !curve.fit.ok)
            continue;  // against the run's number there is no batch to fit a critical batch to
        PlotLine fit;
        fit.color = line.color;
        fit.dashed = true;
        fit.markers = false;
        const double low = curve.points.first().x, high = curve.points.last().x;
        for (int i = 0; i <= 40; ++i) {
            const double x = axis.log ? low * std::pow(high / low, i / 40.0) : low + (high - low) * i / 40.0;
            fit.points.append(QPointF(x, samples ? curve.fit.samplesAt(x) : curve.fit.stepsAt(x)));
        }
        plot.lines.append(fit);
        const QString extrapolated = extrapolationCaution(curve.fit.bCrit, curve, axis.title);
        const QString bCritText = findingNumber(curve.fit.bCrit) + (extrapolated.isEmpty() ? QString() : QStringLiteral(" (extrapolated)"));
        plot.markers.append({curve.fit.bCrit, QStringLiteral("B_crit %1").arg(bCritText), line.color});
        plot.notes.append(QStringLiteral("%1B_crit %2 (fit), S_min %3").arg(who, bCritText, findingNumber(curve.fit.sMin)));
        if (curve.measuredBSimple > 0) {
            plot.markers.append({curve.measuredBSimple, QStringLiteral("B_simple %1").arg(findingNumber(curve.measuredBSimple)), line.color.darker(140)});
            plot.notes.append(QStringLiteral("%1B_simple %2 (measured at the target, mean)").arg(who, findingNumber(curve.measuredBSimple)));
        }
    }
    for (const TargetCurve& curve : axis.key.isEmpty() ? QList<TargetCurve>() : curves)
        markExcessSteps(plot, curve, colourBy);
    return plot;
}

PlotSpec bestSettingPlot(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices,
                         const StudyXAxis& axis)
{
    const QString setting = bestSettingKey(study.spec);
    const bool lr = setting == wire(key::kLr);
    const QString settingName = lr ? QStringLiteral("learning rate") : setting;
    const QString slopes = lr ? QStringLiteral("the linear (slope 1) and square-root (slope ½) rules") : QStringLiteral("slopes 1 and ½");
    PlotSpec plot;
    plot.id = QStringLiteral("best-") + setting;
    plot.title = QStringLiteral("The best %1 against the %2").arg(settingName, axis.title);
    const StudyFigure* figure = findStudyFigure(choices.figure);
    plot.subtitle = study.spec.target.isSet()
                        ? QStringLiteral("Best: fewest steps to %1 in every repeat; hollow: the largest or smallest value tried (the best "
                                         "may lie beyond). Grey: %2.")
                              .arg(study.spec.target.describe(), slopes)
                        : QStringLiteral("Best: the best %1; hollow: the largest or smallest value tried (the best may lie beyond). "
                                         "Grey: %2.")
                              .arg(figure ? figure->titleFor(choices.summary) : choices.figure, slopes);
    plot.xTitle = axis.title;
    plot.yTitle = settingName;
    plot.logX = axis.log;
    plot.logY = true;
    plot.emptyText = QStringLiteral("No %1 was best anywhere yet.").arg(settingName);
    Colours colours;
    const QString colourBy = bestSettingColourBy(axis, choices);
    const QList<BestSettingCurve> curves = bestSettingCurves(results, study, axis, setting, choices.figure, colourBy, choices.summary);
    for (const BestSettingCurve& curve : curves) {
        PlotLine line;
        line.label = colouredLabel(colourBy, curve.colourValue);
        line.color = colours.of(curve.colourValue);
        line.points = curve.points;
        for (const BestSettingCurve::Edge edge : curve.edges)
            line.hollow.append(edge != BestSettingCurve::Edge::Inside);
        plot.lines.append(line);
        if (curve.fit.ok) {
            const QString who = line.label.isEmpty() ? QString() : line.label + QStringLiteral(": ");
            const QString edge = gridEdgeCaution(curve, setting, axis.title);
            plot.notes.append(QStringLiteral("%1exponent %2%3").arg(who, findingNumber(curve.fit.exponent, 2),
                                                                    edge.isEmpty() ? QString() : QStringLiteral(" (edge of the grid)")));
        }
    }
    // Reference slopes through the first point of the first line.
    if (!curves.isEmpty() && curves.first().points.size() >= 2) {
        const QPointF start = curves.first().points.first();
        const double end = curves.first().points.last().x();
        const QString one = lr ? QStringLiteral("linear rule") : QStringLiteral("slope 1");
        const QString half = lr ? QStringLiteral("square-root rule") : QStringLiteral("slope ½");
        for (const auto& [slope, name] : {std::pair{1.0, one}, std::pair{0.5, half}}) {
            PlotLine reference;
            reference.label = name;
            reference.color = QColor(slope == 1.0 ? kLinearRuleRgb : kSquareRootRuleRgb);
            reference.dashed = true;
            reference.markers = false;
            reference.points = {start, QPointF(end, start.y() * std::pow(end / start.x(), slope))};
            plot.lines.append(reference);
        }
    }
    markBSimple(plot, results, axis);
    return plot;
}

// The study's `curves` figure against epochs: a chart per colour value, a line per
// combination of the other axes. Where a rule keeps training the same at every batch, the
// lines of its chart lie on one another.
QList<PlotSpec> curvePlots(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices)
{
    const StudyFigure* figure = findStudyFigure(study.spec.curves);
    const QString figureTitle = figure ? figure->title : study.spec.curves;
    QList<PlotSpec> plots;
    const QList<CurvePanel> panels = curvePanels(results, study, choices.colourBy);
    for (const CurvePanel& panel : panels) {
        PlotSpec plot;
        const QString who = colouredLabel(choices.colourBy, panel.colourValue);
        // The file name by the key, as scripts know it ("curves-lr_rule-sde"); the title by its label.
        const QString named = choices.colourBy.isEmpty() || panel.colourValue.isEmpty() ? QString() : choices.colourBy + QLatin1Char(' ') + panel.colourValue;
        plot.id = QStringLiteral("curves") + (named.isEmpty() ? QString() : QLatin1Char('-') + QString(named).replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._]+")), QStringLiteral("-")));
        plot.title = who.isEmpty() ? QStringLiteral("%1 against epochs").arg(figureTitle) : QStringLiteral("%1 against epochs: %2").arg(figureTitle, who);
        plot.subtitle = QStringLiteral("Each line the mean over its repeats at each measurement; lines that lie on one another train alike.");
        plot.xTitle = QStringLiteral("training epoch");
        plot.yTitle = figureTitle;
        plot.logX = false;
        plot.logY = figure && figure->logScale;
        plot.emptyText = QStringLiteral("No finished run measured %1 yet.").arg(study.spec.curves);
        Colours colours;
        for (const StudySeries& series : panel.lines) {
            PlotLine line;
            line.label = series.label;
            line.color = colours.of(series.colourValue);
            line.markers = false;
            for (const SeriesPoint& point : series.points) {
                line.points.append(QPointF(point.x, point.y.mean));
                line.errors.append(point.y.standardError);
            }
            plot.lines.append(line);
        }
        plots.append(plot);
    }
    return plots;
}

}  // namespace

QStringList StudyCharts::findingLines() const
{
    QStringList lines;
    if (!provisional.isEmpty())
        lines.append(provisional);
    for (const StudyFinding& finding : findings)
        lines.append(finding.line());
    return lines;
}

StudyCharts buildStudyCharts(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices)
{
    StudyCharts charts;
    const StudyXAxis axis = studyXAxis(study);
    const auto ended = std::count_if(results.begin(), results.end(), [](const StudyRunResult& result) { return StudyStore::isDone(result.status); });
    charts.provisional = provisionalNote(int(ended), int(study.points.size()));
    charts.findings = studyFindings(study, results, choices);
    charts.plots.append(figurePlot(study, results, choices, axis));
    if (study.spec.target.isSet()) {
        const QList<TargetCurve> curves = targetCurves(results, study, axis, choices.colourBy);
        charts.plots.append(targetPlot(study, curves, axis, choices.colourBy, false));
        charts.plots.append(targetPlot(study, curves, axis, choices.colourBy, true));
    }
    if (const std::optional<StudyXAxis> settingAxis = bestSettingAxis(study))
        charts.plots.append(bestSettingPlot(study, results, choices, *settingAxis));
    if (!study.spec.curves.isEmpty())
        charts.plots += curvePlots(study, results, choices);
    if (choices.heatmap.size() == 2) {
        const StudyFigure* figure = findStudyFigure(choices.figure);
        HeatmapSpec heatmap;
        heatmap.id = QStringLiteral("heatmap");
        heatmap.map = heatmapOf(results, study, choices.figure, choices.heatmap[0], choices.heatmap[1], choices.summary);
        heatmap.figureTitle = figure ? figure->titleFor(choices.summary) : choices.figure;
        heatmap.title = QStringLiteral("%1 over %2 and %3").arg(heatmap.figureTitle, choices.heatmap[1], choices.heatmap[0]);
        heatmap.subtitle = QStringLiteral("Each cell: the mean over repeats (the best over any other axis); hatched: diverged.");
        heatmap.lowerIsBetter = !figure || figure->lowerIsBetter;
        heatmap.logValues = figure && figure->logScale;
        heatmap.emptyText = QStringLiteral("No finished run yet.");
        charts.heatmaps.append(heatmap);
    }
    for (PlotSpec& plot : charts.plots)
        distinctColours(plot);
    return charts;
}

double studyScaleForTextPixels(double pixels)
{
    // chart_frame's smallest words: 0.85 of max(the application's points, 10) x scale, in points
    // of an image at 96 dots per inch (writePngImage's and the SVG's).
    constexpr double kSmallShare = 0.85, kLeastPoints = 10.0, kPixelsPerPoint = 96.0 / 72.0, kSlack = 1.05;
    const double points = std::max(QFont().pointSizeF(), kLeastPoints);
    return pixels / (kSmallShare * points * kPixelsPerPoint) * kSlack;
}

QStringList exportStudy(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyCharts& charts,
                        const QString& directory, const ImageFormat& format, QString* error)
{
    if (!format.slide)
        return exportStudy(study, results, charts, directory, format.size, format.scale, error);
    StudyCharts slides = charts;
    const QString title = format.title.isEmpty() ? study.title() : format.title;
    // The runs' settings: what every run shares (the base), before what the chart says of itself.
    QStringList base;
    for (auto it = study.spec.base.constBegin(); it != study.spec.base.constEnd(); ++it)
        base.append(QStringLiteral("%1 %2").arg(axisLabel(it.key()), it.value().toVariant().toString()));
    const QString settings = base.isEmpty() ? QString() : QStringLiteral("Every run: %1. ").arg(base.join(QStringLiteral(", ")));
    for (PlotSpec& plot : slides.plots) {
        plot.title = QStringLiteral("%1: %2").arg(title, plot.title);
        plot.subtitle = settings + plot.subtitle;
    }
    for (HeatmapSpec& heatmap : slides.heatmaps)
        heatmap.title = QStringLiteral("%1: %2").arg(title, heatmap.title);
    const double pixels = kSlideTextPixels * format.size.height() / 1080.0;
    return exportStudy(study, results, slides, directory, format.size, studyScaleForTextPixels(pixels), error);
}

QStringList exportStudy(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyCharts& charts,
                        const QString& directory, QSize imageSize, double scale, QString* error)
{
    QStringList written;
    if (!QDir().mkpath(directory)) {
        *error = QStringLiteral("Cannot create the folder %1").arg(directory);
        return written;
    }
    const QDir folder(directory);
    const auto both = [&](const QString& id, const QString& title, const PaintFunction& paint) {
        const QString png = folder.filePath(id + QStringLiteral(".png"));
        const QString svg = folder.filePath(id + QStringLiteral(".svg"));
        if (!writePngImage(png, imageSize, QColor(kPaperRgb), paint, error) || !writeSvgImage(svg, imageSize, title, paint, error))
            return false;
        written << png << svg;
        return true;
    };
    for (const PlotSpec& plot : charts.plots) {
        if (!both(plot.id, plot.title, [&](QPainter& painter, const QRect& area) { paintPlot(painter, area, plot, scale); }))
            return written;
    }
    for (const HeatmapSpec& heatmap : charts.heatmaps) {
        if (!both(heatmap.id, heatmap.title, [&](QPainter& painter, const QRect& area) { paintHeatmap(painter, area, heatmap, scale); }))
            return written;
    }
    const QString csv = folder.filePath(QStringLiteral("study.csv"));
    if (!writeFileAtomically(csv, studyCsv(study, results), error))
        return written;
    written << csv;
    const QString findings = folder.filePath(QStringLiteral("findings.txt"));
    QByteArray text = (study.title() + QLatin1Char('\n')).toUtf8();
    for (const QString& line : charts.findingLines())
        text += (line + QLatin1Char('\n')).toUtf8();
    if (!writeFileAtomically(findings, text, error))
        return written;
    written << findings;
    return written;
}

}  // namespace ddplab::ui
