// SPDX-License-Identifier: GPL-3.0-or-later
// The table of a study's figures: what each is called, which
// way is better, and where a run's result keeps it, summed up as the person chose.

#include "study_figures.hpp"

#include "client/library/preset_file.hpp"
#include "client/study/study_run_result.hpp"
#include "client/wire.hpp"
#include "core/workload_table.hpp"

#include <QHash>

namespace ddplab::ui {
namespace {

constexpr double kNaN = StudyRunResult::kNone;

}  // namespace

// Every figure a study can summarise its runs by, and where a result keeps it: one table.
const QList<StudyFigure>& studyFigures()
{
    static const QList<StudyFigure> figures{
        {wire(field::kLoss), QStringLiteral("loss (mini-batches)"), true, true, [](const StudyRunResult& r) { return r.loss; }, true},
        {wire(field::kAccuracy), QStringLiteral("accuracy (mini-batches)"), false, false, [](const StudyRunResult& r) { return r.accuracy; }, true},
        {wire(field::kTrainLoss), QStringLiteral("loss over the training set"), true, true, [](const StudyRunResult& r) { return r.trainLoss; }, true},
        {wire(field::kTrainAccuracy), QStringLiteral("accuracy over the training set"), false, false, [](const StudyRunResult& r) { return r.trainAccuracy; }, true},
        {wire(field::kValLoss), QStringLiteral("validation loss"), true, true, [](const StudyRunResult& r) { return r.valLoss; }, true},
        {wire(field::kValAccuracy), QStringLiteral("validation accuracy"), false, false, [](const StudyRunResult& r) { return r.valAccuracy; }, true},
        {wire(field::kUpdateVar), QStringLiteral("update variance (pooled)"), true, true, [](const StudyRunResult& r) { return r.updateVar; }},
        {wire(field::kNoiseScale), QStringLiteral("noise scale B_simple"), true, true, [](const StudyRunResult& r) { return r.noiseScale; }},
        {wire(field::kWMean), QStringLiteral("weight w (mean over experiments)"), true, false, [](const StudyRunResult& r) { return r.wMean; }},
        {kStepsToTargetFigure, QStringLiteral("steps to the target"), true, true, [](const StudyRunResult& r) { return r.stepsToTarget >= 0 ? double(r.stepsToTarget) : kNaN; }},
        {kSamplesToTargetFigure, QStringLiteral("samples to the target"), true, true, [](const StudyRunResult& r) { return r.samplesToTarget; }},
        {wire(field::kWallS), QStringLiteral("wall time (s)"), true, true, [](const StudyRunResult& r) { return r.wallSeconds; }},
    };
    return figures;
}

QString StudyFigure::titleFor(FigureSummary summary) const
{
    return summarised ? QStringLiteral("%1 (%2)").arg(title, summaryPhrase(summary)) : title;
}

QStringList figuresThatApply(const QList<QJsonObject>& configs, bool hasTarget)
{
    bool classifier = false, validated = false, variance = false, ranks = false, oneWeight = false;
    for (const QJsonObject& settings : configs) {
        const std::optional<ddplab::Config> config = coreConfigOf(settings);
        if (!config)
            continue;
        const ddplab::WorkloadTraits& row = ddplab::traitsOf(*config);
        classifier = classifier || ddplab::measuresAccuracy(*config);
        validated = validated || ddplab::hasValidationSet(*config);
        variance = variance || (row.vectorised && config->experiments >= 2);
        ranks = ranks || config->worldSize >= 2;
        oneWeight = oneWeight || row.oneWeight;
    }
    const QHash<QString, bool> applies{
        {wire(field::kAccuracy), classifier},
        {wire(field::kTrainAccuracy), classifier},
        {wire(field::kValLoss), validated},
        {wire(field::kValAccuracy), validated && classifier},
        {wire(field::kUpdateVar), variance},
        {wire(field::kNoiseScale), ranks},
        {wire(field::kWMean), oneWeight},
        {kStepsToTargetFigure, hasTarget},
        {kSamplesToTargetFigure, hasTarget},
    };
    QStringList ids;
    for (const StudyFigure& figure : studyFigures()) {
        if (applies.value(figure.id, true))
            ids.append(figure.id);
    }
    return ids;
}

const StudyFigure* findStudyFigure(const QString& id)
{
    for (const StudyFigure& figure : studyFigures()) {
        if (figure.id == id)
            return &figure;
    }
    return nullptr;
}

}  // namespace ddplab::ui
