#include "elf/elf_capture.h"

#include <gelf.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>

#include "elf/content_scan.h"
#include "elf/go_buildinfo.h"
#include "util/human_size.h"

namespace imgaudit {
namespace {

// Fresh anonymous memory costs a page fault per 4 KiB page written, and in a virtual machine a fault is
// dear: filling 32 MiB took 100 ms here, against 5 ms in 2 MiB transparent huge pages. So the captures that
// are written fresh (large files' windows, and whole files too big for the heap to hand out again) ask for
// huge pages, in a mapping aligned on them; the rounding costs under one huge page at each end.
constexpr uint64_t kHugePage = uint64_t(2) << 20;
// A whole file from here up gets such a mapping; smaller ones come from the heap, which reuses its blocks.
constexpr uint64_t kHugePagedWholeFile = uint64_t(4) << 20;

constexpr uint64_t round_up(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

constexpr uint64_t kLargeCaptureBytes = kElfHeadWindow + kElfTailWindow + 2 * kHugePage +
                                        kMaxElfSegmentWindows * kElfSegmentWindow + kMaxGoMagics * kGoBuildInfoWindow;
static_assert(kLargeCaptureBytes <= kElfMemoryBudget && round_up(kElfWholeFileBytes, kHugePage) <= kElfMemoryBudget);

// Bytes of capture memory the threads may hold at once; a thread waits for its share.
class CaptureBudget {
 public:
  void take(uint64_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    freed_.wait(lock, [&] { return used_ + n <= kElfMemoryBudget; });
    used_ += n;
  }
  void give_back(uint64_t n) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      used_ -= n;
    }
    freed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  uint64_t used_ = 0;
};

CaptureBudget& budget() {
  static CaptureBudget b;
  return b;
}

std::vector<std::string_view> every_needle() { return content_needles(kEveryNeedle); }

}  // namespace

ElfCapture::ElfCapture(uint64_t size)
    : size_(size), whole_(size <= kElfWholeFileBytes), scan_(whole_ ? std::vector<std::string_view>{} : every_needle()) {
  if (size > kMaxElfSize) throw std::length_error("over the limit of " + human_size(kMaxElfSize));
  if (whole_ && size > 0 && size < kHugePagedWholeFile) {
    // From the heap, whose freed blocks glibc hands out again: a fresh mapping for each file would
    // cost its page faults every time (8% more CPU on a Debian /usr image). Not zeroed: add() and
    // finish() zero the holes, the only bytes not written (calloc zeroed every reused block, 2.6%).
    data_ = static_cast<char*>(malloc(size_t(size)));
    if (!data_) throw std::bad_alloc();
    reserved_ = size;
  } else if (size > 0) {
    // Address space for the file's size, aligned on huge pages; only the pages written cost memory.
    mapped_ = size_t(round_up(size, kHugePage) + kHugePage);
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    mapping_ = static_cast<char*>(p);
    data_ = mapping_ + (round_up(uintptr_t(p), kHugePage) - uintptr_t(p));
    reserved_ = whole_ ? round_up(size, kHugePage) : kLargeCaptureBytes;
  }
  budget().take(reserved_);
  if (whole_) {
    windows_.push_back({0, size, 0, 0});
    if (mapping_) ask_huge_pages(0, size);
  } else {
    want(0, kElfHeadWindow, 0);
    want(size - kElfTailWindow, kElfTailWindow, 0);
    ask_huge_pages(0, kElfHeadWindow);
    ask_huge_pages(size - kElfTailWindow, size);
  }
}

ElfCapture::~ElfCapture() {
  if (mapping_) munmap(mapping_, mapped_);
  else free(data_);
  budget().give_back(reserved_);
}

// Only a hint: where the kernel has no huge pages to give (or they are turned off), 4 KiB pages.
void ElfCapture::ask_huge_pages(uint64_t begin, uint64_t end) {
  uint64_t lo = begin / kHugePage * kHugePage, hi = round_up(end, kHugePage);
  madvise(data_ + lo, size_t(hi - lo), MADV_HUGEPAGE);
}

void ElfCapture::want(uint64_t begin, uint64_t length, uint64_t now) {
  if (begin >= size_) return;
  uint64_t end = begin + std::min(length, size_ - begin);
  uint64_t from = std::max(begin, now);
  windows_.push_back({begin, end, from, from});
}

void ElfCapture::add(uint64_t offset, std::string_view piece) {
  if (offset < received_ || offset >= size_) return;
  piece = piece.substr(0, size_t(std::min<uint64_t>(piece.size(), size_ - offset)));
  uint64_t end = offset + piece.size();
  for (Window& w : windows_) {
    if (w.to < received_ || w.to >= w.end) continue;  // not growing: wanted after its bytes went by, or full
    uint64_t lo = std::max(offset, w.to), hi = std::min(end, w.end);
    if (lo < hi) memcpy(data_ + lo, piece.data() + (lo - offset), size_t(hi - lo));
    w.to = std::max(w.to, std::min(end, w.end));  // a hole before `offset`: zeros (fresh pages, or zeroed below)
  }
  bool contiguous = offset == received_;
  if (whole_ && !contiguous) memset(data_ + received_, 0, size_t(offset - received_));  // a hole; the buffer is reused
  received_ = end;
  if (whole_) return;
  scan_.feed(offset, piece);
  find_go_magics(offset, piece, contiguous);
  if (!segments_read_) want_segments();
}

void ElfCapture::finish() {
  if (whole_ && received_ < size_) memset(data_ + received_, 0, size_t(size_ - received_));
  for (Window& w : windows_)
    if (w.to >= received_) w.to = w.end;
  received_ = size_;
}

namespace {

// The file offset of the bytes a PT_LOAD of the `count` program headers maps at `vaddr`.
std::optional<uint64_t> mapped_offset(Elf* elf, size_t count, uint64_t vaddr) {
  for (size_t i = 0; i < count; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(elf, int(i), &ph)) return std::nullopt;
    if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz)
      return ph.p_offset + (vaddr - ph.p_vaddr);
  }
  return std::nullopt;
}

}  // namespace

