#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "elf/byte_scan.h"
#include "util/limits.h"

namespace imgaudit {

// The bytes of one ELF file that the inspector keeps, taken from a forward-only stream in a
// bounded amount of memory, whatever the file's size.
//
// A file up to kElfWholeFileBytes is kept whole. Of a larger one, windows are kept at their own
// offsets in a sparse mapping of the file's size, where pages never written cost no memory: the
// head (the headers and, in what linkers write, the dynamic symbol and string tables and the
// version records), the tail (section headers, their names, .symtab), the segments the program
// headers name (PT_DYNAMIC, at its file offset and where its address maps, PT_INTERP, PT_NOTE) and
// what follows each Go build info magic. The needles of content_scan are looked for in all of the
// stream. Every capture takes its memory from one budget shared by the threads reading layers, so
// the total stays bounded too.
class ElfCapture {
 public:
  // `size` is the file's size from its archive entry. Throws std::length_error above kMaxElfSize
  // and std::bad_alloc when the mapping cannot be made.
  explicit ElfCapture(uint64_t size);
  ~ElfCapture();
  ElfCapture(const ElfCapture&) = delete;
  ElfCapture& operator=(const ElfCapture&) = delete;

  // The file's bytes from `offset`, pieces in increasing order; a gap between two is a hole of
  // a sparse file, zero bytes. Bytes past the size are ignored.
  void add(uint64_t offset, std::string_view piece);
  // After the last piece: what is left of the size is a hole at the end.
  void finish();

  uint64_t size() const { return size_; }
  bool whole() const { return whole_; }
  // The file's size in bytes, of which only the covered parts are its content (the rest reads zero).
  std::string_view bytes() const { return {data_, size_t(size_)}; }
  bool covers(uint64_t offset, uint64_t length) const;
  // The covered bytes from `offset` to the end of the window holding it; empty when not covered.
  std::string_view covered_from(uint64_t offset) const;
  // Each needle of content_needles(kEveryNeedle), first offset or npos (only when not whole).
  const std::vector<size_t>& needles_found() const { return scan_.found(); }
  // Offsets of Go build info magics at 16-byte alignment, where decoding may start.
  const std::vector<uint64_t>& go_magic_offsets() const { return go_magics_; }
  // A description of what is kept of a large file, for errors.
  std::string kept_description() const;

 private:
  struct Window {
    uint64_t begin, end;  // the part of the file wanted
    uint64_t from = 0;    // captured from here (bytes before passed by before it was wanted)
    uint64_t to = 0;      // captured up to here
  };
  void want(uint64_t begin, uint64_t length, uint64_t now);
  void ask_huge_pages(uint64_t begin, uint64_t end);
  void want_segments();
  void find_go_magics(uint64_t offset, std::string_view piece, bool contiguous);
  void find_go_magics_in(std::string_view text, uint64_t start, size_t limit);
  void note_go_magic(uint64_t magic, std::string_view from_magic);
  void merged(std::vector<std::pair<uint64_t, uint64_t>>& out) const;

  uint64_t size_;
  bool whole_;
  uint64_t reserved_ = 0;    // taken from the shared budget
  char* mapping_ = nullptr;  // null: data_ is from the heap
  size_t mapped_ = 0;
  char* data_ = nullptr;     // the file's offset 0: in the mapping, on a huge-page boundary
  uint64_t received_ = 0;    // offset past the last byte added (holes included)
  std::vector<Window> windows_;
  bool segments_read_ = false;
  StreamScan scan_;
  std::vector<uint64_t> go_magics_;
  std::string go_carry_;     // the last bytes added, where a magic may begin
};

}  // namespace imgaudit
