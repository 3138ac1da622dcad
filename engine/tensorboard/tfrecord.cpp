// SPDX-License-Identifier: GPL-3.0-or-later
#include "tfrecord.hpp"

#include <array>
#include <cstring>

namespace ddplab::tensorboard {
namespace {

constexpr uint32_t kCastagnoli = 0x82F63B78u;  // CRC-32C's polynomial, bit-reversed
constexpr uint32_t kMaskDelta = 0xA282EAD8u;   // TensorFlow's crc32c::kMaskDelta

// The byte-at-a-time table, made once at compile time.
constexpr std::array<uint32_t, 256> crcTable()
{
    std::array<uint32_t, 256> table{};
    for (uint32_t byte = 0; byte < 256; ++byte) {
        uint32_t crc = byte;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1u) ? (crc >> 1) ^ kCastagnoli : crc >> 1;
        table[byte] = crc;
    }
    return table;
}
constexpr std::array<uint32_t, 256> kTable = crcTable();

// Protocol-buffer wire types.
constexpr int kVarint = 0;
constexpr int kFixed64 = 1;
constexpr int kLengthDelimited = 2;
constexpr int kFixed32 = 5;

// Least significant byte first, whatever the machine's own order.
void appendLittleEndian(std::string& out, uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out.push_back(char((value >> (8 * i)) & 0xFFu));
}

}  // namespace

uint32_t crc32c(std::string_view data)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (const char c : data)
        crc = kTable[(crc ^ uint8_t(c)) & 0xFFu] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

uint32_t maskedCrc32c(std::string_view data)
{
    const uint32_t crc = crc32c(data);
    return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

std::string tfRecord(std::string_view data)
{
    std::string record;
    record.reserve(data.size() + 16);
    appendLittleEndian(record, uint64_t(data.size()), 8);
    appendLittleEndian(record, maskedCrc32c(std::string_view(record.data(), 8)), 4);
    record.append(data);
    appendLittleEndian(record, maskedCrc32c(data), 4);
    return record;
}

void ProtoWriter::tag(int field, int wireType)
{
    rawVarint((uint64_t(field) << 3) | uint64_t(wireType));
}

void ProtoWriter::rawVarint(uint64_t value)
{
    // Seven bits a byte, least significant first; the high bit says more follow.
    while (value >= 0x80) {
        m_data.push_back(char((value & 0x7F) | 0x80));
        value >>= 7;
    }
    m_data.push_back(char(value));
}

void ProtoWriter::varint(int field, uint64_t value)
{
    tag(field, kVarint);
    rawVarint(value);
}

void ProtoWriter::fixed64(int field, double value)
{
    tag(field, kFixed64);
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    appendLittleEndian(m_data, bits, 8);
}

void ProtoWriter::fixed32(int field, float value)
{
    tag(field, kFixed32);
    uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    appendLittleEndian(m_data, bits, 4);
}

void ProtoWriter::bytes(int field, std::string_view value)
{
    tag(field, kLengthDelimited);
    rawVarint(uint64_t(value.size()));
    m_data.append(value);
}

}  // namespace ddplab::tensorboard
