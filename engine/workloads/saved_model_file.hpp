// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where `save_model` writes the trained model. Checked before any training step, so that a
// missing folder or a folder as the target is said in a second, not after the whole run; and
// written beside the target, then renamed over it, so that a full disk, a file-size limit or a
// failing device leaves the file that was there as it was (docs/own-model.md). No LibTorch.

#include <string>

namespace ddplab {

// The entry every model the engine writes carries (torch.jit.save's extra files): how the
// lab knows a file it is about to replace is one of its own.
inline constexpr char kSavedModelMarker[] = "ddplab.json";
inline constexpr char kSavedModelMarkerText[] = "{\"written_by\": \"ddplab-engine\"}";

// Throws ConfigError (key save_model) when the target cannot be written: a trailing '/', a
// folder, no such folder, a folder this process may not write. Returns a sentence for the log
// when the target exists and is not a model the lab wrote (it will be replaced), else "".
std::string checkSaveTarget(const std::string& saveModel);

// Writes `bytes` to a new file beside `target` and renames it over `target`: a reader sees the
// old file or the new one, never a part. On failure the new file is removed and the old one
// stays; throws OutputError (key save_model, exit 6) for a full disk, a quota or a file-size
// limit, ConfigError (key save_model) for anything else, each with the cause.
void writeSavedModel(const std::string& target, const std::string& bytes);

}  // namespace ddplab
