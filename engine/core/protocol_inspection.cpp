// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_inspection.hpp"

#include "config_keys.hpp"
#include "derived.hpp"
#include "protocol_names.hpp"

namespace ddplab::protocol {
namespace {

Json tensorJson(const NamedTensorFacts& facts, bool withTrainable)
{
    Json entry;
    entry[inspection::kName] = facts.name;
    entry[inspection::kShape] = facts.tensor.shape;
    entry[inspection::kDtype] = facts.tensor.dtype;
    if (withTrainable)
        entry[inspection::kTrainable] = facts.trainable;
    return entry;
}

Json dataJson(const DataFacts& data)
{
    Json entry;
    entry[inspection::kPath] = data.path;
    entry[inspection::kFormat] = data.format;
    entry[field::kSamples] = data.samples;
    entry[inspection::kInputsShape] = data.inputs.shape;
    entry[inspection::kInputsDtype] = data.inputs.dtype;
    entry[inspection::kTargetsShape] = data.targets.shape;
    entry[inspection::kTargetsDtype] = data.targets.dtype;
    entry[inspection::kBytes] = data.inputs.bytes + data.targets.bytes;
    return entry;
}

Json keyValue(const Config& config, const char* name)
{
    return findConfigKey(name)->read(config);
}

}  // namespace

Json inspectionEvent(const Config& config, const InspectionReport& r)
{
    Json event;
    event[field::kType] = type::kInspection;
    event[key::kModelFile] = r.modelFile;
    event[inspection::kForwardSignature] = r.forwardSignature;
    event[field::kTorchVersion] = r.torchVersion;

    int64_t trainable = 0, frozen = 0, tensors = 0, bytes = 0, bufferBytes = 0;
    Json parameters = Json::array(), buffers = Json::array();
    for (const NamedTensorFacts& parameter : r.parameters) {
        int64_t elements = 1;
        for (int64_t size : parameter.tensor.shape)
            elements *= size;
        (parameter.trainable ? trainable : frozen) += elements;
        tensors += parameter.trainable ? 1 : 0;
        bytes += parameter.tensor.bytes;
        parameters.push_back(tensorJson(parameter, true));
    }
    for (const NamedTensorFacts& buffer : r.buffers) {
        bufferBytes += buffer.tensor.bytes;
        buffers.push_back(tensorJson(buffer, false));
    }
    // As the config event counts them: what is trained.
    event[field::kParameterCount] = trainable;
    event[field::kParameterTensors] = tensors;
    event[inspection::kFrozenParameterCount] = frozen;
    event[inspection::kParameterBytes] = bytes;
    event[field::kParameters] = parameters;
    event[inspection::kBuffers] = buffers;
    event[inspection::kBufferBytes] = bufferBytes;

    event[key::kLoss] = keyValue(config, key::kLoss);
    event[key::kTrainData] = dataJson(r.train);
    if (r.val)
        event[key::kValData] = dataJson(*r.val);

    Json batch;
    batch[field::kSamples] = r.batchInputs.shape.empty() ? 0 : r.batchInputs.shape.front();
    batch[inspection::kInputsShape] = r.batchInputs.shape;
    batch[inspection::kInputsDtype] = r.batchInputs.dtype;
    batch[inspection::kTargetsShape] = r.batchTargets.shape;
    batch[inspection::kTargetsDtype] = r.batchTargets.dtype;
    batch[inspection::kOutputShape] = r.output.shape;
    batch[inspection::kOutputDtype] = r.output.dtype;
    batch[field::kLoss] = r.firstLoss;
    batch[inspection::kStepSeconds] = r.stepSeconds;
    batch[inspection::kStepTakes] = r.stepTakes;
    batch[inspection::kStepCpuSeconds] = r.stepCpuSeconds;
    batch[inspection::kStepCpuTakes] = r.stepCpuTakes;
    event[inspection::kFirstBatch] = batch;
    event[inspection::kLossFit] = r.lossFit;
    if (r.classes)
        event[inspection::kClasses] = *r.classes;

    // What follows from the number of samples, as the run's config event will say it.
    event[field::kDatasetSize] = datasetSize(config);
    event[field::kStepsPerEpoch] = stepsPerEpoch(config);
    event[field::kTotalSteps] = totalSteps(config);
    event[field::kEffectiveBatchSize] = effectiveBatchSize(config);
    event[field::kLrEffective] = effectiveLr(config);

    Json memory;
    memory[inspection::kPerRankBytes] = r.memory.perRank();
    memory[inspection::kParameterBytes] = r.memory.parameters;
    memory[inspection::kBufferBytes] = r.memory.buffers;
    memory[inspection::kGradientBytes] = r.memory.gradients;
    memory[inspection::kOptimizerBytes] = r.memory.optimizerState;
    memory[inspection::kStepBytes] = r.memory.step;
    memory[inspection::kProcessBytes] = r.memory.process;
    memory[inspection::kDataBytes] = r.memory.data;
    memory[inspection::kDataShared] = r.memory.dataShared;
    event[inspection::kMemory] = memory;
    event[inspection::kLayers] = Json{{inspection::kBatchNorm, r.batchNormLayers}, {inspection::kDropout, r.dropoutLayers},
                                      {inspection::kLayerNorm, r.layerNormLayers}};
    return event;
}

void countLayers(const std::vector<std::string>& moduleKinds, InspectionReport& report)
{
    for (const std::string& kind : moduleKinds) {
        // The class's own name, after the last dot ("BatchNorm2d", "___torch_mangle_3.Dropout").
        const std::string name = kind.substr(kind.rfind('.') == std::string::npos ? 0 : kind.rfind('.') + 1);
        if (name.find("BatchNorm") != std::string::npos)
            ++report.batchNormLayers;
        else if (name.find("Dropout") != std::string::npos)
            ++report.dropoutLayers;
        else if (name == "LayerNorm")
            ++report.layerNormLayers;
    }
}

}  // namespace ddplab::protocol
