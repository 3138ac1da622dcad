#pragma once
// The event stream could not be written (a full disk, an events file on a failing device):
// exit code kExitOutputError. The run stops; what was written so far stays whole.

#include <stdexcept>
#include <string>

namespace ddplab {

class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace ddplab
