// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Writing a whole file so that a reader sees the old one or the new one, never a part: the
// bytes go to a new file beside the target, are synced, and the new file is renamed over the
// target. On failure the new file is removed and the old one stays. No LibTorch.

#include <string>

namespace ddplab {

// `key` is the config key that named the target (save_model, checkpoint_dir): the messages
// name it. Throws OutputError (exit 6) for a full disk, a quota or a file-size limit,
// ConfigError for anything else, each with the cause.
void writeFileBeside(const std::string& target, const std::string& bytes, const std::string& key);

// The folder `path` is in ("." for a bare name).
std::string folderOf(const std::string& path);

}  // namespace ddplab
