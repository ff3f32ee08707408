// protobuf's wire format as the containerd client writes and reads it: what ProtoWriter writes, ProtoReader
// reads back, field by field, with the bytes protobuf's own encoder gives (protobuf.dev's encoding page), and
// every malformed message is one InputError.
#include <gtest/gtest.h>

#include "containerd/grpc_call.h"
#include "containerd/protobuf_wire.h"
#include "source/byte_streams.h"
#include "util/error.h"

namespace imgaudit {
namespace {

std::vector<ProtoField> fields_of(std::string_view message) {
  std::vector<ProtoField> out;
  ProtoReader reader(message, "test message");
  for (ProtoField f; reader.next(&f);) out.push_back(f);
  return out;
}

std::string error_of(std::string_view message) {
  try {
    fields_of(message);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ProtobufWire, WritesTheBytesProtobufWrites) {
  ProtoWriter w;
  w.add_varint(1, 150);      // the encoding page's example: 08 96 01
  w.add_bytes(2, "testing");  // 12 07 74 65 73 74 69 6e 67
  EXPECT_EQ(w.bytes(), std::string("\x08\x96\x01\x12\x07testing", 12));
  ProtoWriter big;
  big.add_varint(3, ~uint64_t(0));  // ten bytes, the last 01
  EXPECT_EQ(big.bytes(), std::string("\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11));
}

TEST(ProtobufWire, ReadsBackWhatItWrites) {
  ProtoWriter w;
  w.add_bytes(1, "sha256:abc");
  w.add_varint(2, 0);
  w.add_varint(536870911, ~uint64_t(0));  // the largest field number and value
  w.add_bytes(3, std::string(300, 'x'));  // a two-byte length
  std::vector<ProtoField> f = fields_of(w.bytes());
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].number, 1u);
  EXPECT_EQ(f[0].wire, ProtoField::Wire::Bytes);
  EXPECT_EQ(f[0].bytes, "sha256:abc");
  EXPECT_EQ(f[1].varint, 0u);
  EXPECT_EQ(f[2].number, 536870911u);
  EXPECT_EQ(f[2].varint, ~uint64_t(0));
  EXPECT_EQ(f[3].bytes.size(), 300u);
}

// Fixed-width fields (a newer containerd's double or fixed64) are stepped over, as unknown fields are.
TEST(ProtobufWire, StepsOverFixedWidthFields) {
  std::string m = std::string("\x09", 1) + std::string(8, '\0') + std::string("\x15", 1) + std::string(4, '\0') +
                  std::string("\x18\x07", 2);
  std::vector<ProtoField> f = fields_of(m);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].wire, ProtoField::Wire::Fixed64);
  EXPECT_EQ(f[1].wire, ProtoField::Wire::Fixed32);
  EXPECT_EQ(f[2].varint, 7u);
}

TEST(ProtobufWire, RefusesMalformedMessages) {
  const std::string prefix = "test message: malformed protobuf message: ";
  EXPECT_EQ(error_of(std::string("\x08", 1)), prefix + "a varint cut short");
  EXPECT_EQ(error_of(std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12)),
            prefix + "a varint longer than 10 bytes");
  EXPECT_EQ(error_of(std::string("\x12\x05" "abc", 5)), prefix + "a field of 5 bytes where 3 are left");
  // A length of 2^63 does not wrap around the end.
  EXPECT_EQ(error_of(std::string("\x12\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11)),
            prefix + "a field of 9223372036854775808 bytes where 0 are left");
  EXPECT_EQ(error_of(std::string("\x00\x01", 2)), prefix + "field number 0");
  EXPECT_EQ(error_of(std::string("\x0b", 1)), prefix + "wire type 3 of field 1");  // a group
  EXPECT_EQ(error_of(std::string("\x0e", 1)), prefix + "wire type 6 of field 1");
  EXPECT_EQ(error_of(std::string("\x09\x00\x00", 3)), prefix + "a field of 8 bytes where 2 are left");
  EXPECT_EQ(error_of(std::string()), "no error");  // the empty message: every field at its default
}

std::string read_error(const std::string& body) {
  StringStream in(body);
  try {
    while (read_grpc_message(in, "answer")) {
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// An answer's body, message by message, as GrpcCall reads it; every broken body is one InputError.
TEST(GrpcFrame, ReadsMessagesBackAndRefusesBrokenBodies) {
  StringStream in(grpc_frame("first") + grpc_frame("") + grpc_frame(std::string(70000, 'x')));
  EXPECT_EQ(read_grpc_message(in, "answer"), "first");
  EXPECT_EQ(read_grpc_message(in, "answer"), "");
  EXPECT_EQ(read_grpc_message(in, "answer")->size(), 70000u);
  EXPECT_EQ(read_grpc_message(in, "answer"), std::nullopt);
  EXPECT_EQ(read_error(std::string("\0\0\0", 3)), "answer: a gRPC message cut short in its prefix");
  EXPECT_EQ(read_error(grpc_frame("abcdef").substr(0, 8)), "answer: a gRPC message cut short");
  EXPECT_EQ(read_error(std::string("\x01\0\0\0\x01x", 6)), "answer: a compressed gRPC message, though none was asked for");
  // 4 GiB claimed: refused before a byte is allocated.
  EXPECT_EQ(read_error(std::string("\0\xff\xff\xff\xff", 5)),
            "answer: a gRPC message of 4294967295 bytes, over the limit of 4194304 (kMaxGrpcMessage)");
}

TEST(GrpcFrame, PrefixesTheLengthBigEndianUncompressed) {
  EXPECT_EQ(grpc_frame(""), std::string(5, '\0'));
  EXPECT_EQ(grpc_frame(std::string(0x10203, 'x')).substr(0, 5), std::string("\x00\x00\x01\x02\x03", 5));
  EXPECT_EQ(grpc_frame("ab"), std::string("\x00\x00\x00\x00\x02" "ab", 7));
}

}  // namespace
}  // namespace imgaudit
