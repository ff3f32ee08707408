#include "elf/musl_releases.h"

#include "util/version.h"

namespace imgaudit {

namespace {

using namespace std::literals;
using Kind = MuslMarkerKind;

// The function of musl's resolver that sends the queries (src/network/res_msend.c), in every release since
// 1.1.
constexpr std::string_view kResolverFunction = "__res_msend_rc";

// release, kind, machine, newer, older, part, presence_tells, absence_tells, what
const std::array<MuslReleaseMarker, kMuslMarkerCount> kMarkers = {{
    // 1.2.3 added the messages of ENOKEY..EKEYREJECTED at the end of strerror's table (src/errno/__strerror.h);
    // what followed the table before is not musl's to know, so only the message tells.
    {"1.2.3", Kind::Text, "", "Key was rejected by service"sv, ""sv, ""sv, true, false,
     "strerror's message for EKEYREJECTED"},
    // 1.2.4 gave the slot of EAI_NODATA, "Unknown error" before, its own message (src/network/gai_strerror.c).
    {"1.2.4", Kind::Text, "", "Non-recoverable error\0Name has no usable address\0"sv,
     "Non-recoverable error\0Unknown error\0Unrecognized address family"sv, ""sv, true, false,
     "gai_strerror's message for EAI_NODATA"},
    // 1.2.4's fallback to TCP for truncated answers, start_tcp() in src/network/res_msend.c:
    // sendmsg(fd, &mh, MSG_FASTOPEN|MSG_NOSIGNAL), the flags 0x20004000 loaded into the third argument's
    // register. On x86_64 that is `mov $0x20004000,%edx` whatever the compiler (seen in Alpine's musl 1.2.5,
    // absent from Debian's 1.2.3); musl has no other use of those flags.
    {"1.2.4", Kind::Code, "x86_64", "\xba\x00\x40\x00\x20"sv, ""sv, ""sv, true, true,
     "the TCP fallback of the resolver (sendmsg with MSG_FASTOPEN|MSG_NOSIGNAL)"},
    // On aarch64 the flags take `mov w2, #0x4000` and `movk w2, #0x2000, lsl #16`, with other instructions
    // between them as the compiler schedules them (one in Alpine's musl 1.2.5): the movk is the marker. A
    // compiler may load the flags otherwise, so its absence tells nothing.
    {"1.2.4", Kind::Code, "aarch64", "\x02\x00\xa4\x72"sv, ""sv, ""sv, true, false,
     "the TCP fallback of the resolver (sendmsg with MSG_FASTOPEN|MSG_NOSIGNAL)"},
    // The same fallback calls sendmsg, a function of its own in a static link: a resolver without it is older.
    // The program may call sendmsg itself, so its presence tells nothing.
    {"1.2.4", Kind::Symbol, "", "sendmsg"sv, ""sv, kResolverFunction, false, true,
     "sendmsg, which the resolver's TCP fallback calls,"},
}};

// Where a Code row's bytes would be: musl's resolver, as far as the file tells.
bool resolver_linked(const MuslMarkerSight& sight) {
  return sight.resolver_text && (!sight.symbols_read || sight.resolver_symbol);
}

// The end `release` sets: the newest `since`, the oldest `before`.
void raise_since(MuslRange& range, const char* release) {
  if (range.since.empty() || version_newer(release, range.since)) range.since = release;
}
void lower_before(MuslRange& range, const char* release) {
  if (range.before.empty() || version_newer(range.before, release)) range.before = release;
}

}  // namespace

const std::array<MuslReleaseMarker, kMuslMarkerCount>& musl_release_markers() { return kMarkers; }

void note_musl_symbol(std::string_view symbol, MuslMarkerSight& sight) {
  if (symbol == kResolverFunction) sight.resolver_symbol = true;
  for (size_t i = 0; i < kMarkers.size(); ++i) {
    if (kMarkers[i].kind != Kind::Symbol) continue;
    if (symbol == kMarkers[i].newer) sight.newer[i] = true;
    if (symbol == kMarkers[i].part) sight.part[i] = true;
  }
}

MuslRange musl_release_range(const MuslMarkerSight& sight, std::string_view machine) {
  MuslRange range;
  for (size_t i = 0; i < kMarkers.size(); ++i) {
    const MuslReleaseMarker& m = kMarkers[i];
    if (m.kind == Kind::Code && machine != m.machine) continue;
    if (m.kind == Kind::Symbol && !sight.symbols_read) continue;
    const bool part = m.kind == Kind::Code ? resolver_linked(sight) : m.kind == Kind::Symbol && sight.part[i];
    const std::string release = m.release;
    if (sight.newer[i] && m.presence_tells) {
      raise_since(range, m.release);
      range.evidence.push_back(release + " or newer: " + m.what + " is there");
    } else if (sight.older[i]) {
      lower_before(range, m.release);
      range.evidence.push_back("before " + release + ": " + m.what + " in its older form");
    } else if (part && !sight.newer[i] && m.absence_tells) {
      lower_before(range, m.release);
      const std::string beside = m.kind == Kind::Code ? "musl's resolver" : std::string(m.part);
      range.evidence.push_back("before " + release + ": " + m.what + " is missing beside " + beside);
    }
  }
  // A program holding two musls' parts, or a marker found in its own code: no end is sure.
  if (!range.since.empty() && !range.before.empty() && !version_newer(range.before, range.since)) {
    range.evidence.insert(range.evidence.begin(), "the markers disagree, so the release is unknown");
    range.since.clear();
    range.before.clear();
  }
  return range;
}

}  // namespace imgaudit
