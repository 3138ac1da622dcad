// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One event as one line of the stream, the same way wherever the engine writes one (the event
// writer, `runs`' own lines, the model check's report, a launch template's failure): compact
// JSON, a newline, text that is not valid UTF-8 replaced (U+FFFD) rather than refused, and
// non-finite numbers as null, which the protocol reads as "not a number".

#include "core/json.hpp"

#include <string>

namespace ddplab {

std::string encodeEventLine(const Json& event);

// Writes `line` whole to `fd`, waiting while a non-blocking pipe is full; false when the
// reader has gone (or another error ends the write).
bool writeWholeLine(int fd, const std::string& line);

}  // namespace ddplab
