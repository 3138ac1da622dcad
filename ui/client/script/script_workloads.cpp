// SPDX-License-Identifier: GPL-3.0-or-later
// Each workload's data, model and loss in PyTorch, as the engine builds them
// (engine/workloads/): the same generator and order of draws for toy and linreg, the same
// layers and initialisation seed for Fashion-MNIST, the user's own files for torchscript.

#include "script_workloads.hpp"

#include "client/script/script_text.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"
#include "core/workload_table.hpp"

#include <QStringList>

#include <stdexcept>
#include <string_view>

namespace ddplab::ui::script {
namespace {

// engine/workloads/linreg_workload.cpp: kInputScale, kInitScale.
constexpr double kLinregInputScale = 0.1;
constexpr double kLinregInitScale = 0.1;
// engine/workloads/torchscript_workload.cpp: rank r of a run with seed s draws from s * 1000 + r.
constexpr int kRankSeedStride = 1000;

WorkloadCode toyCode(const Config& c)
{
    WorkloadCode code;
    code.settings = filled(QStringLiteral(R"(NUM_EXAMPLES = @N@
NOISE = @NOISE@  # sigma of the Gaussian noise on inputs and targets
DATA_SEED = @DATA_SEED@  # the data's generator (data_seed, else SEED): another SEED is another order of it
)"),
                           {{"@N@", pyInt(c.numExamples)}, {"@NOISE@", pyFloat(c.noise)}, {"@DATA_SEED@", pyInt(dataSeed(c))}});
    const QString data = c.noise > 0 ? QStringLiteral(R"(def make_data():
    """Inputs 1 and targets 0, each with Gaussian noise of NOISE, from one generator seeded DATA_SEED."""
    g = torch.Generator().manual_seed(DATA_SEED)
    inputs = 1.0 + NOISE * torch.randn(NUM_EXAMPLES, generator=g)
    targets = NOISE * torch.randn(NUM_EXAMPLES, generator=g)
    return TensorDataset(inputs, targets)
)")
                                     : QStringLiteral(R"(def make_data():
    """Every input is 1 and every target 0 (no noise)."""
    return TensorDataset(torch.ones(NUM_EXAMPLES), torch.zeros(NUM_EXAMPLES))
)");
    code.functions = QStringLiteral(R"(# ---- data, model and loss: seed 000's single neuron ----------------------------------------
)") + data + QStringLiteral(R"(

class Neuron(nn.Module):
    """One weight, starting at 1: the prediction is w * x."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return self.weight * x


def loss_of(output, targets):
    """The mean absolute error over the batch."""
    return (output - targets).abs().mean()
)");
    code.build = QStringLiteral("    dataset = make_data()\n    model = Neuron().to(device)\n");
    code.forward = QStringLiteral("loss_of(ddp(inputs), targets)");
    code.lossSum = QStringLiteral("loss.detach().double() * len(targets)");
    code.trained = QStringLiteral("model.parameters()");
    return code;
}

WorkloadCode linregCode(const Config& c)
{
    const bool summed = c.lossReduction == LossReduction::Sum;
    WorkloadCode code;
    code.settings = filled(QStringLiteral(R"(NUM_EXAMPLES = @N@
DIM = @DIM@  # input dimension
NOISE = @NOISE@  # sigma of the target noise
INPUT_SCALE = @INPUT@  # inputs are N(0, INPUT_SCALE^2)
INIT_SCALE = @INIT@  # and so are the starting weights
DATA_SEED = @DATA_SEED@  # the data's and the start's generator (data_seed, else SEED): another SEED is another order of it
)"),
                           {{"@N@", pyInt(c.numExamples)},
                            {"@DIM@", pyInt(c.dim)},
                            {"@NOISE@", pyFloat(c.noise)},
                            {"@INPUT@", pyFloat(kLinregInputScale)},
                            {"@INIT@", pyFloat(kLinregInitScale)},
                            {"@DATA_SEED@", pyInt(dataSeed(c))}});
    code.functions = QStringLiteral(R"(# ---- data, model and loss: seed 004's linear regression -------------------------------------
def make_data():
    """The data and the starting weights from one generator seeded DATA_SEED, drawn in this order."""
    g = torch.Generator().manual_seed(DATA_SEED)
    true_weight = torch.randn(DIM, generator=g)
    inputs = INPUT_SCALE * torch.randn(NUM_EXAMPLES, DIM, generator=g)
    noise = torch.randn(NUM_EXAMPLES, generator=g)
    targets = (inputs * true_weight).sum(1) + NOISE * noise
    start = INIT_SCALE * torch.randn(DIM, generator=g)
    return TensorDataset(inputs, targets), start


def make_model(start):
    """y = w . x, no intercept, w starting at `start`."""
    model = nn.Linear(DIM, 1, bias=False)
    with torch.no_grad():
        model.weight.copy_(start.unsqueeze(0))
    return model


)") + (summed ? QStringLiteral(R"(def loss_of(output, targets):
    """Squared errors summed over the batch (loss_reduction sum, as seed 004's main.py): SGD's step
    grows with the batch."""
    return ((output.squeeze(1) - targets) ** 2).sum()
)")
              : QStringLiteral(R"(def loss_of(output, targets):
    """Squared errors averaged over the batch (loss_reduction mean)."""
    return ((output.squeeze(1) - targets) ** 2).mean()
)"));
    code.build = QStringLiteral("    dataset, start = make_data()\n    model = make_model(start).to(device)\n");
    code.forward = QStringLiteral("loss_of(ddp(inputs), targets)");
    // The lab reports squared errors per example either way.
    code.lossSum = summed ? QStringLiteral("loss.detach().double()") : QStringLiteral("loss.detach().double() * len(targets)");
    code.trained = QStringLiteral("model.parameters()");
    return code;
}

WorkloadCode fashionCode(const Config& c)
{
    WorkloadCode code;
    code.imports = QStringLiteral("import gzip\n");
    code.settings = filled(QStringLiteral(R"(DATA_DIR = @DIR@  # Fashion-MNIST's *-ubyte.gz files
TRAIN_SUBSET = @SUBSET@  # train on the first N images only (0: all 60,000)
PIXEL_MEAN, PIXEL_STD = 0.2860, 0.3530  # of the training pixels in [0, 1]
)"),
                           {{"@DIR@", pyString(QString::fromStdString(c.dataDir))}, {"@SUBSET@", pyInt(c.trainSubset)}});
    // engine/workloads/fashion_models.cpp, layer for layer: torch::nn's modules initialise
    // their weights as torch.nn's do, in the same order.
    const QString model = c.model == ModelKind::Cnn ? QStringLiteral(R"(def make_model():
    """The lab's CNN: two 3x3 convolutions (32, 64 channels) with 2x2 max-pools, then 128 hidden
    units. Every rank builds it from the same seed, as DDP's start from rank 0 would give anyway."""
    torch.manual_seed(SEED)
    # Made last to first, the order the lab's C++ makes them in, one statement each: that is
    # the order they draw their initial weights in.
    fc2 = nn.Linear(128, 10)
    fc1 = nn.Linear(64 * 7 * 7, 128)
    conv2 = nn.Conv2d(32, 64, 3, padding=1)
    conv1 = nn.Conv2d(1, 32, 3, padding=1)
    return nn.Sequential(conv1, nn.ReLU(), nn.MaxPool2d(2), conv2, nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         fc1, nn.ReLU(), fc2)
)")
                                    : c.model == ModelKind::MlpBatchNorm ? QStringLiteral(R"(def make_model():
    """The lab's MLP with BatchNorm: 784 -> 256 -> 128 -> 10, BatchNorm1d after each hidden layer.
    Every rank builds it from the same seed; DDP broadcasts rank 0's running statistics."""
    torch.manual_seed(SEED)
    # Made last to first, the order the lab's C++ makes them in, one statement each: that is
    # the order they draw their initial weights in (BatchNorm1d starts at 1 and 0, drawing none).
    fc3 = nn.Linear(128, 10)
    fc2 = nn.Linear(256, 128)
    fc1 = nn.Linear(28 * 28, 256)
    return nn.Sequential(nn.Flatten(), fc1, nn.BatchNorm1d(256), nn.ReLU(), fc2, nn.BatchNorm1d(128), nn.ReLU(), fc3)
)")
                                                    : QStringLiteral(R"(def make_model():
    """The lab's MLP: 784 -> 256 -> 128 -> 10. Every rank builds it from the same seed, as DDP's
    start from rank 0 would give anyway."""
    torch.manual_seed(SEED)
    # Made last to first, the order the lab's C++ makes them in, one statement each: that is
    # the order they draw their initial weights in.
    fc3 = nn.Linear(128, 10)
    fc2 = nn.Linear(256, 128)
    fc1 = nn.Linear(28 * 28, 256)
    return nn.Sequential(nn.Flatten(), fc1, nn.ReLU(), fc2, nn.ReLU(), fc3)
)");
    code.functions = QStringLiteral(R"(# ---- data, model and loss: Fashion-MNIST -----------------------------------------------------
def read_idx(name, header_bytes):
    with gzip.open(os.path.join(os.path.expanduser(DATA_DIR), name)) as f:
        return torch.frombuffer(bytearray(f.read()), dtype=torch.uint8, offset=header_bytes)


def make_data():
    """The training images scaled to [0, 1] and normalised, with their labels."""
    images = read_idx("train-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28)
    labels = read_idx("train-labels-idx1-ubyte.gz", 8).long()
    if TRAIN_SUBSET > 0:
        images, labels = images[:TRAIN_SUBSET], labels[:TRAIN_SUBSET]
    return TensorDataset((images.float() / 255.0 - PIXEL_MEAN) / PIXEL_STD, labels)


)") + model + QStringLiteral(R"(

def loss_of(output, targets):
    return F.cross_entropy(output, targets)
)");
    code.build = QStringLiteral("    dataset = make_data()\n    model = make_model().to(device)\n");
    code.forward = QStringLiteral("loss_of(ddp(inputs), targets)");
    code.lossSum = QStringLiteral("loss.detach().double() * len(targets)");
    code.trained = QStringLiteral("model.parameters()");
    return code;
}

QString torchScriptLoss(LossKind loss)
{
    switch (loss) {
    case LossKind::CrossEntropy:
        return QStringLiteral(R"(def loss_of(output, targets):
    """Cross entropy averaged over every position of every sample: the class scores are the
    output's last dimension ([N, C], or [N, ..., C] as a language model's)."""
    return F.cross_entropy(output.reshape(-1, output.size(-1)), targets.reshape(-1))
)");
    case LossKind::Mse:
        return QStringLiteral(R"(def loss_of(output, targets):
    return F.mse_loss(output, targets.to(output.dtype))
)");
    case LossKind::L1:
        return QStringLiteral(R"(def loss_of(output, targets):
    return F.l1_loss(output, targets.to(output.dtype))
)");
    case LossKind::BceWithLogits:
        return QStringLiteral(R"(def loss_of(output, targets):
    return F.binary_cross_entropy_with_logits(output, targets.to(output.dtype))
)");
    case LossKind::Model:
        break;
    }
    return QString();  // forward(inputs, targets) returns the loss itself
}

WorkloadCode torchScriptCode(const Config& c)
{
    WorkloadCode code;
    code.settings = filled(QStringLiteral(R"(MODEL_FILE = @MODEL@
TRAIN_DATA = @DATA@
TRAIN_SUBSET = @SUBSET@  # train on the first N samples only (0: all)
RANK_SEED_STRIDE = @STRIDE@  # rank r's random generator is seeded SEED * RANK_SEED_STRIDE + r
)"),
                           {{"@MODEL@", pyString(QString::fromStdString(c.modelFile))},
                            {"@DATA@", pyString(QString::fromStdString(c.trainData))},
                            {"@SUBSET@", pyInt(c.trainSubset)},
                            {"@STRIDE@", pyInt(kRankSeedStride)}});
    if (!c.saveModel.empty())
        code.settings += filled(QStringLiteral("SAVE_MODEL = @SAVE@  # rank 0 writes the trained model here\n"),
                                {{"@SAVE@", pyString(QString::fromStdString(c.saveModel))}});
    const bool classIndices = c.loss == LossKind::CrossEntropy;
    code.functions = filled(QStringLiteral(R"(# ---- data, model and loss: your own --------------------------------------------------------
def make_data():
    """TRAIN_DATA: a torch.save({"inputs": X, "targets": Y}) file, or a folder of inputs.npy and
    targets.npy; samples along the first dimension."""
    path = os.path.expanduser(TRAIN_DATA)
    if os.path.isdir(path):
        import numpy as np
        inputs = torch.from_numpy(np.load(os.path.join(path, "inputs.npy")))
        targets = torch.from_numpy(np.load(os.path.join(path, "targets.npy")))
    else:
        data = torch.load(path)
        inputs, targets = data["inputs"], data["targets"]
    if TRAIN_SUBSET > 0:
        inputs, targets = inputs[:TRAIN_SUBSET], targets[:TRAIN_SUBSET]
    return TensorDataset(inputs, @TARGETS@


)"),
                            {{"@TARGETS@", classIndices ? QStringLiteral("targets.long())  # class indices as int64") : QStringLiteral("targets)")}}) +
                     torchScriptLoss(c.loss);
    code.build = QStringLiteral(R"(    dataset = make_data()
    model = torch.jit.load(os.path.expanduser(MODEL_FILE), map_location=device)
    # Dropout and any other randomness: rank r draws from its own generator, as the lab's ranks do.
    torch.manual_seed(SEED * RANK_SEED_STRIDE + rank)
)");
    code.forward = c.loss == LossKind::Model ? QStringLiteral("ddp(inputs, targets).reshape(())  # forward returns the batch's mean loss")
                                             : QStringLiteral("loss_of(ddp(inputs), targets)");
    code.lossSum = QStringLiteral("loss.detach().double() * len(targets)");
    // Frozen parameters (requires_grad False) are neither trained nor synchronised.
    code.trained = QStringLiteral("[p for p in model.parameters() if p.requires_grad]");
    return code;
}

using CodeOf = WorkloadCode (*)(const Config&);

// Each workload's part of a script, by the name of its row (core/workload_table.hpp); null for
// a workload it has none for.
CodeOf codeOf(const Config& config)
{
    struct Entry {
        const char* workload;
        CodeOf code;
    };
    static constexpr Entry kCodes[] = {
        {choice::workload::kToy, toyCode},
        {choice::workload::kLinreg, linregCode},
        {choice::workload::kFashionMnist, fashionCode},
        {choice::workload::kTorchScript, torchScriptCode},
    };
    const std::string_view name = traitsOf(config).name;
    for (const Entry& entry : kCodes) {
        if (name == entry.workload)
            return entry.code;
    }
    return nullptr;
}

}  // namespace

QString workloadRefusal(const Config& config)
{
    if (codeOf(config))
        return {};
    return QStringLiteral("The script generator has no PyTorch code for workload %1 (ui/client/script/script_workloads.cpp), "
                          "so it writes no script of it.")
        .arg(QString::fromUtf8(traitsOf(config).name));
}

WorkloadCode workloadCode(const Config& config)
{
    if (const CodeOf code = codeOf(config))
        return code(config);
    throw std::logic_error(workloadRefusal(config).toStdString());  // pytorchScriptOf refuses first: a programming error
}

}  // namespace ddplab::ui::script
