// SPDX-License-Identifier: GPL-3.0-or-later
#include "stderr_lines.hpp"

#include "event_line.hpp"

#include <cstdlib>
#include <iostream>
#include <streambuf>
#include <string>
#include <unistd.h>

namespace ddplab {
namespace {

// A line longer than this goes out in pieces rather than growing without bound.
constexpr size_t kLongestKeptLine = 64 * 1024;

class WholeLineBuffer : public std::streambuf {
public:
    // At exit: an unfinished line, as it is.
    void flushAll()
    {
        if (!m_pending.empty())
            writeWholeLine(STDERR_FILENO, m_pending);
        m_pending.clear();
    }

protected:
    int_type overflow(int_type ch) override
    {
        if (ch != traits_type::eof()) {
            m_pending += char(ch);
            writeCompleteLines();
        }
        return traits_type::not_eof(ch);
    }

    std::streamsize xsputn(const char* text, std::streamsize count) override
    {
        m_pending.append(text, size_t(count));
        writeCompleteLines();
        return count;
    }

    // std::cerr asks after every insertion (unitbuf): a line is written when it is complete.
    int sync() override { return 0; }

private:
    void writeCompleteLines()
    {
        const size_t end = m_pending.size() > kLongestKeptLine ? m_pending.size() : m_pending.rfind('\n');
        if (end == std::string::npos)
            return;
        const size_t length = end == m_pending.size() ? end : end + 1;
        writeWholeLine(STDERR_FILENO, m_pending.substr(0, length));
        m_pending.erase(0, length);
    }

    std::string m_pending;
};

WholeLineBuffer& buffer()
{
    static WholeLineBuffer* const kept = new WholeLineBuffer;  // outlives every static destructor
    return *kept;
}

}  // namespace

void writeStderrInWholeLines()
{
    std::cerr.rdbuf(&buffer());
    std::clog.rdbuf(&buffer());
    std::atexit([] { buffer().flushAll(); });
}

}  // namespace ddplab
