// SPDX-License-Identifier: GPL-3.0-or-later
// batch_schedule steps, smith and seesaw in a PyTorch script: the arithmetic of
// engine/core/batch_schedule.cpp in Python, and the trainer's walk through each epoch's sampler
// list with the batch in force (engine/train/trainer.cpp, step_plan.cpp).

#include "client/script/script_growth.hpp"

#include "client/script/script_text.hpp"
#include "client/wire.hpp"

#include <QStringList>

namespace ddplab::ui::script {
namespace {

// engine/core/batch_schedule.cpp's kRoundingSlack: 1 / 0.1 is 9.999999999999998.
constexpr double kRoundingSlack = 1e-9;

QString pyList(const std::vector<int64_t>& numbers)
{
    QStringList items;
    for (const int64_t number : numbers)
        items.append(pyInt(number));
    return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString scheduleName(const Config& c)
{
    switch (c.batchSchedule) {
    case BatchScheduleKind::Steps: return wire(choice::batch_schedule::kSteps);
    case BatchScheduleKind::Smith: return wire(choice::batch_schedule::kSmith);
    case BatchScheduleKind::Seesaw: return wire(choice::batch_schedule::kSeesaw);
    case BatchScheduleKind::Constant:
    case BatchScheduleKind::Noise:
    case BatchScheduleKind::AdaScale:
        break;
    }
    return QString();
}

// GrowingBatch.lr and GrowingBatch.multiplier for the schedule at hand.
QString scheduleMethods(const Config& c)
{
    switch (c.batchSchedule) {
    case BatchScheduleKind::Steps:
        return QStringLiteral(R"(    def lr(self, base_steps, multiplier):
        """The schedule's LR base_steps into the run: the batch grows on top of it."""
        return scheduled_lr(base_steps, self.steps_per_epoch, self.total_steps)

    def multiplier(self, steps_done, base_steps):
        """The product of the BATCH_SCHEDULE_FACTORS whose step of BATCH_SCHEDULE_STEPS has passed,
        never above self.largest."""
        multiplier = 1
        for after, factor in zip(BATCH_SCHEDULE_STEPS, BATCH_SCHEDULE_FACTORS):
            if after <= steps_done:
                multiplier = min(self.largest, multiplier * factor)
        return multiplier
)");
    case BatchScheduleKind::Smith:
    case BatchScheduleKind::Seesaw:
        break;
    case BatchScheduleKind::Constant:
    case BatchScheduleKind::Noise:
    case BatchScheduleKind::AdaScale:
        return QString();
    }
    const bool smith = c.batchSchedule == BatchScheduleKind::Smith;
    const bool warmup = c.warmupSteps > 0 || c.warmupEpochs > 0;
    return filled(QStringLiteral(R"(    def lr(self, base_steps, multiplier):
        """The schedule's LR base_steps into the run, times @GIVEN_BACK@: the batch took
        over that much of the decay; only what the bound on the batch left remains."""
        return scheduled_lr(base_steps, self.steps_per_epoch, self.total_steps) * @FACTOR@

    def multiplier(self, steps_done, base_steps):
        """Where the LR schedule would have decayed the LR to a fraction d of LR, @GROWTH@,
        never above self.largest."""
@WARMUP@        decay = scheduled_lr(base_steps, self.steps_per_epoch, self.total_steps) / LR
        if decay <= 0:
            return self.largest
        growth = min(1.0 / decay + @SLACK@, self.largest)  # @SLACK@: 1 / 0.1 is 9.999999999999998
@RESULT@)"),
                  {{"@GIVEN_BACK@", smith ? QStringLiteral("the multiplier") : QStringLiteral("the multiplier's square root")},
                   {"@FACTOR@", smith ? QStringLiteral("multiplier") : QStringLiteral("math.sqrt(multiplier)")},
                   {"@GROWTH@", smith ? QStringLiteral("1/d (rounded down, at least 1)")
                                      : QStringLiteral("the largest power of two not above 1/d (each halving of the LR a\n"
                                                       "        doubling of the batch)")},
                   {"@WARMUP@", warmup ? QStringLiteral("        if base_steps < warmup_steps_of(self.steps_per_epoch):\n"
                                                        "            return 1  # warmup is no decay\n")
                                       : QString()},
                   {"@SLACK@", pyFloat(kRoundingSlack)},
                   {"@RESULT@", smith ? QStringLiteral("        multiplier = max(1, math.floor(growth))\n"
                                                       "        while multiplier > 1 and not self.splits_well(multiplier):\n"
                                                       "            multiplier -= 1  # one whose share splits into micro-batches near the largest\n"
                                                       "        return multiplier\n")
                                      : QStringLiteral("        return 1 << math.floor(math.log2(growth))\n")}});
}

}  // namespace

QString growingBatchSettings(const Config& c)
{
    QString text = filled(QStringLiteral(R"(
# ---- a batch that grows: batch_schedule @NAME@ ------------------------------------------------
MAX_EFFECTIVE_BATCH = @MAX@  # the effective batch grows to at most this (0: the training set's size)
MAX_BATCH_PER_RANK = @PER_RANK@  # a rank's batch grows up to this (0: BATCH_SIZE); micro-batches carry the rest
)"),
                          {{"@NAME@", scheduleName(c)}, {"@MAX@", pyInt(c.maxEffectiveBatch)}, {"@PER_RANK@", pyInt(c.maxBatchPerRank)}});
    if (c.batchSchedule == BatchScheduleKind::Steps)
        text += filled(QStringLiteral("BATCH_SCHEDULE_STEPS = @STEPS@  # after these optimizer steps\n"
                                      "BATCH_SCHEDULE_FACTORS = @FACTORS@  # the effective batch is multiplied by these\n"),
                       {{"@STEPS@", pyList(c.batchScheduleSteps)}, {"@FACTORS@", pyList(c.batchScheduleFactors)}});
    return text;
}

QString growingBatchFunctions(const Config& c)
{
    return filled(QStringLiteral(R"(def epoch_order(epoch, examples):
    """The epoch's order of the whole training set, as DistributedSampler draws it: a permutation
    seeded SEED + epoch (SHUFFLE), else 0, 1, 2, ..."""
    if not SHUFFLE:
        return list(range(examples))
    generator = torch.Generator()
    generator.manual_seed(SEED + epoch)
    return torch.randperm(examples, generator=generator).tolist()


def rank_steps(order, rank, world_size, position, batch_size, micro_batches):
    """This rank's optimizer steps through the rest of an epoch, as DistributedSampler and a
    DataLoader give them, but from `position` places into the epoch's list: the list (padded with
    its head as DistributedSampler pads it, or cut with DROP_LAST) dealt out a place to each rank in
    turn, each step `micro_batches` batches of `batch_size` sample indices (the epoch's last short)."""
    n = len(order)
    end = (n // world_size if DROP_LAST else math.ceil(n / world_size)) * world_size
    mine = [order[place % n] for place in range(position + rank, end, world_size)]
    batches = [mine[i:i + batch_size] for i in range(0, len(mine), batch_size)]
    return [batches[i:i + micro_batches] for i in range(0, len(batches), micro_batches)]


class GrowingBatch:
    """batch_schedule @NAME@ as the lab runs it (engine/core/batch_schedule.cpp). The LR schedule
    is read on a clock of base steps: the optimizer steps the starting batch would have taken for
    the samples seen so far (a step of a batch grown k-fold counts k)."""

    def __init__(self, examples, steps_per_epoch, total_steps):
        bound = MAX_EFFECTIVE_BATCH if MAX_EFFECTIVE_BATCH > 0 else examples
        self.largest = max(1, bound // (WORLD_SIZE * BATCH_SIZE * GRAD_ACCUM))  # the most the batch grows by
        self.steps_per_epoch, self.total_steps = steps_per_epoch, total_steps

    def shape(self, multiplier):
        """A rank's share of `multiplier` times the starting batch, as (batch size, micro-batches):
        its batch grows up to MAX_BATCH_PER_RANK (0: BATCH_SIZE), and the fewest micro-batches of
        equal size carry the rest."""
        share = multiplier * BATCH_SIZE * GRAD_ACCUM
        micro_batches = math.ceil(share / max(BATCH_SIZE, MAX_BATCH_PER_RANK))
        while share % micro_batches:
            micro_batches += 1
        return share // micro_batches, micro_batches

    def splits_well(self, multiplier):
        """Whether that share needs at most twice the micro-batches the largest batch would (a prime
        share splits equally only into micro-batches of 1)."""
        share = multiplier * BATCH_SIZE * GRAD_ACCUM
        return self.shape(multiplier)[1] <= 2 * math.ceil(share / max(BATCH_SIZE, MAX_BATCH_PER_RANK))

@METHODS@)"),
                  {{"@NAME@", scheduleName(c)}, {"@METHODS@", scheduleMethods(c)}});
}

QString growingBatchLoop(const Config&)
{
    return QStringLiteral(R"(    # The lab's sampler step by step (engine/train/step_plan.cpp): each epoch's order as
    # DistributedSampler draws it, every rank taking every WORLD_SIZE-th place of it, in steps of the
    # batch in force; a batch that grows takes the epoch on from the place the last step left it.
    examples = len(dataset)
    samples_per_rank = len(DistributedSampler(dataset, num_replicas=world_size, rank=rank, drop_last=DROP_LAST))
    steps_per_epoch = math.ceil(math.ceil(samples_per_rank / BATCH_SIZE) / GRAD_ACCUM)  # of the starting batch
    total_steps = EPOCHS * steps_per_epoch if MAX_STEPS == 0 else min(EPOCHS * steps_per_epoch, MAX_STEPS)
    step_limit = MAX_STEPS if MAX_STEPS > 0 else math.inf  # a growing batch takes fewer steps than total_steps
    growing = GrowingBatch(examples, steps_per_epoch, total_steps)
    log = StepLog(rank, device)
    multiplier, base_steps, step = 1, 0, 0
    for epoch in range(EPOCHS):
        if step == step_limit:
            break
        order = epoch_order(epoch, examples)
        position = 0  # places of the epoch's list (every rank's share) taken so far
        steps = rank_steps(order, rank, world_size, position, *growing.shape(multiplier))
        i = 0
        while i < len(steps) and step < step_limit:
            lr = growing.lr(base_steps, multiplier)
            for group in optimizer.param_groups:
                group["lr"] = lr
            optimizer.zero_grad()
            loss_sum, samples = train_step(ddp, [dataset[indices] for indices in steps[i]], device)
            optimizer.step()
            step += 1
            log.add(step, epoch, lr, loss_sum, samples)
            position += samples * world_size
            base_steps += multiplier
            i += 1
            ends_epoch = i == len(steps)
            # The batch may grow after any step but the run's last, and never shrinks.
            if step < step_limit and not (ends_epoch and epoch + 1 == EPOCHS):
                grown = max(multiplier, growing.multiplier(step, base_steps))
                if grown != multiplier:
                    multiplier = grown
                    if not ends_epoch:
                        steps, i = rank_steps(order, rank, world_size, position, *growing.shape(multiplier)), 0
)");
}

}  // namespace ddplab::ui::script
