// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Rank 0's TensorBoard file (tensorboard_dir, docs/tensorboard.md): every event rank 0 emits
// passes through here on its way out (EventWriter), and its numbers are encoded by the writer
// the window uses too (engine/tensorboard/run_encoder.hpp), so a run under torchrun or Slurm
// gets the same files the lab's export would write. The run gets a folder of its own inside
// tensorboard_dir, <yyyyMMdd-HHmmss>_<host>_<pid> (local time, as PyTorch's SummaryWriter names
// its runs), holding events.out.tfevents.<start>.<host>.<pid>; the run's start is when its
// config event passes, just before its first step. Records wait in memory until the event
// stream itself is written, then go out whole; a write the disk refuses is taken back whole.

#include "core/json.hpp"
#include "tensorboard/run_encoder.hpp"

#include <optional>
#include <string>

namespace ddplab {

class TensorBoardFile {
public:
    // Makes tensorboard_dir (and its parents) and the run's folder and file in it; throws
    // ConfigError(tensorboard_dir) saying why it cannot.
    explicit TensorBoardFile(const std::string& tensorboardDir);
    ~TensorBoardFile();
    TensorBoardFile(const TensorBoardFile&) = delete;
    TensorBoardFile& operator=(const TensorBoardFile&) = delete;

    // The scalars of `event`, kept until write(). A value beyond float32's range is said on
    // stderr the first time (and how many there were, with the summary).
    void add(const Json& event);
    // What add() kept, to the file. False (and error() says why) when the disk refused it.
    bool write();

    const std::string& path() const { return m_path; }
    const std::string& error() const { return m_error; }

private:
    std::string m_path;
    int m_fd = -1;
    std::optional<tensorboard::RunEncoder> m_encoder;  // from the first event on
    std::string m_pending;
    std::string m_error;
};

}  // namespace ddplab
