// SPDX-License-Identifier: GPL-3.0-or-later
#include "torchscript_model.hpp"

#include "core/config_error.hpp"
#include "core/config_validate.hpp"
#include "core/home_path.hpp"
#include "core/key_names.hpp"
#include "core/wording.hpp"
#include "data/torch_save_archive.hpp"
#include "data/zip_directory.hpp"
#include "saved_model_file.hpp"
#include "train/no_deterministic_kernel.hpp"

#include <torch/csrc/jit/serialization/import.h>
#include <torch/version.h>

#include <cerrno>
#include <cstring>
#include <regex>
#include <sstream>
#include <sys/stat.h>

namespace ddplab {
namespace {

// Compile errors of a model's serialized code that mean "written by a newer PyTorch": an
// operator, a type or an argument this LibTorch does not know.
const char* const kNewerCodeSigns[] = {"Unknown builtin op", "Unknown type name", "Unknown type constructor",
                                       "unexpected keyword argument", "Keyword argument", "Arguments for call are not valid",
                                       "is not a member of"};

constexpr char kHowToSave[] = "save it with torch.jit.script(model).save(PATH), or torch.jit.trace(model, example).save(PATH)";

std::string exportAgain()
{
    return std::string("export it again with PyTorch ") + TORCH_VERSION +
           " (Debian 12's python3-torch: /usr/bin/python3), whose LibTorch this engine uses (docs/own-model.md)";
}

std::string firstLine(const std::string& text)
{
    const size_t start = text.find_first_not_of("\n ");
    if (start == std::string::npos)
        return "";
    return text.substr(start, text.find('\n', start) - start);
}

// The model's own message: TorchScript puts it on the last line, after its tracebacks.
std::string lastLine(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    const size_t newline = text.rfind('\n');
    return newline == std::string::npos ? text : text.substr(newline + 1);
}

[[noreturn]] void refuse(const std::string& path, const std::string& problem)
{
    throw ConfigError(key::kModelFile, std::string(key::kModelFile) + " " + path + " " + problem);
}

[[noreturn]] void refuseLoad(const std::string& path, const std::string& message)
{
    static const std::regex kVersion("with version (\\d+), but the maximum supported version for reading is (\\d+)");
    std::smatch version;
    if (std::regex_search(message, version, kVersion))
        refuse(path, "was saved by a newer PyTorch than this engine's LibTorch " + std::string(TORCH_VERSION) +
                         ": its file format version is " + version[1].str() + ", LibTorch " + TORCH_VERSION + " reads up to " +
                         version[2].str() + "; " + exportAgain());
    for (const char* sign : kNewerCodeSigns) {
        if (message.find(sign) != std::string::npos)
            refuse(path, "uses what this engine's LibTorch " + std::string(TORCH_VERSION) + " does not know (" + firstLine(message) +
                             "): it was most likely saved by a newer PyTorch; " + exportAgain());
    }
    if (message.find("constants.pkl") != std::string::npos)
        refuse(path, "is not a TorchScript file but a torch.save file (a state_dict or a pickled model, which need the "
                     "model's Python code); " + std::string(kHowToSave));
    if (message.find("zip archive") != std::string::npos || message.find("central directory") != std::string::npos)
        refuse(path, "is not a TorchScript file (not even a zip archive); " + std::string(kHowToSave));
    refuse(path, "could not be loaded as a TorchScript file (" + firstLine(message) + "); " + kHowToSave);
}

// LibTorch allocates each entry of the archive at the size its directory claims before it
// inflates it: a model of a few megabytes can claim gigabytes. A file that is no zip archive
// is left to torch::jit::load, whose refusal says more.
void requireUnpackedFits(const std::string& path)
{
    std::vector<ZipEntry> entries;
    try {
        entries = readZipDirectory(path);
    } catch (const std::exception&) {
        return;
    }
    const uint64_t unpacked = unpackedBytes(entries);
    const MachineResources machine = thisMachine();
    if (machine.memoryAvailableBytes > 0 && double(unpacked) > double(machine.memoryAvailableBytes))
        refuse(path, "unpacks to " + gibText(double(unpacked)) + ", more than the " + gibText(double(machine.memoryAvailableBytes)) +
                         " of memory this machine has available: it is damaged or not a model; " + kHowToSave);
}

}  // namespace

TorchScriptModel::TorchScriptModel(const std::string& path, LossKind loss) : m_path(expandHome(path))
{
    struct stat info {};
    if (::stat(m_path.c_str(), &info) != 0)
        refuse(m_path, errno == ENOENT ? "does not exist" : std::string("cannot be read: ") + std::strerror(errno));
    if (S_ISDIR(info.st_mode))
        refuse(m_path, "is a folder, not a TorchScript file");
    if (!S_ISREG(info.st_mode))
        refuse(m_path, "is not a regular file (a FIFO, a socket or a device); " + std::string(kHowToSave));
    requireUnpackedFits(m_path);
    try {
        requireReadableModelArchive(m_path);
    } catch (const UnreadableRecord& error) {
        refuse(m_path, std::string(error.what()) + "; " + kHowToSave);
    } catch (const std::exception&) {
        // Not an archive LibTorch's zip reader opens: torch::jit::load's refusal says more.
    }
    try {
        m_module = std::make_unique<torch::jit::Module>(torch::jit::load(m_path));
    } catch (const std::exception& error) {
        refuseLoad(m_path, error.what());
    }
    const auto forward = m_module->find_method("forward");
    if (!forward)
        refuse(m_path, "has no forward method");
    // The schema's first argument is the module itself.
    const size_t arguments = forward->function().getSchema().arguments().size() - 1;
    m_passesTargets = loss == LossKind::Model;
    const size_t expected = m_passesTargets ? 2 : 1;
    if (arguments != expected) {
        const std::string found = "its " + signature() + " takes " + std::to_string(arguments) + " argument" +
                                  (arguments == 1 ? "" : "s");
        refuse(m_path, m_passesTargets
                           ? found + ", but loss model calls forward(inputs, targets) and takes the loss it returns"
                           : found + ", but the lab calls forward(inputs) and applies the loss itself; a model whose forward "
                                     "computes its own loss from (inputs, targets) needs \"loss\": \"model\"");
    }
}

TorchScriptModel::~TorchScriptModel() = default;

std::string TorchScriptModel::signature() const
{
    const c10::FunctionSchema& schema = m_module->get_method("forward").function().getSchema();
    std::string text = "forward(";
    for (size_t i = 1; i < schema.arguments().size(); ++i) {
        const c10::Argument& argument = schema.arguments()[i];
        text += (i > 1 ? ", " : "") + argument.type()->annotation_str() + " " + argument.name();
    }
    text += ") -> ";
    for (size_t i = 0; i < schema.returns().size(); ++i)
        text += (i ? ", " : "") + schema.returns()[i].type()->annotation_str();
    return text;
}

std::vector<NamedTensor> TorchScriptModel::parameters() const
{
    std::vector<NamedTensor> named;
    for (const auto& parameter : m_module->named_parameters())
        named.push_back({parameter.name, parameter.value});
    return named;
}

std::vector<NamedTensor> TorchScriptModel::buffers() const
{
    std::vector<NamedTensor> named;
    for (const auto& buffer : m_module->named_buffers())
        named.push_back({buffer.name, buffer.value});
    return named;
}

std::vector<std::string> TorchScriptModel::moduleKinds() const
{
    std::vector<std::string> kinds;
    for (const auto& module : m_module->named_modules())
        if (const auto name = module.value.type()->name())
            kinds.push_back(name->qualifiedName());
    return kinds;
}

void TorchScriptModel::to(const c10::Device& device)
{
    m_module->to(device);
}

void TorchScriptModel::setTraining(bool on)
{
    if (m_training == int(on))
        return;
    m_module->train(on);
    m_training = int(on);
}

at::Tensor TorchScriptModel::forward(const at::Tensor& inputs, const at::Tensor& targets)
{
    c10::IValue output;
    try {
        output = m_passesTargets ? m_module->forward({inputs, targets}) : m_module->forward({inputs});
    } catch (const std::exception& error) {
        // Not the model's fault: deterministic true met an operation without such a kernel.
        const std::string operation = operationWithoutDeterministicKernel(error.what());
        if (!operation.empty())
            throw ConfigError(key::kDeterministic, noDeterministicKernelSentence("in " + std::string(key::kModelFile) + " " + m_path + "'s forward,", operation));
        throw ForwardError(lastLine(error.what()));
    }
    if (!output.isTensor())
        throw ForwardError("forward returned a " + output.tagKind() + "; the lab needs it to return one tensor" +
                           (m_passesTargets ? " (the loss)" : " (the predictions)"));
    return output.toTensor();
}

void TorchScriptModel::save(const std::string& path) const
{
    const std::string target = expandHome(path);
    std::ostringstream bytes;
    try {
        m_module->save(bytes, {{kSavedModelMarker, kSavedModelMarkerText}});
    } catch (const std::exception& error) {
        throw ConfigError(key::kSaveModel, std::string(key::kSaveModel) + " " + target + " could not be written: " + firstLine(error.what()));
    }
    writeSavedModel(target, bytes.str());
}

}  // namespace ddplab
