#pragma once
// Words in messages: counts ("1 rank", "2 ranks"; nouns with a plain plural "s" only), and a
// name someone else chose, quoted so that whatever it holds reads as one word.

#include <cstdint>
#include <string>

namespace ddplab {

inline std::string countOf(int64_t count, const std::string& noun)
{
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
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
