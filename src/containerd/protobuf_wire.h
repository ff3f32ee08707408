#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace imgaudit {

// Protocol Buffers' wire format (protobuf.dev/programming-guides/encoding): the part containerd's API messages
// use, varints and length-delimited fields. Four small messages do not pay for protoc in the build and
// libprotobuf in the static release; a field this reader does not know is skipped, as protobuf's own
// parsers skip it, so a newer containerd's additions do no harm.

// Builds a message field by field.
class ProtoWriter {
 public:
  void add_varint(uint32_t field, uint64_t value);
  void add_bytes(uint32_t field, std::string_view bytes);  // strings, bytes and embedded messages
  const std::string& bytes() const { return out_; }

 private:
  void put_varint(uint64_t value);
  std::string out_;
};

struct ProtoField {
  enum class Wire { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };
  uint32_t number = 0;
  Wire wire = Wire::Varint;
  uint64_t varint = 0;     // a Varint field's value
  std::string_view bytes;  // a Bytes field's content (a view into the message)
};

// Reads a message's fields in order. Throws InputError "<what>: malformed protobuf message: ..." for a
// truncated field, a varint over 10 bytes, a length past the end, field number 0 or a group (wire types 3
// and 4, which no proto3 message has).
class ProtoReader {
 public:
  ProtoReader(std::string_view message, std::string what) : rest_(message), what_(std::move(what)) {}
  // The next field into *field; false at the end of the message.
  bool next(ProtoField* field);

 private:
  uint64_t take_varint();
  std::string_view take(uint64_t n);
  [[noreturn]] void malformed(const std::string& why) const;
  std::string_view rest_;
  std::string what_;
};

}  // namespace imgaudit
