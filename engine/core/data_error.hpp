// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A data file is missing, truncated or corrupt: exit code kExitDataError. `key` is the config
// key that named the file (data_dir for Fashion-MNIST, train_data or val_data for one's own).

#include "key_names.hpp"

#include <stdexcept>
#include <string>

namespace ddplab {

class DataError : public std::runtime_error {
public:
    explicit DataError(const std::string& message, std::string key = key::kDataDir)
        : std::runtime_error(message), m_key(std::move(key)) {}

    const std::string& key() const { return m_key; }

private:
    std::string m_key;
};

}  // namespace ddplab
