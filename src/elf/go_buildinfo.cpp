#include "elf/go_buildinfo.h"

namespace imgaudit {
namespace {

constexpr size_t kHeaderSize = 32;

// Reads an unsigned LEB128 varint; nullopt when it runs past `in` or overflows.
std::optional<uint64_t> read_uvarint(std::string_view& in) {
  uint64_t value = 0;
  for (unsigned shift = 0; shift < 64 && !in.empty(); shift += 7) {
    unsigned char b = in.front();
    in.remove_prefix(1);
    value |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return value;
  }
  return std::nullopt;
}

std::optional<std::string_view> read_inline_string(std::string_view& in) {
  auto len = read_uvarint(in);
  if (!len || *len > in.size()) return std::nullopt;
  std::string_view s = in.substr(0, *len);
  in.remove_prefix(*len);
  return s;
}

uint64_t read_pointer(std::string_view bytes, size_t size, bool big_endian) {
  uint64_t v = 0;
  for (size_t i = 0; i < size; ++i) {
    unsigned char b = bytes[big_endian ? i : size - 1 - i];
    v = (v << 8) | b;
  }
  return v;
}

// A Go string header {data pointer, length} at `vaddr`, resolved to its bytes.
std::optional<std::string_view> read_go_string(const ElfFile& file, uint64_t vaddr, size_t ptr_size, bool big) {
  try {
    std::string_view header = file.at_vaddr(vaddr, "Go build info");
    if (header.size() < 2 * ptr_size) return std::nullopt;
    uint64_t data = read_pointer(header, ptr_size, big);
    uint64_t len = read_pointer(header.substr(ptr_size), ptr_size, big);
    if (len == 0) return std::string_view();
    std::string_view bytes = file.at_vaddr(data, "Go build info");
    if (len > bytes.size()) return std::nullopt;
    return bytes.substr(0, len);
  } catch (const ElfFormatError&) {
    return std::nullopt;
  }
}

std::optional<bool> cgo_setting(std::string_view modinfo) {
  constexpr std::string_view key = "build\tCGO_ENABLED=";
  size_t at = modinfo.find(key);
  if (at == std::string_view::npos || at + key.size() >= modinfo.size()) return std::nullopt;
  char v = modinfo[at + key.size()];
  if (v == '1') return true;
  if (v == '0') return false;
  return std::nullopt;
}

}  // namespace

std::optional<GoBuildInfo> decode_go_buildinfo(const ElfFile& file, size_t offset) {
  std::string_view blob = file.kept_from(offset);
  if (blob.size() < kHeaderSize) return std::nullopt;
  std::string_view header = blob.substr(0, kHeaderSize);
  if (header.substr(0, kGoBuildInfoMagic.size()) != kGoBuildInfoMagic) return std::nullopt;
  size_t ptr_size = static_cast<unsigned char>(header[14]);
  unsigned char flags = header[15];
  bool big = flags & 1;
  std::optional<std::string_view> version, modinfo;
  if (flags & 2) {
    std::string_view rest = blob.substr(kHeaderSize);
    version = read_inline_string(rest);
    if (version) modinfo = read_inline_string(rest);
  } else {
    if (ptr_size != 4 && ptr_size != 8) return std::nullopt;
    version = read_go_string(file, read_pointer(header.substr(16), ptr_size, big), ptr_size, big);
    modinfo = read_go_string(file, read_pointer(header.substr(16 + ptr_size), ptr_size, big), ptr_size, big);
  }
  if (!version || version->empty() || version->substr(0, 2) != "go") return std::nullopt;
  GoBuildInfo info;
  info.version = std::string(*version);
  if (modinfo) info.cgo = cgo_setting(*modinfo);
  return info;
}

}  // namespace imgaudit
