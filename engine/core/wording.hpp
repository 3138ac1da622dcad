#pragma once
// Counts and sizes in messages: "1 rank", "2 ranks" (nouns with a plain plural "s" only);
// "1.5 GiB".

#include <cstdint>
#include <sstream>
#include <string>

namespace ddplab {

inline std::string countOf(int64_t count, const std::string& noun)
{
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

inline std::string gibText(double bytes)
{
    std::ostringstream text;
    text.precision(bytes < 10.0 * (1 << 30) ? 2 : 3);
    text << bytes / double(1 << 30) << " GiB";
    return text.str();
}

}  // namespace ddplab