// Once the head holds the program headers, the segments they name become windows too.
void ElfCapture::want_segments() {
  constexpr size_t kHeader = sizeof(Elf64_Ehdr);
  if (received_ < kHeader) return;
  if (elf_version(EV_CURRENT) == EV_NONE) return;
  Elf* elf = elf_memory(data_, size_t(size_));
  if (!elf) {
    segments_read_ = true;  // the inspector will say what is wrong
    return;
  }
  GElf_Ehdr eh;
  size_t count = 0;
  bool ok = gelf_getehdr(elf, &eh) && eh.e_phnum != PN_XNUM && elf_getphdrnum(elf, &count) == 0;
  uint64_t table_end = ok ? eh.e_phoff + uint64_t(count) * gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT) : 0;
  if (ok && table_end > received_ && table_end <= kElfHeadWindow) {
    elf_end(elf);
    return;  // not all here yet
  }
  segments_read_ = true;
  size_t named = 0;
  for (size_t i = 0; ok && table_end <= kElfHeadWindow && i < count && named < kMaxElfSegmentWindows; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(elf, int(i), &ph)) break;
    if (ph.p_type != PT_DYNAMIC && ph.p_type != PT_INTERP && ph.p_type != PT_NOTE) continue;
    want(ph.p_offset, std::min(ph.p_filesz, kElfSegmentWindow), received_);
    ++named;
    // ld.so, and so ElfFile, reads the dynamic array at PT_DYNAMIC's address, which a file that lies
    // in its p_offset maps elsewhere.
    std::optional<uint64_t> mapped = ph.p_type == PT_DYNAMIC ? mapped_offset(elf, count, ph.p_vaddr) : std::nullopt;
    if (mapped && *mapped != ph.p_offset && named < kMaxElfSegmentWindows) {
      want(*mapped, kElfSegmentWindow, received_);
      ++named;
    }
  }
  elf_end(elf);
}

