// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run's events as the records of its TensorBoard event file, one event at a time, the same
// wherever the events come from: the engine's rank 0 as it trains (tensorboard_dir), or the
// window from a stored run's events.jsonl and from a run as it streams. Each number of a step,
// eval, epoch or summary event becomes a scalar under scalar_tags.hpp's tag (the config's
// effective batch and LR too), at its step and at the wall time the run reached that step:
// the run's start plus the step's `wall_s` (older streams: the sum of their steps' step_ms);
// an eval or epoch at the time of the step at or before it, the summary at the last step, the
// config's figures at step 0 (a resumed run: the step it resumed from). Steps are taken as the
// window takes them (run_data.hpp): a step event whose step is not a whole number from 0 to
// 9e15, or not past the previous one, is skipped, as is a number that is not finite (the
// stream's null). A finite number beyond float32's range is written as the largest float32
// of its sign and counted (overflowSentence says so).

#include "tensorboard/summary_events.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddplab::tensorboard {

// One event of the engine's stream: its type and each of its fields that is a number (not a
// boolean), by name.
struct EventNumbers {
    std::string type;
    std::vector<std::pair<std::string, double>> numbers;
};

class RunEncoder {
public:
    // `startSeconds`: when the run's first step began, in seconds since 1970.
    explicit RunEncoder(double startSeconds);

    double startSeconds() const { return m_start; }
    // The file's first record (file_version); empty once given.
    std::string header();
    // The records `event` makes (the header first, if not given yet); empty when none.
    std::string encode(const EventNumbers& event);
    // Scalars of the writer's own (a study's figures) at `step`, counted as the others.
    std::string encodeScalars(int64_t step, double wallTime, const std::vector<Scalar>& scalars);

    // The last step event's step (0 before the first), and the wall time of `step`.
    int64_t lastStep() const { return m_walls.empty() ? 0 : m_walls.back().first; }
    double wallTimeAt(int64_t step) const;

    // Values written as the largest float32 because they are beyond float32's range: how many,
    // and a sentence naming the first ("" when none).
    int64_t overflowCount() const { return m_overflows; }
    std::string overflowSentence() const;

private:
    std::string record(int64_t step, double wallTime, const std::vector<Scalar>& scalars);

    double m_start = 0.0;
    bool m_headerGiven = false;
    bool m_configGiven = false;
    std::vector<std::pair<int64_t, double>> m_walls;  // (step, seconds since the start) of every step taken
    double m_summedStepSeconds = 0.0;                 // for streams without wall_s
    int64_t m_overflows = 0;
    std::string m_firstOverflow;
};

// events.out.tfevents.<start, whole seconds, 10 digits>.<host>[.<suffix>]: TensorBoard reads any
// file whose name holds "tfevents"; this is TensorFlow's own pattern.
std::string eventFileName(double startSeconds, std::string_view host, std::string_view suffix = {});
// A name TensorBoard and every file system take as a folder: letters, digits, '.', '-' and '_'
// (anything else, a byte of UTF-8 too, becomes '_'), at most 120 characters, no leading '.' or
// '_'; "run" when nothing is left.
std::string folderName(std::string_view text);

}  // namespace ddplab::tensorboard
