// SPDX-License-Identifier: GPL-3.0-or-later
#include "pickle_check.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace ddplab {
namespace {

// The instructions of pickle protocol 2 that LibTorch 1.13's unpickler reads (Python's
// pickletools.py describes each), and the three Python writes that it does not, rewritten here.
enum Op : uint8_t {
    kMark = '(',
    kStop = '.',
    kBinFloat = 'G',
    kBinInt = 'J',
    kBinInt1 = 'K',
    kBinInt2 = 'M',
    kNone = 'N',
    kBinPersId = 'Q',
    kReduce = 'R',
    kBinUnicode = 'X',
    kEmptyList = ']',
    kAppend = 'a',
    kBuild = 'b',
    kGlobal = 'c',
    kDict = 'd',
    kAppends = 'e',
    kBinGet = 'h',
    kLongBinGet = 'j',
    kList = 'l',
    kBinPut = 'q',
    kLongBinPut = 'r',
    kSetItem = 's',
    kTuple = 't',
    kSetItems = 'u',
    kEmptyDict = '}',
    kEmptyTuple = ')',
    kProto = 0x80,
    kNewObj = 0x81,
    kTuple1 = 0x85,
    kTuple2 = 0x86,
    kTuple3 = 0x87,
    kNewTrue = 0x88,
    kNewFalse = 0x89,
    kLong1 = 0x8a,
};

// The protocol torch.save and LibTorch's pickler write, and the only one LibTorch 1.13 reads.
constexpr uint8_t kProtocol = 2;
// LONG1's widest integer LibTorch reads: 8 bytes, an int64.
constexpr size_t kLongBytes = 8;

// Names for a person, of every instruction of protocols 0 to 5 (a file of another protocol
// is named by what it holds).
const char* instructionName(uint8_t op)
{
    switch (op) {
    case '(': return "MARK";
    case '.': return "STOP";
    case '0': return "POP";
    case '1': return "POP_MARK";
    case '2': return "DUP";
    case 'F': return "FLOAT";
    case 'G': return "BINFLOAT";
    case 'I': return "INT";
    case 'J': return "BININT";
    case 'K': return "BININT1";
    case 'L': return "LONG";
    case 'M': return "BININT2";
    case 'N': return "NONE";
    case 'P': return "PERSID";
    case 'Q': return "BINPERSID";
    case 'R': return "REDUCE";
    case 'S': return "STRING";
    case 'T': return "BINSTRING";
    case 'U': return "SHORT_BINSTRING";
    case 'V': return "UNICODE";
    case 'X': return "BINUNICODE";
    case 'a': return "APPEND";
    case 'b': return "BUILD";
    case 'c': return "GLOBAL";
    case 'd': return "DICT";
    case '}': return "EMPTY_DICT";
    case 'e': return "APPENDS";
    case 'g': return "GET";
    case 'h': return "BINGET";
    case 'i': return "INST";
    case 'j': return "LONG_BINGET";
    case 'l': return "LIST";
    case ']': return "EMPTY_LIST";
    case 'o': return "OBJ";
    case 'p': return "PUT";
    case 'q': return "BINPUT";
    case 'r': return "LONG_BINPUT";
    case 's': return "SETITEM";
    case 't': return "TUPLE";
    case ')': return "EMPTY_TUPLE";
    case 'u': return "SETITEMS";
    case 0x80: return "PROTO";
    case 0x81: return "NEWOBJ";
    case 0x82: return "EXT1";
    case 0x83: return "EXT2";
    case 0x84: return "EXT4";
    case 0x85: return "TUPLE1";
    case 0x86: return "TUPLE2";
    case 0x87: return "TUPLE3";
    case 0x88: return "NEWTRUE";
    case 0x89: return "NEWFALSE";
    case 0x8a: return "LONG1";
    case 0x8b: return "LONG4";
    case 'B': return "BINBYTES";
    case 'C': return "SHORT_BINBYTES";
    case 0x8c: return "SHORT_BINUNICODE";
    case 0x8d: return "BINUNICODE8";
    case 0x8e: return "BINBYTES8";
    case 0x8f: return "EMPTY_SET";
    case 0x90: return "ADDITEMS";
    case 0x91: return "FROZENSET";
    case 0x92: return "NEWOBJ_EX";
    case 0x93: return "STACK_GLOBAL";
    case 0x94: return "MEMOIZE";
    case 0x95: return "FRAME";
    case 0x96: return "BYTEARRAY8";
    case 0x97: return "NEXT_BUFFER";
    case 0x98: return "READONLY_BUFFER";
    default: return nullptr;
    }
}

std::string instructionText(uint8_t op)
{
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", unsigned(op));
    const char* name = instructionName(op);
    return name ? std::string(name) + " (" + hex + ")" : std::string("byte ") + hex + ", which is no pickle instruction";
}

std::string valuesText(size_t count)
{
    return std::to_string(count) + (count == 1 ? " value" : " values");
}

struct Refusal {
    std::string problem;
};

// One walk over the instructions. Every value gets a node: how deep it nests, and whether it
// is inside another value already. Legitimate pickles fill a list, dict or object before they
// put it inside another (Python's and LibTorch's picklers both do); changing one that is inside
// another already is refused, which keeps every node's depth final once it is contained and
// makes a value that contains itself, however indirectly, impossible but for the direct case.
class Walker {
public:
    explicit Walker(std::string_view pickle) : m_in(pickle) {}

