// SPDX-License-Identifier: GPL-3.0-or-later
#include "code_nesting.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

namespace ddplab {
namespace {

// Words that make the parser go one level deeper on what follows (or might).
bool isOperatorWord(std::string_view word)
{
    for (const char* keyword : {"not", "if", "else", "and", "or", "lambda", "await", "is", "in"}) {
        if (word == keyword)
            return true;
    }
    return false;
}

bool isOperatorCharacter(char c)
{
    return c != '\0' && std::strchr("+-*/%@&|^~<>=!", c) != nullptr;
}

class NestingBound {
public:
    explicit NestingBound(std::string_view source) : m_in(source) {}

    std::string problem()
    {
        while (m_at < m_in.size() && m_problem.empty()) {
            if (m_atLogicalStart) {
                readIndentation();
                continue;
            }
            const char c = m_in[m_at];
            if (c == '#') {
                while (m_at < m_in.size() && m_in[m_at] != '\n')
                    ++m_at;
            } else if (c == '\'' || c == '"') {
                skipString(c);
            } else if (c == '\\' && m_at + 1 < m_in.size() && m_in[m_at + 1] == '\n') {
                m_at += 2;
                ++m_line;
            } else if (c == '\n') {
                ++m_at;
                ++m_line;
                if (m_brackets == 0)
                    endLogicalLine();
            } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                const size_t start = m_at;
                while (m_at < m_in.size() && (std::isalnum(static_cast<unsigned char>(m_in[m_at])) || m_in[m_at] == '_'))
                    ++m_at;
                m_operators += isOperatorWord(m_in.substr(start, m_at - start)) ? 1 : 0;
            } else {
                if (c == '(' || c == '[' || c == '{')
                    m_deepestBrackets = std::max(m_deepestBrackets, ++m_brackets);
                else if (c == ')' || c == ']' || c == '}')
                    m_brackets = std::max<int64_t>(0, m_brackets - 1);
                else if (isOperatorCharacter(c))
                    ++m_operators;
                ++m_at;
            }
        }
        if (m_problem.empty())
            endLogicalLine();
        return m_problem;
    }

private:
    // A statement's indentation opens or closes blocks, as Python's tokenizer reads it.
    void readIndentation()
    {
        size_t width = 0;
        while (m_at < m_in.size() && (m_in[m_at] == ' ' || m_in[m_at] == '\t')) {
            width += m_in[m_at] == '\t' ? 8 - width % 8 : 1;
            ++m_at;
        }
        const bool blank = m_at >= m_in.size() || m_in[m_at] == '\n' || m_in[m_at] == '\r' || m_in[m_at] == '#';
        if (!blank) {
            if (width > m_indents.back())
                m_indents.push_back(width);
            while (m_indents.size() > 1 && width < m_indents.back())
                m_indents.pop_back();
        }
        m_atLogicalStart = false;
        m_logicalLine = m_line;
    }

    void skipString(char quote)
    {
        const bool triple = m_at + 2 < m_in.size() && m_in[m_at + 1] == quote && m_in[m_at + 2] == quote;
        m_at += triple ? 3 : 1;
        while (m_at < m_in.size()) {
            const char c = m_in[m_at];
            if (c == '\\') {
                m_line += m_at + 1 < m_in.size() && m_in[m_at + 1] == '\n' ? 1 : 0;
                m_at += 2;
                continue;
            }
            if (c == '\n') {
                ++m_line;
                if (!triple)
                    return;  // an unfinished string ends with its line; the compiler says the rest
            }
            if (c == quote && (!triple || (m_at + 2 < m_in.size() && m_in[m_at + 1] == quote && m_in[m_at + 2] == quote))) {
                m_at += triple ? 3 : 1;
                return;
            }
            ++m_at;
        }
    }

    void endLogicalLine()
    {
        const int64_t nesting = int64_t(m_indents.size() - 1) + m_deepestBrackets + m_operators;
        if (nesting > kMaxCodeNesting)
            m_problem = "line " + std::to_string(m_logicalLine) + " could nest " + std::to_string(nesting) +
                        " levels deep (its blocks, brackets and operators), more than the " + std::to_string(kMaxCodeNesting) +
                        " LibTorch's compiler is given: TorchScript prints a few, and LibTorch overflowed its stack on 10^4 (a crafted file)";
        m_deepestBrackets = m_operators = m_brackets = 0;
        m_atLogicalStart = true;
    }

    std::string_view m_in;
    size_t m_at = 0;
    size_t m_line = 1, m_logicalLine = 1;
    bool m_atLogicalStart = true;
    std::vector<size_t> m_indents{0};
    int64_t m_brackets = 0, m_deepestBrackets = 0, m_operators = 0;
    std::string m_problem;
};

}  // namespace

std::string codeNestingProblem(std::string_view source)
{
    return NestingBound(source).problem();
}

}  // namespace ddplab
