// SPDX-License-Identifier: GPL-3.0-or-later
// main() of a PyTorch script: the process group torchrun's environment describes, the model
// under DistributedDataParallel, DistributedSampler and DataLoader, and the optimizer steps as
// the engine's trainer takes them (engine/train/trainer.cpp): micro-batches under no_sync,
// each counting 1 / micro-batches, the LR of the step, one loss over every rank's samples.

#include "script_training.hpp"

#include "client/script/script_text.hpp"
#include "client/wire.hpp"

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

// One optimizer step's body, from the lines that set `lr` to the all-reduce of its figures.
QString stepCode(const Config& c, const WorkloadCode& w)
{
    const QString lrNow = hasScheduler(c) ? QStringLiteral("scheduler.get_last_lr()[0]") : QStringLiteral("LR");
    const QString schedulerStep = hasScheduler(c) ? QStringLiteral("            scheduler.step()\n") : QString();
    if (c.gradAccum == 1) {
        return filled(QStringLiteral(R"(        for inputs, targets in loader:
            if step == total_steps:
                break
            lr = @LR_NOW@
            inputs, targets = inputs.to(device), targets.to(device)
            optimizer.zero_grad()
            loss = @FORWARD@
            loss.backward()  # DDP all-reduces the gradients, averaged over the ranks
            optimizer.step()
@SCHEDULER_STEP@            step += 1
            totals[0], totals[1] = @LOSS_SUM@, len(targets)
)"),
                      {{"@LR_NOW@", lrNow}, {"@FORWARD@", w.forward}, {"@SCHEDULER_STEP@", schedulerStep}, {"@LOSS_SUM@", w.lossSum}});
    }
    return filled(QStringLiteral(R"(        for micro_batches in groups_of(loader, GRAD_ACCUM):
            if step == total_steps:
                break
            lr = @LR_NOW@
            optimizer.zero_grad()
            loss_sum = samples = 0.0
            for i, (inputs, targets) in enumerate(micro_batches):
                inputs, targets = inputs.to(device), targets.to(device)
                # The inner micro-batches only accumulate their gradients (no_sync); the last
                # one's backward all-reduces the sum. Each counts 1 / micro-batches, as ranks do.
                with ddp.no_sync() if i + 1 < len(micro_batches) else contextlib.nullcontext():
                    loss = @FORWARD@
                    (loss / len(micro_batches)).backward()
                loss_sum += @LOSS_SUM@
                samples += len(targets)
            optimizer.step()
@SCHEDULER_STEP@            step += 1
            totals[0], totals[1] = loss_sum, samples
)"),
                  {{"@LR_NOW@", lrNow}, {"@FORWARD@", w.forward}, {"@SCHEDULER_STEP@", schedulerStep}, {"@LOSS_SUM@", w.lossSum}});
}

}  // namespace

QString trainingCode(const Config& c, const WorkloadCode& w)
{
    QString text = QStringLiteral("# ---- training -----------------------------------------------------------------------------\n");
    if (c.gradAccum > 1) {
        text += QStringLiteral(R"(def groups_of(loader, size):
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
    const QString deviceIds = c.device == DeviceKind::Cuda ? QStringLiteral("device_ids=[device.index], ") : QString();
    const QString scheduler = hasScheduler(c) ? QStringLiteral("    scheduler = make_scheduler(optimizer, steps_per_epoch, total_steps)\n")
                                              : QString();
    const QString save = c.workload == WorkloadKind::TorchScript && !c.saveModel.empty()
                             ? QStringLiteral("    if rank == 0:\n        model.save(os.path.expanduser(SAVE_MODEL))\n")
                             : QString();
    text += filled(QStringLiteral(R"(def main():
    dist.init_process_group(BACKEND, timeout=datetime.timedelta(seconds=TIMEOUT_S))
    rank, world_size = dist.get_rank(), dist.get_world_size()
    if world_size != WORLD_SIZE:
        raise SystemExit(f"These settings are for {WORLD_SIZE} ranks (torchrun --nproc_per_node={WORLD_SIZE}), not "
                         f"{world_size}: the LR and every rank's share of the data follow from it.")
@DEVICE@@THREADS@@BUILD@    ddp = DDP(model, @DEVICE_IDS@bucket_cap_mb=BUCKET_CAP_MB)  # starts from rank 0's parameters and buffers
    ddp.train()
    optimizer = make_optimizer(@TRAINED@)
    # Rank r takes every WORLD_SIZE-th sample of the epoch's order (shuffled with seed SEED + epoch,
    # padded with its head so that every rank has as many), in batches of BATCH_SIZE.
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=SHUFFLE, seed=SEED, drop_last=DROP_LAST)
    # A generator of its own: each epoch's iterator draws a seed from it, which would otherwise
    # move on the global generator that dropout draws from.
    loader = DataLoader(dataset, batch_size=BATCH_SIZE, sampler=sampler, generator=torch.Generator())
    steps_per_epoch = math.ceil(len(loader) / GRAD_ACCUM)
    total_steps = EPOCHS * steps_per_epoch if MAX_STEPS == 0 else min(EPOCHS * steps_per_epoch, MAX_STEPS)
@SCHEDULER@    totals = torch.zeros(2, dtype=torch.float64, device=device)  # a step's loss sum and samples
    step = 0
    for epoch in range(EPOCHS):
        if step == total_steps:
            break
        sampler.set_epoch(epoch)
@STEP@            # The step's loss as the lab reports it: the mean over every rank's samples.
            dist.all_reduce(totals)
            if rank == 0:
                print(f"step {step}  epoch {epoch}  lr {lr:.6g}  loss {(totals[0] / totals[1]).item():.10g}", flush=True)
@SAVE@    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
)"),
                   {{"@DEVICE@", deviceLines(c)},
                    {"@THREADS@", threadsLine(c)},
                    {"@BUILD@", w.build},
                    {"@DEVICE_IDS@", deviceIds},
                    {"@TRAINED@", w.trained},
                    {"@SCHEDULER@", scheduler},
                    {"@STEP@", stepCode(c, w)},
                    {"@SAVE@", save}});
    return text;
}

}  // namespace ddplab::ui::script