    PickleCheck run()
    {
        PickleCheck check;
        try {
            walk();
            check.readable = assemble();
            check.depth = m_deepest;
        } catch (const Refusal& refusal) {
            check.problem = refusal.problem;
        }
        return check;
    }

private:
    struct Value {
        uint32_t node;
        size_t start;  // the byte where the instructions that made it begin
    };
    struct Mark {
        size_t height;  // the stack's size when it was set
        size_t at;
    };
    struct Replacement {
        size_t at;
        size_t length;
        std::string bytes;
    };

    [[noreturn]] void refuse(const std::string& problem) const { throw Refusal{problem}; }

    std::string here() const { return instructionText(m_op) + " at byte " + std::to_string(m_at); }

    [[noreturn]] void refuseDamaged(const std::string& what) const
    {
        refuse("is damaged or crafted: its instruction " + here() + " " + what);
    }

    // The instruction's argument: `bytes` more after the opcode, which must be there.
    const char* argument(size_t bytes)
    {
        if (m_in.size() - m_next < bytes)
            refuse("ends inside its instruction " + here() + ": the file is cut short or damaged");
        const char* begin = m_in.data() + m_next;
        m_next += bytes;
        return begin;
    }

    uint64_t littleEndian(size_t bytes)
    {
        const unsigned char* raw = reinterpret_cast<const unsigned char*>(argument(bytes));
        uint64_t value = 0;
        for (size_t i = bytes; i-- > 0;)
            value = (value << 8) | raw[i];
        return value;
    }

    // A number, a string or a global nests 0 deep, a list or tuple or dict (empty too) 1 deeper
    // than what it holds.
    uint32_t newNode(int64_t depth)
    {
        if (m_depth.size() >= std::numeric_limits<uint32_t>::max())
            refuse("holds more than 4 billion values");
        m_depth.push_back(depth);
        m_inside.push_back(false);
        return uint32_t(m_depth.size() - 1);
    }

    void pushLeaf(size_t start) { m_stack.push_back({newNode(0), start}); }
    void pushContainer(size_t start) { m_stack.push_back({newNode(1), start}); }

    // The values above the last mark: an instruction may take no more (LibTorch would read
    // below its stack or past the mark).
    size_t valuesAboveMark() const { return m_stack.size() - (m_marks.empty() ? 0 : m_marks.back().height); }

    void requireValues(size_t count) const
    {
        if (valuesAboveMark() < count)
            refuseDamaged("takes " + valuesText(count) + " and finds " + std::to_string(valuesAboveMark()));
    }

    Mark popMark()
    {
        if (m_marks.empty())
            refuseDamaged("takes the values after a mark, and there is none");
        const Mark mark = m_marks.back();
        m_marks.pop_back();
        return mark;
    }

    void contain(uint32_t outer, uint32_t inner)
    {
        if (outer == inner)
            refuse("holds a value inside itself (" + here() + "), which LibTorch cannot read: a crafted file");
        if (m_inside[outer])
            refuse("changes a value that is inside another already (" + here() +
                   "), which neither Python nor LibTorch writes: a crafted file");
        m_inside[inner] = true;
        m_depth[outer] = std::max(m_depth[outer], m_depth[inner] + 1);
        if (m_depth[outer] > kMaxPickleDepth)
            refuse("nests values more than " + std::to_string(kMaxPickleDepth) + " deep (" + here() +
                   "), deeper than Python's pickle writes (its recursion limit, 1000): a crafted file, refused before "
                   "LibTorch's reader would overflow its stack");
        m_deepest = std::max(m_deepest, m_depth[outer]);
    }

    // A new value made of the `count` values on top of the stack (TUPLE1, REDUCE, ...).
    void combineTop(size_t count)
    {
        requireValues(count);
        const size_t first = m_stack.size() - count;
        const Value made{newNode(1), m_stack[first].start};
        for (size_t i = first; i < m_stack.size(); ++i)
            contain(made.node, m_stack[i].node);
        m_stack.resize(first);
        m_stack.push_back(made);
    }

