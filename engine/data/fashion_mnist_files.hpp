// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The four Fashion-MNIST files, read and checked once per process and kept in memory. The
// launcher loads them before it forks, so every rank shares the same pages (copy-on-write)
// instead of decompressing 30 MB each, and a broken file is reported before any rank starts.

#include <cstdint>
#include <string>
#include <vector>

namespace ddplab {

constexpr int64_t kImageSide = 28;
constexpr int64_t kImagePixels = kImageSide * kImageSide;
constexpr int64_t kClasses = 10;
constexpr int64_t kTrainImages = 60'000;  // the most a train file may hold
constexpr int64_t kTestImages = 10'000;

struct FashionMnistSplit {
    int64_t count = 0;
    std::vector<uint8_t> images;  // count x 28 x 28, row-major
    std::vector<uint8_t> labels;  // count, each 0..9
};

struct FashionMnistData {
    FashionMnistSplit train;  // 60,000
    FashionMnistSplit test;   // 10,000
};

// Throws DataError naming the file and the problem.
const FashionMnistData& loadFashionMnist(const std::string& dataDir);

}  // namespace ddplab
