// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The branch test's verdict on each batch (docs/advisor.md, "The batch"): every batch is compared
// with the base batch over the same data orders (the same seeds at every batch), as paired
// differences, so the noise is measured at every batch compared, not only at the base's. At each
// batch the LR of its bracket with the lowest mean over the orders is taken; per order, the
// relative difference of its measure from the base batch's; their mean, and an interval of it
// from their spread (Student's t, 90 % two-sided). The verdict: within the tolerance (the whole
// interval at or under it), worse (the whole interval above it), or within noise. The critical
// batch is the largest that, with every smaller batch, is within (known good): a batch within
// noise is never chosen over a smaller one that is clearly fine; the closest call is the batch
// whose verdict is within noise and could move that answer, and gets the orders left in the budget:
// a smaller batch than yours first (if it is better, no larger batch's verdict matters).
// A batch smaller than yours (the branch at half your batch) is judged the same way, and is
// `better` when your batch is worse than it by more than the tolerance over its whole interval:
// your batch is then past the critical batch at your horizon, and the critical batch is the
// largest smaller batch so found (the panel's autoencoder: 32 was +8.9 % over 16). Pure arithmetic
// on measured runs, tested on recorded evidence (tst_advice_decision).

#include <QList>
#include <QString>

namespace ddplab::ui {

struct AdviceEvidence;

inline constexpr double kBatchTolerance = 0.02;  // relative: "as good as the base batch" within 2 %

enum class BatchCall { Within, Worse, WithinNoise, Better };  // Better: a smaller batch than yours, yours past the tolerance over it

struct BatchVerdict {
    double batch = 0.0;          // effective
    int gpus = 0;
    qint64 batchPerGpu = 0;
    double lr = 0.0;             // the bracket's LR with the lowest mean over the orders (NaN: every LR diverged)
    int orders = 0;              // data orders paired with the base batch's
    double mean = 0.0;           // the measure at lr, mean over its orders
    double spread = 0.0;         // its standard error over the orders (0 with one)
    double difference = 0.0;     // mean over the orders of measure / base's measure - 1
    double low = 0.0, high = 0.0;  // the difference's 90 % interval (-inf, +inf with one order)
    BatchCall call = BatchCall::WithinNoise;
    bool diverged = false;       // no LR of its bracket trained in every order
    bool yours = false;          // your batch, which every other is compared with
};

struct BatchJudgement {
    bool ok = false;                  // the base batch has an LR that trained in every order
    QList<BatchVerdict> batches;      // ascending: a smaller batch than yours first when measured, then yours, then larger
    int yours = 0;                    // the index of your batch in `batches`
    double tolerance = kBatchTolerance;
    double criticalBatch = 0.0;
    bool beyondLargest = false;       // every batch passed: the critical batch is at least the largest
    bool unmeasuredAbove = false;     // the first batch that failed is over twice the critical batch: those between were not measured
    bool pastCritical = false;        // a smaller batch was better: yours is past the critical batch
    int closestCall = -1;             // the index of the batch to add data orders to, -1 when none
};

// The difference (a smaller batch's measure over yours - 1) under which your batch is worse than
// it by more than `tolerance`: yours / smaller - 1 > tolerance.
inline double betterThan(double tolerance)
{
    return 1.0 / (1.0 + tolerance) - 1.0;
}

// `runs`: the branch test's and its refinement's (the phases kBranch and kRefinement); other
// phases are ignored. `baseBatch` is the base's effective batch.
BatchJudgement judgeBatches(const QList<AdviceEvidence>& runs, double baseBatch, double tolerance = kBatchTolerance);

// Student's t for a two-sided 90 % interval with `degrees` degrees of freedom (1 and up).
double tQuantile90(int degrees);

// "within 2 % (−0.8 % ± 1.1 %)", "worse (+6.0 % ± 3.4 %)", "within noise (+1.9 % ± 4.2 %)".
QString verdictWords(const BatchVerdict& verdict, double tolerance);
QString callName(BatchCall call);           // "within", "worse", "within noise": advice.json's words
BatchCall callOf(const QString& name);

}  // namespace ddplab::ui
