#include "containerd/protobuf_wire.h"

#include "util/error.h"

namespace imgaudit {

namespace {
// A varint holds 7 bits a byte: 64 bits take at most 10.
constexpr int kMaxVarintBytes = 10;
}  // namespace

void ProtoWriter::put_varint(uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<char>(value));
}

void ProtoWriter::add_varint(uint32_t field, uint64_t value) {
  put_varint(uint64_t(field) << 3 | uint64_t(ProtoField::Wire::Varint));
  put_varint(value);
}

void ProtoWriter::add_bytes(uint32_t field, std::string_view bytes) {
  put_varint(uint64_t(field) << 3 | uint64_t(ProtoField::Wire::Bytes));
  put_varint(bytes.size());
  out_.append(bytes);
}

void ProtoReader::malformed(const std::string& why) const {
  throw InputError(what_ + ": malformed protobuf message: " + why);
}

uint64_t ProtoReader::take_varint() {
  uint64_t value = 0;
  for (int i = 0; i < kMaxVarintBytes; ++i) {
    if (rest_.empty()) malformed("a varint cut short");
    auto byte = static_cast<unsigned char>(rest_.front());
    rest_.remove_prefix(1);
    value |= uint64_t(byte & 0x7f) << (7 * i);
    if (!(byte & 0x80)) return value;
  }
  malformed("a varint longer than 10 bytes");
}

std::string_view ProtoReader::take(uint64_t n) {
  if (n > rest_.size())
    malformed("a field of " + std::to_string(n) + " bytes where " + std::to_string(rest_.size()) + " are left");
  std::string_view taken = rest_.substr(0, n);
  rest_.remove_prefix(n);
  return taken;
}

bool ProtoReader::next(ProtoField* field) {
  if (rest_.empty()) return false;
  uint64_t key = take_varint();
  uint64_t number = key >> 3;
  if (number == 0 || number > 0x1fffffff) malformed("field number " + std::to_string(number));
  *field = ProtoField{};
  field->number = static_cast<uint32_t>(number);
  switch (key & 7) {
    case 0: field->wire = ProtoField::Wire::Varint; field->varint = take_varint(); break;
    case 1: field->wire = ProtoField::Wire::Fixed64; take(8); break;
    case 2: field->wire = ProtoField::Wire::Bytes; field->bytes = take(take_varint()); break;
    case 5: field->wire = ProtoField::Wire::Fixed32; take(4); break;
    default: malformed("wire type " + std::to_string(key & 7) + " of field " + std::to_string(number));
  }
  return true;
}

}  // namespace imgaudit
