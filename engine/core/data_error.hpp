#pragma once
// A data file is missing, truncated or corrupt: exit code kExitDataError.

#include <stdexcept>
#include <string>

namespace ddplab {

class DataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace ddplab
