// SPDX-License-Identifier: GPL-3.0-or-later
// main() of a PyTorch script: the process group torchrun's environment describes, the model
// under DistributedDataParallel, the data each rank takes, and the optimizer steps as the
// engine's trainer takes them (engine/train/trainer.cpp): micro-batches under no_sync, each
// counting 1 / micro-batches, the LR of the step, one loss over every rank's samples, printed
// every LOG_EVERY steps so that no step waits for the figures.

#include "script_training.hpp"

#include "client/script/script_growth.hpp"
#include "client/script/script_text.hpp"
#include "client/wire.hpp"
#include "core/batch_schedule.hpp"
#include "core/workload_table.hpp"

namespace ddplab::ui::script {

QString backendName(const Config& c)
{
    // engine/comm/backend_choice.cpp: auto is NCCL when every rank has its own GPU, else Gloo;
    // under torchrun on one GPU per rank that is the device.
    switch (c.backend) {
    case BackendKind::Gloo: return wire(choice::backend::kGloo);
    case BackendKind::Nccl: return wire(choice::backend::kNccl);
    case BackendKind::Auto: break;
    }
    return c.device == DeviceKind::Cuda ? wire(choice::backend::kNccl) : wire(choice::backend::kGloo);
}

namespace {

// Micro-batches stand for GPUs: accumulate_as_ranks with more than one of them.
bool emulatesGpus(const Config& c)
{
    return c.accumulateAsRanks && c.gradAccum > 1;
}

QString deviceLines(const Config& c)
{
    if (c.device == DeviceKind::Cuda)
        return filled(QStringLiteral("    device = torch.device(@CUDA@, int(os.environ[\"LOCAL_RANK\"]))  # rank r on GPU LOCAL_RANK\n"
                                     "    torch.cuda.set_device(device)\n"),
                      {{"@CUDA@", pyString(wire(choice::device::kCuda))}});
    return filled(QStringLiteral("    device = torch.device(@CPU@)\n"), {{"@CPU@", pyString(wire(choice::device::kCpu))}});
}

QString threadsLine(const Config& c)
{
    if (c.threads > 0)
        return filled(QStringLiteral("    torch.set_num_threads(@N@)  # intra-op threads per rank\n"), {{"@N@", pyInt(c.threads)}});
    return QStringLiteral("    # Intra-op threads: the CPU cores shared by this machine's ranks.\n"
                          "    torch.set_num_threads(max(1, (os.cpu_count() or 1) // int(os.environ[\"LOCAL_WORLD_SIZE\"])))\n");
}

// Before the first product: cuBLAS reads its workspace setting when its handle is made.
QString deterministicLines(const Config& c)
{
    if (!c.deterministic)
        return {};
    return QStringLiteral("    # Deterministic kernels only, as the lab's run (deterministic true): cuBLAS with a fixed workspace.\n"
                          "    os.environ.setdefault(\"CUBLAS_WORKSPACE_CONFIG\", \":4096:8\")\n"
                          "    torch.use_deterministic_algorithms(True)\n"
                          "    torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = True, False\n");
}

// The step's figures on the device until LOG_EVERY steps have them: one all-reduce and one read
// for all of them, instead of a wait for the device at every step.
QString stepLogClass()
{
    return QStringLiteral(R"(class StepLog:
    """Each optimizer step's loss over every rank's samples (the lab's `loss`), printed by rank 0.
    A step's loss sum stays on the device; every LOG_EVERY steps one all-reduce sums them all over
    the ranks and one copy brings them to the CPU, so no step waits for its own figures."""

    def __init__(self, rank, device):
        self.rank, self.device = rank, device
        self.steps, self.loss_sums, self.samples = [], [], []

    def add(self, step, epoch, lr, loss_sum, samples):
        """Keeps a step's figures; returns the losses of the steps printed now (none until LOG_EVERY)."""
        self.steps.append((step, epoch, lr))
        self.loss_sums.append(loss_sum)
        self.samples.append(float(samples))
        return self.flush() if len(self.steps) == LOG_EVERY else []

    def flush(self):
        if not self.steps:
            return []
        totals = torch.stack([torch.stack(self.loss_sums),
                              torch.tensor(self.samples, dtype=torch.float64, device=self.device)], dim=1)
        dist.all_reduce(totals)
        losses = [loss_sum / samples for loss_sum, samples in totals.tolist()]
        if self.rank == 0:
            for (step, epoch, lr), loss in zip(self.steps, losses):
                print(f"step {step}  epoch {epoch}  lr {lr:.6g}  loss {loss:.10g}", flush=True)
        self.steps, self.loss_sums, self.samples = [], [], []
        return losses
)");
}

// One optimizer step's forward and backward over its micro-batches.
QString trainStepFunction(const Config& c, const WorkloadCode& w)
{
    // accumulate_as_ranks with a model of buffers (BatchNorm's running statistics): each
    // micro-batch is an emulated GPU's forward, which starts from the buffers DDP broadcast from
    // rank 0, and the step leaves the first one's (emulated GPU k * GRAD_ACCUM's), as the lab's
    // trainer does (engine/train/trainer.cpp, forwardBackward).
    const bool buffers = emulatesGpus(c) && traitsOf(c).ownModel;
    if (!buffers) {
        return filled(QStringLiteral(R"(def train_step(ddp, micro_batches, device):
    """Forward and backward over a step's micro-batches: the inner ones only accumulate their
    gradients (no_sync), the last one's backward all-reduces the sum, averaged over the ranks.
    Each counts 1 / micro-batches, as ranks do. Returns this rank's loss sum (on the device) and
    its samples."""
    loss_sum, samples = 0.0, 0
    for i, (inputs, targets) in enumerate(micro_batches):
        inputs, targets = inputs.to(device), targets.to(device)
        with ddp.no_sync() if i + 1 < len(micro_batches) else contextlib.nullcontext():
            loss = @FORWARD@
            (loss * (1.0 / len(micro_batches))).backward()
        loss_sum = loss_sum + @LOSS_SUM@
        samples += len(targets)
    return loss_sum, samples
)"),
                      {{"@FORWARD@", w.forward}, {"@LOSS_SUM@", w.lossSum}});
    }
    return filled(QStringLiteral(R"(def train_step(ddp, micro_batches, device):
    """Forward and backward over a step's micro-batches, each one GPU's batch (accumulate_as_ranks):
    the inner ones only accumulate their gradients (no_sync), the last one's backward all-reduces
    the sum, averaged over the ranks; each counts 1 / micro-batches, as a GPU does. Every one starts
    from the buffers (BatchNorm's running statistics) rank 0's had at the step's start, as every
    GPU's forward starts from rank 0's broadcast ones, and the step leaves the first one's. Returns
    this rank's loss sum (on the device) and its samples."""
    buffers = list(ddp.module.buffers())
    for buffer in buffers:  # what DDP's first forward of the step broadcasts anyway
        dist.broadcast(buffer, 0)
    at_start = [buffer.detach().clone() for buffer in buffers]
    loss_sum, samples = 0.0, 0
    for i, (inputs, targets) in enumerate(micro_batches):
        inputs, targets = inputs.to(device), targets.to(device)
        with torch.no_grad():
            for buffer, value in zip(buffers, at_start if i > 0 else []):
                buffer.copy_(value)
        with ddp.no_sync() if i + 1 < len(micro_batches) else contextlib.nullcontext():
            loss = @FORWARD@
            (loss * (1.0 / len(micro_batches))).backward()
        if i == 0:
            after_first = [buffer.detach().clone() for buffer in buffers]
        loss_sum = loss_sum + @LOSS_SUM@
        samples += len(targets)
    with torch.no_grad():
        for buffer, value in zip(buffers, after_first):
            buffer.copy_(value)
    return loss_sum, samples
)"),
                  {{"@FORWARD@", w.forward}, {"@LOSS_SUM@", w.lossSum}});
}

QString groupsOfFunction()
{
    return QStringLiteral(R"(def groups_of(loader, size):
    """The loader's batches in groups of `size` (an epoch's last group may be smaller)."""
    group = []
    for batch in loader:
        group.append(batch)
        if len(group) == size:
            yield group
            group = []
    if group:
        yield group
)");
}

QString rangeTestClass()
{
    return QStringLiteral(R"(class RangeTest:
    """When the lab's LR range test stops (engine/core/range_test.cpp, as fastai's lr_find): the
    step losses smoothed by an exponential moving average (SMOOTHING, debiased), stopping once the
    smoothed loss exceeds DIVERGENCE times its minimum, or at a loss that is not finite."""

    SMOOTHING = 0.98
    DIVERGENCE = 4.0

    def __init__(self):
        self.average, self.best, self.count = 0.0, 0.0, 0

    def stops(self, loss):
        if not math.isfinite(loss):
            return True
        self.average = self.SMOOTHING * self.average + (1.0 - self.SMOOTHING) * loss
        self.count += 1
        smoothed = self.average / (1.0 - self.SMOOTHING ** self.count)
        if self.count == 1 or smoothed < self.best:
            self.best = smoothed
        return smoothed > self.DIVERGENCE * self.best
)");
}

// main()'s data and steps for a batch that stays: DistributedSampler and DataLoader.
QString constantBatchLoop(const Config& c)
{
    QString text;
    if (emulatesGpus(c)) {
        text += QStringLiteral(R"(    # accumulate_as_ranks: micro-batch j of rank k is the batch DistributedSampler gives GPU
    # k * GRAD_ACCUM + j of WORLD_SIZE * GRAD_ACCUM, so these ranks train what that many GPUs would.
    samplers = [DistributedSampler(dataset, num_replicas=world_size * GRAD_ACCUM, rank=rank * GRAD_ACCUM + j, shuffle=SHUFFLE,
                                   seed=SEED, drop_last=DROP_LAST) for j in range(GRAD_ACCUM)]
    # Generators of their own: each epoch's iterator draws a seed from one, which would otherwise
    # move on the global generator that dropout draws from.
    loaders = [DataLoader(dataset, batch_size=BATCH_SIZE, sampler=sampler, generator=torch.Generator()) for sampler in samplers]
    steps_per_epoch = len(loaders[0])
)");
    } else {
        text += QStringLiteral(R"(    # Rank r takes every WORLD_SIZE-th sample of the epoch's order (shuffled with seed SEED + epoch,
    # padded with its head so that every rank has as many), in batches of BATCH_SIZE.
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=SHUFFLE, seed=SEED, drop_last=DROP_LAST)
    # A generator of its own: each epoch's iterator draws a seed from it, which would otherwise
    # move on the global generator that dropout draws from.
    loader = DataLoader(dataset, batch_size=BATCH_SIZE, sampler=sampler, generator=torch.Generator())
    steps_per_epoch = math.ceil(len(loader) / GRAD_ACCUM)
)");
    }
    if (c.lrRangeTest) {
        text += QStringLiteral(R"(    # The range test runs its steps over as many epochs as they take, and may stop sooner.
    total_steps = LR_RANGE_STEPS if MAX_STEPS == 0 else min(LR_RANGE_STEPS, MAX_STEPS)
    range_test = RangeTest()
)");
    } else {
        text += QStringLiteral("    total_steps = EPOCHS * steps_per_epoch if MAX_STEPS == 0 else min(EPOCHS * steps_per_epoch, MAX_STEPS)\n");
    }
    if (hasScheduler(c))
        text += QStringLiteral("    scheduler = make_scheduler(optimizer, steps_per_epoch, total_steps)\n");
    text += QStringLiteral("    log = StepLog(rank, device)\n    step = 0\n");
    if (c.lrRangeTest) {
        text += QStringLiteral("    for epoch in itertools.count():\n"
                               "        if step == total_steps or steps_per_epoch == 0:  # an epoch without a step would be every epoch\n"
                               "            break\n");
    } else {
        text += QStringLiteral("    for epoch in range(EPOCHS):\n        if step == total_steps:\n            break\n");
    }
    if (emulatesGpus(c)) {
        text += QStringLiteral("        for sampler in samplers:\n            sampler.set_epoch(epoch)\n"
                               "        for micro_batches in zip(*loaders):\n");
    } else {
        text += QStringLiteral("        sampler.set_epoch(epoch)\n");
        text += c.gradAccum > 1 ? QStringLiteral("        for micro_batches in groups_of(loader, GRAD_ACCUM):\n")
                                : QStringLiteral("        for batch in loader:\n");
    }
    text += QStringLiteral("            if step == total_steps:\n                break\n");
    if (c.lrRangeTest) {
        text += QStringLiteral("            lr = range_test_lr(step)\n"
                               "            for group in optimizer.param_groups:\n"
                               "                group[\"lr\"] = lr\n");
    } else {
        text += hasScheduler(c) ? QStringLiteral("            lr = scheduler.get_last_lr()[0]\n") : QStringLiteral("            lr = LR\n");
    }
    const bool oneBatch = c.gradAccum == 1;
    text += filled(QStringLiteral(R"(            optimizer.zero_grad()
            loss_sum, samples = train_step(ddp, @MICRO_BATCHES@, device)
            optimizer.step()
)"),
                   {{"@MICRO_BATCHES@", oneBatch ? QStringLiteral("[batch]") : QStringLiteral("micro_batches")}});
    if (hasScheduler(c))
        text += QStringLiteral("            scheduler.step()\n");
    text += QStringLiteral("            step += 1\n");
    if (c.lrRangeTest) {
        text += QStringLiteral(R"(            # LOG_EVERY is 1: every rank judges each step's loss over all ranks, as the lab's do.
            if range_test.stops(log.add(step, epoch, lr, loss_sum, samples)[-1]):
                total_steps = step
)");
    } else {
        text += QStringLiteral("            log.add(step, epoch, lr, loss_sum, samples)\n");
    }
    return text;
}

}  // namespace

