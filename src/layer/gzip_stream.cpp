#include "layer/gzip_stream.h"

#include "layer/member_inflaters.h"
#include "util/error.h"

namespace imgaudit {

bool have_isal() {
#ifdef IMGAUDIT_HAVE_ISAL
  return true;
#else
  return false;
#endif
}

Inflater fastest_inflater() { return have_isal() ? Inflater::Isal : Inflater::Zlib; }

std::unique_ptr<MemberInflater> new_member_inflater(Inflater inflater) {
#ifdef IMGAUDIT_HAVE_ISAL
  if (inflater == Inflater::Isal) return new_isal_member();
#endif
  return new_zlib_member();
}

std::string inflater_version(Inflater inflater) {
#ifdef IMGAUDIT_HAVE_ISAL
  if (inflater == Inflater::Isal) return isal_version_text();
#endif
  return zlib_version_text();
}

GzipStream::GzipStream(Source source, Inflater inflater)
    : source_(std::move(source)), member_(new_member_inflater(inflater)) {}

GzipStream::~GzipStream() = default;

size_t GzipStream::read(char* out, size_t n) {
  if (finished_ || n == 0) return 0;
  size_t done = 0;
  while (done < n) {  // a full block: the tar reader's calls stay few
    if (member_->wants_input() && !input_ended_) {
      const char* data = nullptr;
      size_t got = source_(&data);
      if (got > 0) member_->give(data, got);
      input_ended_ = got == 0;
      if (input_ended_) member_->input_ended();
    }
    if (input_ended_ && member_->wants_input()) {
      if (member_done_) {
        finished_ = true;
        break;
      }
      if (!started_) throw InputError("the blob is empty");
      // The inflater may still hold the last bytes itself (ISA-L does): cut short only once it gives nothing.
      if (drained_) throw InputError("gzip stream cut short");
    }
    if (member_done_) {  // more bytes after a member: they must be another member
      member_->reset();
      member_done_ = false;
    }
    started_ = true;
    size_t made = 0;
    std::string why;
    MemberInflater::Status status = member_->inflate(out + done, n - done, &made, &why);
    done += made;
    drained_ = input_ended_ && made == 0 && status == MemberInflater::Status::Ok;
    switch (status) {
      case MemberInflater::Status::Ok:
        break;
      case MemberInflater::Status::MemberEnd:
        member_done_ = true;
        ++members_;
        break;
      case MemberInflater::Status::NotAMember:
        if (members_ > 0)
          throw InputError("bytes after the last gzip member that are not another member (" +
                           std::to_string(members_) + " member(s) read)");
        throw InputError("corrupt gzip data: " + why);
      case MemberInflater::Status::Corrupt:
        throw InputError("corrupt gzip data: " + why);
    }
  }
  return done;
}

}  // namespace imgaudit
