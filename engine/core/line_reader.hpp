// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Bytes that arrive in pieces (a pipe, stdin, a child's stdout or stderr) as whole lines: the
// one line reader of the engine and the window alike (the launcher's rank pipes, `runs`' stdin, a
// launch template's stderr, the model check's answer; the window's event stream, the Log's
// engine lines, a query's answer). A line is searched for its newline once; the bytes after the
// last newline are kept until the rest arrives. A line longer than its cap is not held: take()
// gives it once, marked overlong, as its first bytes, and its rest up to the next newline is
// dropped as it arrives, so memory stays bounded whatever a writer sends.

#include <cstddef>
#include <optional>
#include <string>

namespace ddplab {

class LineReader {
public:
    struct Line {
        std::string text;      // without its newline; an overlong line's first headBytes
        bool overlong = false;
        size_t bytes = 0;      // an overlong line's length when it was cut (more followed)
    };

    // `maxLineBytes`: the longest line held; `headBytes`: what is kept of a longer one.
    LineReader(size_t maxLineBytes, size_t headBytes);

    void append(const char* data, size_t size);

    // The next whole line (or the note of an overlong one); nothing when none has arrived whole.
    std::optional<Line> take();

    // The bytes after the last newline, not yet a line.
    size_t partialBytes() const { return m_bytes.size() - m_start; }

    // At the end of input: the last line, which had no newline.
    std::string takeRest();

    void clear();

private:
    size_t m_maxLineBytes;  // not const: a reader is assigned afresh when its stream starts again
    size_t m_headBytes;
    std::string m_bytes;
    size_t m_start = 0;     // where the next line begins
    size_t m_searched = 0;  // bytes after m_start known to hold no newline
    bool m_discarding = false;            // inside an overlong line: drop up to its newline
    std::optional<Line> m_overlong;       // its note, given after the whole lines before it
};

}  // namespace ddplab