QString trainingCode(const Config& c, const WorkloadCode& w)
{
    const bool grows = growsByPlan(c);
    QString text = QStringLiteral("# ---- training -----------------------------------------------------------------------------\n") +
                   stepLogClass() + QStringLiteral("\n\n") + trainStepFunction(c, w);
    if (c.gradAccum > 1 && !emulatesGpus(c) && !grows)
        text += QStringLiteral("\n\n") + groupsOfFunction();
    if (c.lrRangeTest)
        text += QStringLiteral("\n\n") + rangeTestClass();
    if (grows)
        text += QStringLiteral("\n\n") + growingBatchFunctions(c);
    const QString deviceIds = c.device == DeviceKind::Cuda ? QStringLiteral("device_ids=[device.index], ") : QString();
    const QString save = traitsOf(c).ownModel && !c.saveModel.empty()
                             ? QStringLiteral("    if rank == 0:\n        model.save(os.path.expanduser(SAVE_MODEL))\n")
                             : QString();
    text += filled(QStringLiteral(R"(

def main():
    dist.init_process_group(BACKEND, timeout=datetime.timedelta(seconds=TIMEOUT_S))
    rank, world_size = dist.get_rank(), dist.get_world_size()
    if world_size != WORLD_SIZE:
        raise SystemExit(f"These settings are for {WORLD_SIZE} ranks (torchrun --nproc_per_node={WORLD_SIZE}), not "
                         f"{world_size}: the LR and every rank's share of the data follow from it.")
@DEVICE@@THREADS@@BUILD@    ddp = DDP(model, @DEVICE_IDS@bucket_cap_mb=BUCKET_CAP_MB)  # starts from rank 0's parameters and buffers
    ddp.train()
    optimizer = make_optimizer(@TRAINED@)
@LOOP@    log.flush()
@SAVE@    dist.barrier()
    # Every rank is past the barrier with everything printed and saved. PyTorch 1.13 (Debian 12's)
    # can deadlock when DDP's reducer destroys its Gloo process group while a Gloo thread waits for
    # the interpreter lock to let go of a tensor (pytorch/pytorch#56297): the ranks leave without
    # running destructors.
    os._exit(0)


if __name__ == "__main__":
    main()
)"),
                   {{"@DEVICE@", deviceLines(c)},
                    {"@THREADS@", threadsLine(c) + deterministicLines(c)},
                    {"@BUILD@", w.build},
                    {"@DEVICE_IDS@", deviceIds},
                    {"@TRAINED@", w.trained},
                    {"@LOOP@", grows ? growingBatchLoop(c) : constantBatchLoop(c)},
                    {"@SAVE@", save}});
    return text;
}

}  // namespace ddplab::ui::script
