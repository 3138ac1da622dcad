// SPDX-License-Identifier: GPL-3.0-or-later
#include "model_inspector.hpp"

#include "client/wire.hpp"

#include <QJsonDocument>

namespace ddplab::ui {
namespace {

// Typing a path must not start an engine per keystroke.
constexpr int kPauseMs = 400;

// The keys the inspection depends on: the model, the data and the loss, what the memory per
// rank depends on (the batch, the optimizer's state), and how long the check may take (a forward
// that never returns is stopped after model_check_timeout, else collective_timeout). The rest
// keep their defaults there.
QJsonObject inspectedKeys(const QJsonObject& settings)
{
    QJsonObject request;
    for (const char* name : {key::kWorkload, key::kModelFile, key::kTrainData, key::kValData, key::kLoss, key::kBatchSize,
                             key::kOptimizer, key::kMomentum, key::kTrainSubset, key::kDevice, key::kModelCheckTimeout,
                             key::kCollectiveTimeout}) {
        if (settings.contains(wire(name)))
            request.insert(wire(name), settings.value(wire(name)));
    }
    return request;
}

}  // namespace

ModelInspector::ModelInspector(QString localEngine, QObject* parent)
    : QObject(parent), m_localEngine(std::move(localEngine))
{
    m_pause.setSingleShot(true);
    m_pause.setInterval(kPauseMs);
    connect(&m_pause, &QTimer::timeout, this, &ModelInspector::start);
    connect(&m_query, &EngineQuery::finished, this, &ModelInspector::onFinished);
}

void ModelInspector::setTarget(const EngineTarget& target)
{
    if (target == m_target)
        return;
    m_target = target;
    m_inspected = QJsonObject();  // the paths mean files over there now
    m_query.cancel();             // its answer is about the other machine's files
    if (applies())
        m_pause.start();
}

void ModelInspector::inspect(const QJsonObject& settings)
{
    const bool ownModel = settings.value(wire(key::kWorkload)).toString() == wire(choice::workload::kTorchScript) &&
                          !settings.value(wire(key::kModelFile)).toString().isEmpty() &&
                          !settings.value(wire(key::kTrainData)).toString().isEmpty();
    const QJsonObject request = ownModel ? inspectedKeys(settings) : QJsonObject();
    if (request == m_request)
        return;
    m_request = request;
    // An inspection of other settings answers nothing asked any more: it is ended now, not
    // waited on (a model whose forward never returns would hold a core until it was).
    m_query.cancel();
    if (!applies()) {
        m_pause.stop();
        m_inspection.reset();
        m_problem.reset();
        m_inspected = QJsonObject();
        emit changed();
        return;
    }
    if (request != m_inspected) {
        m_pause.start();
    } else {
        m_pause.stop();  // back to the settings the answer shown is for
        emit changed();
    }
}

bool ModelInspector::isRunning() const
{
    return m_pause.isActive() || m_query.isRunning();
}

void ModelInspector::start()
{
    if (!applies())
        return;
    const EngineCommand command = engineCommand(m_target, m_localEngine, {QStringLiteral("inspect"), QStringLiteral("--config"),
                                                                          QStringLiteral("-")});
    m_asked = m_request;
    m_query.start(command.program, command.arguments, QJsonDocument(m_request).toJson(QJsonDocument::Compact),
                  wire(type::kInspection));
    emit changed();
}

void ModelInspector::onFinished(const QueryResult& result)
{
    m_inspected = m_asked;
    m_inspection.reset();
    m_problem.reset();
    if (result.ok) {
        m_inspection = ModelInspection::fromJson(result.object);
        if (!m_inspection)
            m_problem = InspectionProblem{QString(), tr("ddplab-engine inspect answered with no inspection")};
    } else if (result.object.value(wire(field::kType)).toString() == wire(type::kError)) {
        // The engine's own sentence, under the field it names.
        m_problem = InspectionProblem{result.object.value(wire(field::kKey)).toString(),
                                      result.object.value(wire(field::kMessage)).toString()};
    } else {
        const QString remote = m_target.isRemote() ? explainRemoteFailure(m_target, result.exitCode, result.stderrText) : QString();
        m_problem = InspectionProblem{QString(), remote.isEmpty() ? result.error : remote};
    }
    if (m_inspected != m_request && applies())
        m_pause.start();  // the settings changed while it ran
    emit changed();
}

}  // namespace ddplab::ui