void ElfCapture::note_go_magic(uint64_t magic, std::string_view from_magic) {
  if (magic % 16 != 0 || go_magics_.size() >= kMaxGoMagics) return;
  go_magics_.push_back(magic);
  want(magic, kGoBuildInfoWindow, magic);
  Window& w = windows_.back();
  size_t n = size_t(std::min<uint64_t>(from_magic.size(), w.end - magic));
  memcpy(data_ + magic, from_magic.data(), n);  // what has arrived of it
  w.to = magic + n;
}

// Magics in `text`, which starts at file offset `start`, that begin before `limit` (offset in text). Go
// aligns its build info on 16 bytes, so only those offsets are compared: a word every 16 bytes.
void ElfCapture::find_go_magics_in(std::string_view text, uint64_t start, size_t limit) {
  const std::string_view magic = kGoBuildInfoMagic;
  uint64_t first_word;
  memcpy(&first_word, magic.data(), sizeof first_word);
  limit = std::min(limit, text.size() < magic.size() ? 0 : text.size() - magic.size() + 1);
  for (size_t at = size_t((16 - start % 16) % 16); at < limit && go_magics_.size() < kMaxGoMagics; at += 16) {
    uint64_t word;
    memcpy(&word, text.data() + at, sizeof word);
    if (word == first_word && text.substr(at, magic.size()) == magic) note_go_magic(start + at, text.substr(at));
  }
}

void ElfCapture::find_go_magics(uint64_t offset, std::string_view piece, bool contiguous) {
  const size_t keep = kGoBuildInfoMagic.size() - 1;
  if (!contiguous) go_carry_.clear();
  if (!go_carry_.empty()) {  // a magic that starts in the previous piece and ends in this one
    std::string border = go_carry_;
    border.append(piece.substr(0, keep));
    uint64_t start = offset - go_carry_.size();
    find_go_magics_in(border, start, go_carry_.size());
    // Of a magic starting in the carry, the bytes after the border are this piece's.
    if (!go_magics_.empty() && go_magics_.back() >= start && go_magics_.back() < offset) {
      Window& w = windows_.back();
      uint64_t lo = std::max(w.to, offset);
      uint64_t hi = std::min(w.end, offset + piece.size());
      if (lo < hi) memcpy(data_ + lo, piece.data() + (lo - offset), size_t(hi - lo));
      w.to = std::max(w.to, hi);
    }
  }
  find_go_magics_in(piece, offset, piece.size());
  go_carry_.append(piece.substr(piece.size() > keep ? piece.size() - keep : 0));
  if (go_carry_.size() > keep) go_carry_.erase(0, go_carry_.size() - keep);
}

void ElfCapture::merged(std::vector<std::pair<uint64_t, uint64_t>>& out) const {
  out.clear();
  for (const Window& w : windows_)
    if (w.from < w.to) out.emplace_back(w.from, w.to);
  std::sort(out.begin(), out.end());
  size_t n = 0;
  for (auto& r : out) {
    if (n > 0 && r.first <= out[n - 1].second) out[n - 1].second = std::max(out[n - 1].second, r.second);
    else out[n++] = r;
  }
  out.resize(n);
}

bool ElfCapture::covers(uint64_t offset, uint64_t length) const {
  return covered_from(offset).size() >= length && (length > 0 || offset <= size_);
}

std::string_view ElfCapture::covered_from(uint64_t offset) const {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  merged(runs);
  for (const auto& [from, to] : runs)
    if (from <= offset && offset < to) return std::string_view(data_ + offset, size_t(to - offset));
  return {};
}

std::string ElfCapture::kept_description() const {
  return "of this " + human_size(size_) + " file only the first " + human_size(kElfHeadWindow) + ", the last " +
         human_size(kElfTailWindow) + " and the segments its program headers name are read";
}

}  // namespace imgaudit
