// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Words in messages: counts ("1 rank", "2 ranks"; nouns with a plain plural "s" only), sizes
// ("1.5 GiB"), and a name someone else chose, quoted so that whatever it holds reads as one word.

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
    const double gib = bytes / double(1 << 30);
    if (gib >= 1000.0)
        text << std::fixed;  // 1024 GiB, not 1.02e+03 GiB
    text.precision(gib >= 1000.0 ? 0 : bytes < 10.0 * (1 << 30) ? 2 : 3);
    text << gib << " GiB";
    return text.str();
}

// "batch_size" in quotes; a control character (a NUL would end the message where C strings end
// it) as its JSON escape: "a\u0000b".
inline std::string quotedName(const std::string& name)
{
    std::string quoted = "\"";
    for (const char c : name) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || c == '"' || c == '\\') {
            static const char kHex[] = "0123456789abcdef";
            quoted += c == '"' ? std::string("\\\"") : c == '\\' ? std::string("\\\\")
                                                  : std::string("\\u00") + kHex[byte >> 4] + kHex[byte & 0xf];
        } else {
            quoted += c;
        }
    }
    return quoted + "\"";
}

}  // namespace ddplab
