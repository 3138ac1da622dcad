// SPDX-License-Identifier: GPL-3.0-or-later
#include "line_reader.hpp"

#include <algorithm>
#include <cstring>

namespace ddplab {

LineReader::LineReader(size_t maxLineBytes, size_t headBytes) : m_maxLineBytes(maxLineBytes), m_headBytes(std::min(headBytes, maxLineBytes))
{
}

void LineReader::append(const char* data, size_t size)
{
    if (m_discarding) {
        const void* newline = std::memchr(data, '\n', size);
        if (!newline)
            return;
        const size_t skipped = size_t(static_cast<const char*>(newline) - data) + 1;
        m_discarding = false;
        data += skipped;
        size -= skipped;
    }
    m_bytes.append(data, size);
    if (partialBytes() <= m_maxLineBytes)
        return;
    // The partial line is too long once no newline ends it: whole lines before it stay.
    const size_t lastNewline = m_bytes.rfind('\n');
    const size_t partialStart = lastNewline == std::string::npos || lastNewline < m_start ? m_start : lastNewline + 1;
    if (m_bytes.size() - partialStart <= m_maxLineBytes)
        return;
    if (!m_overlong)  // one note at a time: a second overlong line before it is taken is only cut
        m_overlong = Line{m_bytes.substr(partialStart, m_headBytes), true, m_bytes.size() - partialStart};
    m_bytes.erase(partialStart);
    m_searched = std::min(m_searched, m_bytes.size() - m_start);
    m_discarding = true;
}

std::optional<LineReader::Line> LineReader::take()
{
    const size_t newline = m_bytes.find('\n', m_start + m_searched);
    if (newline == std::string::npos) {
        m_bytes.erase(0, m_start);  // at most one line's worth: the rest is still arriving
        m_start = 0;
        m_searched = m_bytes.size();
        if (m_overlong) {
            std::optional<Line> note = std::move(m_overlong);
            m_overlong.reset();
            return note;
        }
        return std::nullopt;
    }
    const size_t length = newline - m_start;
    // A whole line that came in one piece can be over the cap too: only its head is given.
    Line line{m_bytes.substr(m_start, length > m_maxLineBytes ? m_headBytes : length), length > m_maxLineBytes, length};
    m_start = newline + 1;
    m_searched = 0;
    return line;
}

std::string LineReader::takeRest()
{
    std::string rest = m_bytes.substr(m_start);
    clear();
    return rest;
}

void LineReader::clear()
{
    m_bytes.clear();
    m_start = 0;
    m_searched = 0;
    m_discarding = false;
    m_overlong.reset();
}

}  // namespace ddplab
