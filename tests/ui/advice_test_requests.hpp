// SPDX-License-Identifier: GPL-3.0-or-later
// The requests and plan contexts the advisor's decision suites feed its pure functions
// (tst_advice_decision, tst_advice_decision_orders): the Fashion-MNIST MLP, the panel's
// Adam models, a ladder from its rungs' measures, and a branch test's context after the base run.
#pragma once

#include "client/advisor/advice_plan.hpp"
#include "client/advisor/advice_request.hpp"
#include "client/advisor/lr_choice.hpp"
#include "client/advisor/run_cost.hpp"
#include "client/library/preset_file.hpp"

#include <QJsonObject>

#include <cmath>
#include <utility>

namespace ddplab::ui::test {

// The Fashion-MNIST MLP: 1 GPU x 32, SGD with momentum 0.9 at LR 0.0585, 16,384 samples,
// to 8 GPUs of at most 64 with a 300 s budget.
inline AdviceRequest fashionMlpRequest()
{
    AdviceRequest request;
    QString error;
    const std::optional<ddplab::Config> base = coreConfigOf(QJsonObject{{QStringLiteral("workload"), QStringLiteral("fashion_mnist")},
                                                                        {QStringLiteral("model"), QStringLiteral("mlp")},
                                                                        {QStringLiteral("train_subset"), 16384},
                                                                        {QStringLiteral("epochs"), 1},
                                                                        {QStringLiteral("batch_size"), 32},
                                                                        {QStringLiteral("world_size"), 1},
                                                                        {QStringLiteral("optimizer"), QStringLiteral("sgd")},
                                                                        {QStringLiteral("momentum"), 0.9},
                                                                        {QStringLiteral("lr"), 0.0585}},
                                                            &error);
    request.base = *base;
    request.gpus = 8;
    request.maxBatchPerGpu = 64;
    request.budgetSeconds = 300;
    request.layers = builtInLayers(request.base);
    return request;
}

// The panel's autoencoder and gru as a plan sees them: 2 epochs of 4,096 (8,192 samples), Adam
// at 0.005, 1 x 32.
inline AdviceRequest adamOverTwoEpochsOf4096()
{
    AdviceRequest request = fashionMlpRequest();
    request.base.trainSubset = 4096;
    request.base.epochs = 2;
    request.base.optimizer = ddplab::OptimizerKind::Adam;
    request.base.lr = 0.005;
    request.base.momentum = 0.0;
    return request;
}

// A branch test's context once the base run has measured `cost`, with `secondsLeft` of the budget.
inline PlanContext planContextAfterBase(const AdviceRequest& request, const RunCost& cost, double secondsLeft)
{
    PlanContext context;
    context.request = request;
    context.checkpointStep = planBase(request).checkpointStep;
    context.checkpoint = QStringLiteral("/tmp/step.pt");
    context.cost = cost;
    context.secondsLeft = secondsLeft;
    return context;
}

inline QList<BracketPoint> ladderOf(const QList<std::pair<double, QList<double>>>& rungs)
{
    QList<BracketPoint> points;
    for (const auto& [lr, measures] : rungs)
        points.append({lr, measures});
    return points;
}

inline bool sameLr(double a, double b)
{
    return std::abs(a / b - 1.0) < 1e-9;
}

}  // namespace ddplab::ui::test