    // LIST, TUPLE, DICT: a new value of the values after the last mark.
    void combineMarked(bool pairs)
    {
        const Mark mark = popMark();
        if (pairs && (m_stack.size() - mark.height) % 2 != 0)
            refuseDamaged("takes keys and values in pairs and finds " + valuesText(m_stack.size() - mark.height));
        const Value made{newNode(1), mark.at};
        for (size_t i = mark.height; i < m_stack.size(); ++i)
            contain(made.node, m_stack[i].node);
        m_stack.resize(mark.height);
        m_stack.push_back(made);
    }

    // APPENDS, SETITEMS: the values after the last mark go into the one below it.
    void fillMarked(bool pairs)
    {
        const Mark mark = popMark();
        const size_t floor = m_marks.empty() ? 0 : m_marks.back().height;
        if (mark.height == 0 || mark.height - 1 < floor)
            refuseDamaged("fills the value before its mark, and there is none");
        if (pairs && (m_stack.size() - mark.height) % 2 != 0)
            refuseDamaged("takes keys and values in pairs and finds " + valuesText(m_stack.size() - mark.height));
        const uint32_t target = m_stack[mark.height - 1].node;
        for (size_t i = mark.height; i < m_stack.size(); ++i)
            contain(target, m_stack[i].node);
        m_stack.resize(mark.height);
    }

    // APPEND, SETITEM: the last `count` values go into the one below them. LibTorch 1.13 reads
    // only the plural forms: a mark goes where the first of them began.
    void fillTop(size_t count, uint8_t plural)
    {
        requireValues(count + 1);
        const size_t first = m_stack.size() - count;
        const uint32_t target = m_stack[first - 1].node;
        for (size_t i = first; i < m_stack.size(); ++i)
            contain(target, m_stack[i].node);
        m_marksToInsert.push_back(m_stack[first].start);
        m_replacements.push_back({m_at, 1, std::string(1, char(plural))});
        m_stack.resize(first);
    }

    void memoPut(uint64_t slot)
    {
        if (m_stack.empty())
            refuseDamaged("keeps the value on top of the stack, and the stack is empty");
        // Python and LibTorch number the memo's slots 0, 1, 2, ...; LibTorch would allocate
        // every slot up to one far ahead.
        if (slot > m_memo.size())
            refuseDamaged("keeps a value in memo slot " + std::to_string(slot) + " while only " + std::to_string(m_memo.size()) +
                          " are filled");
        if (slot == m_memo.size())
            m_memo.push_back(m_stack.back().node);
        else
            m_memo[slot] = m_stack.back().node;
    }

    void memoGet(uint64_t slot)
    {
        if (slot >= m_memo.size())
            refuseDamaged("takes memo slot " + std::to_string(slot) + " while only " + std::to_string(m_memo.size()) + " are filled");
        m_stack.push_back({m_memo[slot], m_at});
    }

    // LONG1: LibTorch 1.13 reads it only 8 bytes long; Python writes the fewest bytes that hold
    // the integer (5 for 2^32). Widened, sign and value kept.
    void long1()
    {
        const size_t length = size_t(littleEndian(1));
        const unsigned char* raw = reinterpret_cast<const unsigned char*>(argument(length));
        if (length > kLongBytes)
            refuse("holds an integer of 2^63 or more (" + here() + "), more than LibTorch's 64-bit integers hold");
        if (length < kLongBytes) {
            const bool negative = length > 0 && (raw[length - 1] & 0x80) != 0;
            std::string widened{char(kLong1), char(kLongBytes)};
            widened.append(reinterpret_cast<const char*>(raw), length);
            widened.append(kLongBytes - length, negative ? '\xff' : '\0');
            m_replacements.push_back({m_at, 2 + length, widened});
        }
        pushLeaf(m_at);
    }

    void global()
    {
        for (int line = 0; line < 2; ++line) {
            const size_t end = m_in.find('\n', m_next);
            if (end == std::string_view::npos)
                refuse("ends inside its instruction " + here() + ": the file is cut short or damaged");
            m_next = end + 1;
        }
        pushLeaf(m_at);
    }

