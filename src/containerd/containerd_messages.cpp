#include "containerd/containerd_messages.h"

#include <optional>

#include "containerd/protobuf_wire.h"
#include "source/json_blobs.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// A field's bytes, or InputError when the field has another wire type.
std::string_view bytes_of(const ProtoField& f, const char* what) {
  if (f.wire != ProtoField::Wire::Bytes)
    throw InputError(std::string(what) + ": field " + std::to_string(f.number) + " is not length-delimited");
  return f.bytes;
}

// An int64 field's value as a size: protobuf writes a negative int64 as a 10-byte varint.
uint64_t size_of(const ProtoField& f, const char* what) {
  if (f.wire != ProtoField::Wire::Varint || static_cast<int64_t>(f.varint) < 0)
    throw InputError(std::string(what) + ": field " + std::to_string(f.number) + " is not a size");
  return f.varint;
}

// The one embedded message in field `number` of `message`; InputError when it is absent.
std::string_view embedded(std::string_view message, uint32_t number, const char* what) {
  std::optional<std::string_view> found;
  ProtoReader reader(message, what);
  for (ProtoField f; reader.next(&f);)
    if (f.number == number) found = bytes_of(f, what);  // the last one counts, as protobuf merges
  if (!found) throw InputError(std::string(what) + ": no field " + std::to_string(number));
  return *found;
}

Descriptor decode_descriptor(std::string_view message) {
  const char* what = "containerd's image target";
  Descriptor d;
  ProtoReader reader(message, what);
  for (ProtoField f; reader.next(&f);) {
    if (f.number == 1) d.media_type = std::string(bytes_of(f, what));
    if (f.number == 2) d.digest = std::string(bytes_of(f, what));
    if (f.number == 3) d.size = static_cast<int64_t>(size_of(f, what));
  }
  d.digest = descriptor_digest(nlohmann::json{{"digest", d.digest}}, what);
  return d;
}

}  // namespace

std::string encode_get_image(const std::string& name) {
  ProtoWriter w;
  w.add_bytes(1, name);
  return w.bytes();
}

std::string encode_content_info(const std::string& digest) {
  ProtoWriter w;
  w.add_bytes(1, digest);
  return w.bytes();
}

std::string encode_read_content(const std::string& digest, uint64_t offset, uint64_t size) {
  ProtoWriter w;
  w.add_bytes(1, digest);
  if (offset) w.add_varint(2, offset);
  if (size) w.add_varint(3, size);
  return w.bytes();
}

ContainerdImage decode_get_image(std::string_view answer) {
  std::string_view image = embedded(answer, 1, "containerd's image record");
  ContainerdImage out;
  std::optional<std::string_view> target;
  ProtoReader reader(image, "containerd's image record");
  for (ProtoField f; reader.next(&f);) {
    if (f.number == 1) out.name = std::string(bytes_of(f, "containerd's image name"));
    if (f.number == 3) target = bytes_of(f, "containerd's image target");
  }
  if (!target) throw InputError("containerd's image record has no target");
  out.target = decode_descriptor(*target);
  return out;
}

uint64_t decode_content_size(std::string_view answer) {
  std::string_view info = embedded(answer, 1, "containerd's content record");
  uint64_t size = 0;
  ProtoReader reader(info, "containerd's content record");
  for (ProtoField f; reader.next(&f);)
    if (f.number == 2) size = size_of(f, "containerd's content record");
  return size;
}

std::string_view decode_read_data(std::string_view answer) {
  std::string_view data;
  ProtoReader reader(answer, "containerd's content");
  for (ProtoField f; reader.next(&f);)
    if (f.number == 2) data = bytes_of(f, "containerd's content");
  return data;
}

}  // namespace imgaudit
