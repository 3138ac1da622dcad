// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A pickle looked over before LibTorch's unpickler reads it (data files, checkpoints, the
// pickles of a TorchScript archive). LibTorch 1.13's unpickler trusts what it reads: an
// instruction that takes more values than its stack holds, or a mark never set, reads outside
// its vectors (SIGSEGV); a memo slot numbered 2^32 - 1 makes it allocate 2^32 slots; a value
// nested some 10^5 deep (a 3 MB file) overflows the stack in the recursion that builds or frees
// it. And it reads neither of the instructions Python's own pickler writes for a list or dict
// of one item (APPEND, SETITEM) nor an integer in fewer than 8 bytes (LONG1): a checkpoint or
// data file saved again with torch.save would be refused.
//
// checkPickle walks the instructions once, as an unpickler would, keeping of each value only
// how deep it nests, and answers either with a sentence saying what is wrong or with the same
// pickle in the instructions LibTorch 1.13 reads (APPEND and SETITEM given the mark their
// plural forms take, a short LONG1 widened to 8 bytes). No LibTorch: the fuzz targets drive it.

#include <cstdint>
#include <string>
#include <string_view>

namespace ddplab {

// The deepest nesting a pickle may hold. Python's pickler recurses once per level and stops at
// its recursion limit (1000 by default), so torch.save writes nothing deeper; LibTorch's
// unpickler overflows an 8 MiB stack some hundred times deeper.
constexpr int64_t kMaxPickleDepth = 1000;

struct PickleCheck {
    std::string problem;   // "" when LibTorch may read `readable`; else what is wrong, for a person
    std::string readable;  // the same pickle in the instructions LibTorch 1.13 reads
    int64_t depth = 0;     // how deep its values nest (a list of numbers: 1)
};

// `problem` reads after the record's name: "nests a value 1000001 deep, ...".
PickleCheck checkPickle(std::string_view pickle);

}  // namespace ddplab
