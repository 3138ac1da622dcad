// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bytes of a TensorBoard event file, written by hand (no TensorFlow, no protobuf library):
// the protocol-buffer wire format for the few messages the lab writes (varints, fixed 32- and
// 64-bit numbers, length-delimited strings and messages), and TensorFlow's record framing
// around each message:
//   uint64 length (little-endian), uint32 masked CRC32C of those 8 bytes,
//   the data, uint32 masked CRC32C of the data.
// The CRC is Castagnoli's (CRC32C), masked as TensorFlow's crc32c::Mask does, so that a CRC of
// data that holds CRCs is not itself easy to confuse with one. No Qt, no LibTorch: the engine
// and the window both write through it.

#include <cstdint>
#include <string>
#include <string_view>

namespace ddplab::tensorboard {

// CRC32C (Castagnoli, reflected polynomial 0x82F63B78), table-driven: "123456789" -> 0xE3069283.
uint32_t crc32c(std::string_view data);
// ((crc >> 15) | (crc << 17)) + 0xA282EAD8: the CRC as a TFRecord stores it.
uint32_t maskedCrc32c(std::string_view data);
// One TFRecord: length, its masked CRC, `data`, its masked CRC.
std::string tfRecord(std::string_view data);

// A protocol-buffer message, field by field, in the order written. Every field given is written,
// a zero too (a reader takes it as the same value; a field of a oneof needs it to be present).
class ProtoWriter {
public:
    void varint(int field, uint64_t value);   // wire type 0: int32, int64 (two's complement), enum, bool
    void fixed64(int field, double value);    // wire type 1: double
    void fixed32(int field, float value);     // wire type 5: float
    void bytes(int field, std::string_view value);  // wire type 2: bytes, a string, an embedded message
    void message(int field, const ProtoWriter& value) { bytes(field, value.data()); }

    const std::string& data() const { return m_data; }

private:
    void tag(int field, int wireType);
    void rawVarint(uint64_t value);

    std::string m_data;
};

}  // namespace ddplab::tensorboard
