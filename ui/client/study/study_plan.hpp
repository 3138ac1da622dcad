// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A study's runs, before any starts: the axes combined (a product, zipped groups advancing
// together), each point repeated with successive seeds, the effective batch split into ranks
// and batch per GPU, and every combination checked with the engine's own rules. A study with a
// single bad combination is refused whole, the combination and the key named.

#include "client/study/study_spec.hpp"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace ddplab::ui {

struct StudyPoint {
    int index = 0;       // its place in the plan: the run's study point
    int repeat = 0;      // 0 for the first seed
    QJsonObject values;  // the swept keys at this point (effective_batch when it is swept)
    QJsonObject config;  // the whole preset its run gets

    // "effective_batch 64 · lr_rule sqrt" (and "· repeat 2" for the later seeds): keys as files
    // name them (TensorBoard's hparams groups).
    QString label() const;
    // "effective batch 64 · LR rule sqrt": as Setup names the keys, where people read it (its
    // run's name in the Runs list, legends, the Log, the headless table).
    QString displayLabel() const;
};

struct StudyPlan {
    QList<StudyPoint> points;
    int combinations = 0;  // points before repeats
    QString shape;         // "7 × 3 combinations × 2 repeats"
    QString error;         // why it cannot run; empty when every point can
    // The share of their steps its runs that stop at the target train (the study file's
    // trained_share); 0: not said, this machine's measured share is taken (study_estimate).
    double trainedShare = 0.0;
};

StudyPlan planStudy(const StudySpec& spec);

// What an effective batch becomes with this axis's rule over `base` (its grad_accum kept).
struct BatchSplitResult {
    qint64 worldSize = 0;
    qint64 batchSize = 0;
    QString error;
};
BatchSplitResult splitEffectiveBatch(qint64 effectiveBatch, const StudyAxis& axis, const QJsonObject& base);

// The plan as the study folder keeps it (plan.json), and back.
QJsonArray planToJson(const QList<StudyPoint>& points);
QList<StudyPoint> planFromJson(const QJsonArray& array, QString* error);

}  // namespace ddplab::ui
