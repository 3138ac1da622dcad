#pragma once
// Counts in messages: "1 rank", "2 ranks". Nouns with a plain plural "s" only.

#include <cstdint>
#include <string>

namespace ddplab {

inline std::string countOf(int64_t count, const std::string& noun)
{
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace ddplab
