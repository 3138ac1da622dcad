// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorboard_records.hpp"

#include <QtEndian>

#include <array>
#include <cstring>

namespace ddplab::ui {
namespace {

constexpr quint32 kCastagnoli = 0x82F63B78u;  // CRC-32C's polynomial, bit-reversed
constexpr quint32 kMaskDelta = 0xA282EAD8u;   // TensorFlow's crc32c::kMaskDelta

// The byte-at-a-time table, made once at compile time.
constexpr std::array<quint32, 256> crcTable()
{
    std::array<quint32, 256> table{};
    for (quint32 byte = 0; byte < 256; ++byte) {
        quint32 crc = byte;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1u) ? (crc >> 1) ^ kCastagnoli : crc >> 1;
        table[byte] = crc;
    }
    return table;
}
constexpr std::array<quint32, 256> kTable = crcTable();

// Protocol-buffer wire types.
constexpr int kVarint = 0;
constexpr int kFixed64 = 1;
constexpr int kLengthDelimited = 2;
constexpr int kFixed32 = 5;

template <typename T>
void appendLittleEndian(QByteArray& out, T value)
{
    char bytes[sizeof(T)];
    qToLittleEndian(value, bytes);
    out.append(bytes, sizeof(T));
}

}  // namespace

quint32 crc32c(QByteArrayView data)
{
    quint32 crc = 0xFFFFFFFFu;
    for (const char c : data)
        crc = kTable[(crc ^ quint8(c)) & 0xFFu] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

quint32 maskedCrc32c(QByteArrayView data)
{
    const quint32 crc = crc32c(data);
    return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

QByteArray tfRecord(QByteArrayView data)
{
    QByteArray record;
    record.reserve(data.size() + 16);
    appendLittleEndian<quint64>(record, quint64(data.size()));
    appendLittleEndian<quint32>(record, maskedCrc32c(QByteArrayView(record.constData(), 8)));
    record.append(data);
    appendLittleEndian<quint32>(record, maskedCrc32c(data));
    return record;
}

void ProtoWriter::tag(int field, int wireType)
{
    rawVarint((quint64(field) << 3) | quint64(wireType));
}

void ProtoWriter::rawVarint(quint64 value)
{
    // Seven bits a byte, least significant first; the high bit says more follow.
    while (value >= 0x80) {
        m_data.append(char((value & 0x7F) | 0x80));
        value >>= 7;
    }
    m_data.append(char(value));
}

void ProtoWriter::varint(int field, quint64 value)
{
    tag(field, kVarint);
    rawVarint(value);
}

void ProtoWriter::fixed64(int field, double value)
{
    tag(field, kFixed64);
    quint64 bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    appendLittleEndian<quint64>(m_data, bits);
}

void ProtoWriter::fixed32(int field, float value)
{
    tag(field, kFixed32);
    quint32 bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    appendLittleEndian<quint32>(m_data, bits);
}

void ProtoWriter::bytes(int field, QByteArrayView value)
{
    tag(field, kLengthDelimited);
    rawVarint(quint64(value.size()));
    m_data.append(value);
}

}  // namespace ddplab::ui