    void walk()
    {
        bool first = true;
        for (m_at = 0; m_at < m_in.size(); m_at = m_next) {
            m_op = uint8_t(m_in[m_at]);
            m_next = m_at + 1;
            if (first) {
                if (m_op != kProto)
                    refuse("does not begin as a pickle does (with PROTO 2, as torch.save writes): it is no pickle, or a damaged one");
                first = false;
            }
            switch (m_op) {
            case kProto: {
                const uint64_t protocol = littleEndian(1);
                if (m_at != 0)
                    refuseDamaged("comes after the start");
                if (protocol != kProtocol)
                    refuse("is a pickle of protocol " + std::to_string(protocol) +
                           "; LibTorch reads protocol 2, which torch.save writes unless told otherwise (pickle_protocol=2)");
                break;
            }
            case kStop:
                if (m_stack.size() != 1)
                    refuseDamaged("ends the pickle with " + std::to_string(m_stack.size()) + " values left, not one");
                m_end = m_next;
                return;
            case kMark:
                m_marks.push_back({m_stack.size(), m_at});
                break;
            case kBinInt1: argument(1); pushLeaf(m_at); break;
            case kBinInt2: argument(2); pushLeaf(m_at); break;
            case kBinInt: argument(4); pushLeaf(m_at); break;
            case kBinFloat: argument(8); pushLeaf(m_at); break;
            case kLong1: long1(); break;
            case kNone:
            case kNewTrue:
            case kNewFalse:
                pushLeaf(m_at);
                break;
            case kBinUnicode: {
                const uint64_t length = littleEndian(4);
                argument(length);
                pushLeaf(m_at);
                break;
            }
            case kGlobal: global(); break;
            case kEmptyList:
            case kEmptyDict:
            case kEmptyTuple:
                pushContainer(m_at);
                break;
            case kList:
            case kTuple: combineMarked(false); break;
            case kDict: combineMarked(true); break;
            case kAppends: fillMarked(false); break;
            case kSetItems: fillMarked(true); break;
            case kAppend: fillTop(1, kAppends); break;
            case kSetItem: fillTop(2, kSetItems); break;
            case kTuple1: combineTop(1); break;
            case kTuple2: combineTop(2); break;
            case kTuple3: combineTop(3); break;
            // What the callable (a GLOBAL) makes of its arguments: a new value holding them.
            case kReduce:
            case kNewObj: combineTop(2); break;
            case kBinPersId: combineTop(1); break;
            case kBuild: {
                requireValues(2);
                contain(m_stack[m_stack.size() - 2].node, m_stack.back().node);
                m_stack.pop_back();
                break;
            }
            case kBinPut: memoPut(littleEndian(1)); break;
            case kLongBinPut: memoPut(littleEndian(4)); break;
            case kBinGet: memoGet(littleEndian(1)); break;
            case kLongBinGet: memoGet(littleEndian(4)); break;
            default:
                refuse("holds the pickle instruction " + here() +
                       ", which LibTorch's reader does not take; torch.save's protocol 2 writes the data files and checkpoints it reads");
            }
        }
        refuse(m_in.empty() ? "is empty: it holds no pickle" : "ends before its STOP instruction: the file is cut short or damaged");
    }

    // The pickle up to its STOP with the marks inserted and the instructions replaced.
    std::string assemble()
    {
        std::sort(m_marksToInsert.begin(), m_marksToInsert.end());
        std::sort(m_replacements.begin(), m_replacements.end(), [](const Replacement& a, const Replacement& b) { return a.at < b.at; });
        std::string out;
        out.reserve(m_end + m_marksToInsert.size() + kLongBytes * m_replacements.size());
        size_t mark = 0, replacement = 0, done = 0;
        while (done < m_end) {
            const size_t nextMark = mark < m_marksToInsert.size() ? m_marksToInsert[mark] : m_end;
            const size_t nextReplacement = replacement < m_replacements.size() ? m_replacements[replacement].at : m_end;
            // Marks go before instructions and replacements cover one instruction: never behind.
            const size_t until = std::max(done, std::min(nextMark, nextReplacement));
            out.append(m_in.data() + done, until - done);
            done = until;
            if (nextMark == done && mark < m_marksToInsert.size()) {
                out += char(kMark);
                ++mark;
            } else if (nextReplacement <= done && replacement < m_replacements.size()) {
                out += m_replacements[replacement].bytes;
                done = m_replacements[replacement].at + m_replacements[replacement].length;
                ++replacement;
            } else if (nextMark < done) {
                ++mark;
            }
        }
        return out;
    }

    std::string_view m_in;
    size_t m_at = 0, m_next = 0, m_end = 0;
    uint8_t m_op = 0;
    std::vector<Value> m_stack;
    std::vector<Mark> m_marks;
    std::vector<uint32_t> m_memo;
    std::vector<int64_t> m_depth;  // per node
    std::vector<bool> m_inside;    // per node: inside another value already
    std::vector<size_t> m_marksToInsert;
    std::vector<Replacement> m_replacements;
    int64_t m_deepest = 0;
};

}  // namespace

PickleCheck checkPickle(std::string_view pickle)
{
    return Walker(pickle).run();
}

}  // namespace ddplab
