// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Workload torchscript: the user's own TorchScript model on the user's own data
// (docs/own-model.md). Every rank loads the model, takes the data the launcher read (shared
// pages), and before anything trains runs one forward on the first batch to check that model,
// data and loss fit together; each mismatch is one sentence naming the key and the file.
// Batches are gathered on the CPU and moved to the rank's device; train() while training,
// eval() while evaluating; randomness in the model (dropout) draws from a generator seeded
// with seed * 1000 + rank, so a run repeats exactly.

#include "core/config.hpp"
#include "train/workload.hpp"

#include <c10/core/Device.h>

#include <memory>

namespace ddplab {

class TorchScriptModel;
struct NamedTensor;
struct TensorData;

// What the check on the first batch saw (the inspection reports it).
struct FirstBatch {
    at::Tensor inputs;
    at::Tensor targets;  // as the loss takes them (cross_entropy: int64)
    at::Tensor output;   // forward's, in eval() mode
};

class TorchScriptWorkload final : public Workload {
public:
    // Throws ConfigError (model_file, loss, ...) or DataError (train_data, val_data).
    TorchScriptWorkload(const Config& config, const c10::Device& device, int rank);
    ~TorchScriptWorkload() override;

    std::vector<at::Tensor> parameters() override;  // those that require a gradient
    std::vector<std::string> parameterNames() const override;
    std::vector<at::Tensor> buffers() override;
    int64_t datasetSize() const override;  // train_data's samples, or the first train_subset
    bool classifies() const override { return m_loss == LossKind::CrossEntropy; }
    bool evaluates() const override { return m_val != nullptr; }
    Batch fetch(const at::Tensor& indices) override;
    ForwardResult forward(const Batch& batch) override;
    std::optional<EvalResult> evaluate(Communicator& comm) override;
    std::optional<EvalResult> measureTraining(Communicator& comm) override;  // the first 2,000 samples
    void saveModel(const std::string& path) override;

    TorchScriptModel& model() { return *m_model; }
    const TensorData& trainData() const { return *m_train; }
    const TensorData* valData() const { return m_val; }
    const FirstBatch& firstBatch() const { return m_first; }

private:
    std::vector<NamedTensor> trained() const;
    Batch gather(const TensorData& data, const at::Tensor& rows) const;
    EvalResult meanOver(const TensorData& data, int64_t count, Communicator& comm, const std::string& doing);
    void checkFirstBatch();
    void checkTargets(const TensorData& data, const std::string& key) const;
    void checkLike(const TensorData& val) const;

    std::unique_ptr<TorchScriptModel> m_model;
    const TensorData* m_train = nullptr;
    const TensorData* m_val = nullptr;
    LossKind m_loss;
    c10::Device m_device;
    int64_t m_batchSize;
    int64_t m_trainSubset;  // 0: every sample
    int64_t m_valSubset;    // 0: every validation sample
    FirstBatch m_first;
};

}  // namespace ddplab
