// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What "reached" means for a study's steps-to-target (Shallue et al. 2018): a measure crossing
// a value. The measure is the person's choice, and the default is free of mini-batch noise:
// McCandlish et al. and Shallue et al. count the steps to a target of the training objective
// (or a held-out figure), not of one mini-batch, which at a small batch dips below the target
// by chance long before the model is there (issue 22: batch 2 "reached" a linreg target in
// fewer steps than batch 256 at the same learning rate).

#include <QList>
#include <QString>

namespace ddplab::ui {

// One measure a target can be judged on, as a study file names it.
struct TargetMeasure {
    QString name;         // "train_loss": the study file's `metric`
    QString series;       // the run's metric it is read from (RunData's name)
    QString title;        // "loss over the training set (noise-free)"
    bool loss = true;     // a loss (at_most) rather than an accuracy (at_least)
    bool noisy = false;   // one mini-batch's figure: chosen only explicitly, and said in the findings
    QString stopMeasure;  // the engine's stop_measure that judges it; empty: a run cannot stop on it
};
// Every measure, the noise-free ones first.
const QList<TargetMeasure>& targetMeasures();
// By its name in a study file; "loss" and "accuracy" (files written before the measure was a
// choice) are the noise-free default, train_loss and train_accuracy. Null when unknown.
const TargetMeasure* findTargetMeasure(const QString& name);

struct StudyTarget {
    QString metric;       // a TargetMeasure's name; empty: none set
    bool atMost = true;   // figure <= value; false: figure >= value
    double value = 0.0;
    bool stop = false;    // end each run once it meets the target (engine keys stop_at_loss, stop_measure)
    // With stop: the share of their steps' seconds the study's runs trained before they met it,
    // as measured where the study was written (the file's "trained_share"); 0 when not said. The
    // steps a run trains are the study's, not the machine's: the estimate's share before any run.
    double trainedShare = 0.0;
    bool isSet() const { return !metric.isEmpty(); }
    bool reachedBy(double figure) const { return atMost ? figure <= value : figure >= value; }
    const TargetMeasure* measure() const { return findTargetMeasure(metric); }
    QString describe() const;  // "train_loss ≤ 0.5"
};

}  // namespace ddplab::ui
