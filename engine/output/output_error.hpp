// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An output could not be written (a full disk, a quota, a file-size limit, a failing device):
// exit code kExitOutputError. `key` names the output: events (the event stream; the run stops,
// what was written so far stays whole) or save_model (the trained model; the file it would
// have replaced stays as it was).

#include "core/key_names.hpp"

#include <stdexcept>
#include <string>

namespace ddplab {

class OutputError : public std::runtime_error {
public:
    explicit OutputError(const std::string& message, std::string key = key::kEvents)
        : std::runtime_error(message), m_key(std::move(key)) {}

    const std::string& key() const { return m_key; }

private:
    std::string m_key;
};

}  // namespace ddplab
