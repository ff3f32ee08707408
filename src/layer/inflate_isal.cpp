// gzip members through ISA-L's igzip, where the build found libisal (IMGAUDIT_HAVE_ISAL).
#ifdef IMGAUDIT_HAVE_ISAL
#include <isa-l.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>

#include "layer/member_inflaters.h"

namespace imgaudit {

namespace {

constexpr size_t kTrailerSize = 8;  // CRC-32, then the length mod 2^32, little-endian
constexpr size_t kMinInput = 4096;  // above a dynamic block's longest header (ISAL_DEF_MAX_HDR_SIZE, 328)

uint32_t little_endian_32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

class IsalMember : public MemberInflater {
 public:
  IsalMember() : st_(std::make_unique<inflate_state>()) {
    isal_inflate_init(st_.get());
    st_->crc_flag = ISAL_GZIP;  // ISA-L reads the header and checks the trailer
  }

  void reset() override {
    isal_inflate_reset(st_.get());  // keeps next_in: the next member starts there
    st_->crc_flag = ISAL_GZIP;
    member_out_ = 0;
  }
  // Pieces smaller than kMinInput are gathered first: fed a few bytes a call, ISA-L 2.30 now and then
  // misreads a dynamic block's header ("invalid deflate block" on a good stream, seen in 1-byte pieces).
  void give(const char* data, size_t size) override {
    remember_consumed(given_, given_size_);
    given_ = nullptr;
    given_size_ = 0;
    if (gathered_.empty() && size >= kMinInput) return hand(reinterpret_cast<const uint8_t*>(data), size);
    gathered_.append(data, size);
    if (gathered_.size() >= kMinInput) hand_gathered();
  }
  void input_ended() override {
    if (!gathered_.empty()) hand_gathered();
  }
  // ISA-L keeps some input and output of its own between calls: a call that filled the output may
  // have more to give with no new input.
  bool wants_input() const override { return st_->avail_in == 0 && !output_full_; }

  Status inflate(char* out, size_t n, size_t* made, std::string* why) override {
    st_->next_out = reinterpret_cast<uint8_t*>(out);
    st_->avail_out = uint32_t(n);
    int r = isal_inflate(st_.get());
    *made = n - st_->avail_out;
    output_full_ = st_->avail_out == 0 && st_->block_state != ISAL_BLOCK_FINISH;  // at the end all is given
    member_out_ += *made;
    switch (r) {
      case ISAL_DECOMP_OK:
      case ISAL_END_INPUT:
      case ISAL_OUT_OVERFLOW:
        return st_->block_state == ISAL_BLOCK_FINISH ? Status::MemberEnd : Status::Ok;
      case ISAL_INVALID_WRAPPER:
        *why = "invalid gzip header";
        return member_out_ == 0 ? Status::NotAMember : Status::Corrupt;
      case ISAL_UNSUPPORTED_METHOD:
        *why = "unknown compression method";
        return member_out_ == 0 ? Status::NotAMember : Status::Corrupt;
      case ISAL_INCORRECT_CHECKSUM:
        *why = st_->block_state >= ISAL_GZIP_EXTRA_LEN ? "header crc mismatch" : trailer_mismatch();
        return Status::Corrupt;
      case ISAL_INVALID_BLOCK:
        *why = "invalid deflate block";
        return Status::Corrupt;
      case ISAL_INVALID_SYMBOL:
        *why = "invalid deflate symbol";
        return Status::Corrupt;
      case ISAL_INVALID_LOOKBACK:
        *why = "invalid distance too far back";
        return Status::Corrupt;
      default:
        *why = "ISA-L error " + std::to_string(r);
        return Status::Corrupt;
    }
  }

 private:
  void hand(const uint8_t* data, size_t size) {
    given_ = data;
    given_size_ = size;
    st_->next_in = const_cast<uint8_t*>(data);
    st_->avail_in = uint32_t(size);
  }
  void hand_gathered() {
    handed_.swap(gathered_);
    gathered_.clear();
    hand(reinterpret_cast<const uint8_t*>(handed_.data()), handed_.size());
  }

  // The last bytes of input ISA-L has consumed, for the trailer it refused.
  void remember_consumed(const uint8_t* data, size_t size) {
    if (size == 0) return;  // nothing given yet: no bytes, no pointer
    size_t keep = std::min(size, kTrailerSize);
    size_t old = std::min(tail_size_, kTrailerSize - keep);
    std::memmove(tail_.data(), tail_.data() + tail_size_ - old, old);
    std::memcpy(tail_.data() + old, data + size - keep, keep);
    tail_size_ = old + keep;
  }

  // ISA-L says only that the trailer does not match. It stops right after the trailer: which of its
  // fields is wrong is told by comparing them with the CRC it computed and the length decoded.
  std::string trailer_mismatch() {
    remember_consumed(given_, size_t(st_->next_in - given_));
    const std::string unknown = "incorrect data or length check (the member's CRC-32 or length does not match its data)";
    if (tail_size_ < kTrailerSize) return unknown;
    bool crc_ok = little_endian_32(tail_.data()) == st_->crc;
    bool length_ok = little_endian_32(tail_.data() + 4) == uint32_t(member_out_);
    if (!crc_ok && length_ok) return "incorrect data check (the member's CRC-32 does not match its data)";
    if (crc_ok && !length_ok) return "incorrect length check (the member's length does not match its data)";
    return unknown;
  }

  std::unique_ptr<inflate_state> st_;  // some 60 KB: not on the stack; zeroed
  const uint8_t* given_ = nullptr;  // what ISA-L reads from: a piece as given, or handed_
  size_t given_size_ = 0;
  std::string gathered_;  // small pieces not handed to ISA-L yet
  std::string handed_;    // the gathered pieces ISA-L reads
  std::array<uint8_t, kTrailerSize> tail_{};
  size_t tail_size_ = 0;
  bool output_full_ = false;
  uint64_t member_out_ = 0;
};

}  // namespace

std::unique_ptr<MemberInflater> new_isal_member() { return std::make_unique<IsalMember>(); }

std::string isal_version_text() {
  return "ISA-L " + std::to_string(ISAL_MAJOR_VERSION) + "." + std::to_string(ISAL_MINOR_VERSION) + "." +
         std::to_string(ISAL_PATCH_VERSION) + " (built with)";
}

}  // namespace imgaudit
#endif
