// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/advice_files.hpp"

#include "plots/advice_charts.hpp"
#include "theme/palette.hpp"
#include "client/advisor/advice.hpp"
#include "client/advisor/advice_phases.hpp"
#include "client/io/save_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "plots/image_writer.hpp"

#include <QDir>
#include <QJsonDocument>
#include <QPainter>

namespace ddplab::ui {
namespace {

const ImageFormat kSavedChart{QSize(1200, 800), 1.5, false, {}};

const QString& kRangeTestPhase = advice_phase::kRangeTest;

}  // namespace

QList<QPointF> storedRangeTestCurve(const Advice& advice, const RunStore& store)
{
    if (!advice.rangeTests.isEmpty())
        return {};  // advice.json keeps its curves
    for (const AdviceEvidence& run : advice.evidence) {
        if (run.phase != kRangeTestPhase || run.runId.isEmpty())
            continue;
        RunRecord record;
        record.id = run.runId;
        record.directory = QDir(store.root()).filePath(run.runId);
        return rangeTestCurve(*store.loadRun(record));
    }
    return {};
}

QStringList writeAdviceFiles(const QString& folder, const Advice& advice, const RunStore& store, QString* error)
{
    if (!QDir().mkpath(folder)) {
        *error = QStringLiteral("cannot make the folder %1").arg(folder);
        return {};
    }
    const QDir dir(folder);
    QStringList written{QStringLiteral("advice.json"), QStringLiteral("advice.md")};
    if (!writeFileAtomically(dir.filePath(written[0]), QJsonDocument(advice.toJson()).toJson(QJsonDocument::Indented), error) ||
        !writeFileAtomically(dir.filePath(written[1]), advice.toMarkdown().toUtf8(), error))
        return {};
    for (const PlotSpec& spec : adviceCharts(advice, storedRangeTestCurve(advice, store))) {
        const PaintFunction paint = [spec](QPainter& painter, const QRect& area) { paintPlot(painter, area, spec, kSavedChart.scale); };
        if (!writePngImage(dir.filePath(spec.id + QStringLiteral(".png")), kSavedChart.size, QColor(kPaperRgb), paint, error) ||
            !writeSvgImage(dir.filePath(spec.id + QStringLiteral(".svg")), kSavedChart.size, spec.title, paint, error))
            return {};
        written << spec.id + QStringLiteral(".png") << spec.id + QStringLiteral(".svg");
    }
    return written;
}

}  // namespace ddplab::ui
