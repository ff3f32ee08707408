#include "truncating_nameserver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace imgaudit::test {

namespace {

constexpr size_t kUdpLimit = 512;   // what fits in a DNS answer over UDP without EDNS0
constexpr int kFewAddresses = 2;
constexpr uint16_t kTypeA = 1;
constexpr uint16_t kFlagsAnswer = 0x8180;  // QR, RD, RA
constexpr uint16_t kFlagTruncated = 0x0200;

void put16(std::string& out, uint16_t v) {
  out.push_back(char(v >> 8));
  out.push_back(char(v & 0xff));
}

struct Question {
  std::string bytes;  // its name, type and class as asked
  std::string first_label;
  uint16_t type = 0;
};

// The question of a query, or nothing when the query is not one.
bool parse_question(const std::string& query, Question& q) {
  size_t at = 12;
  if (query.size() < at) return false;
  while (at < query.size() && query[at] != 0) {
    size_t length = static_cast<unsigned char>(query[at]);
    if (length > 63 || at + 1 + length > query.size()) return false;
    if (q.first_label.empty()) q.first_label = query.substr(at + 1, length);
    at += 1 + length;
  }
  if (at + 5 > query.size()) return false;
  q.type = uint16_t(static_cast<unsigned char>(query[at + 1]) << 8 | static_cast<unsigned char>(query[at + 2]));
  q.bytes = query.substr(12, at + 5 - 12);
  return true;
}

// The whole answer to `query`, and whether it passes kUdpLimit.
std::string answer(const std::string& query, const Question& q, int many, bool truncate) {
  const int count = q.type != kTypeA ? 0 : q.first_label == "many" ? many : kFewAddresses;
  std::string records;
  for (int i = 0; i < count; ++i) {
    put16(records, 0xc00c);  // the name: a pointer to the question's
    put16(records, kTypeA);
    put16(records, 1);       // IN
    put16(records, 0);
    put16(records, 60);      // TTL
    put16(records, 4);
    records += std::string{10, 0, char(i / 250), char(i % 250 + 1)};
  }
  const bool truncated = truncate && 12 + q.bytes.size() + records.size() > kUdpLimit;
  std::string out = query.substr(0, 2);  // its id
  put16(out, kFlagsAnswer | (truncated ? kFlagTruncated : 0));
  put16(out, 1);
  put16(out, truncated ? 0 : uint16_t(count));
  put16(out, 0);
  put16(out, 0);
  out += q.bytes;
  if (!truncated) out += records;
  return out;
}

}  // namespace

TruncatingNameserver::TruncatingNameserver(int many) : many_(many) {
  if (geteuid() != 0) {
    problem_ = "a nameserver on port 53 needs root";
    return;
  }
  for (int n = 1; n < 20 && address_.empty(); ++n) {
    std::string candidate = "127.77.0." + std::to_string(n);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(53);
    inet_pton(AF_INET, candidate.c_str(), &sa.sin_addr);
    int udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(tcp, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(udp, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0 &&
        bind(tcp, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0 && listen(tcp, 8) == 0) {
      udp_ = udp;
      tcp_ = tcp;
      address_ = candidate;
    } else {
      close(udp);
      close(tcp);
    }
  }
  if (address_.empty() || pipe(stop_) != 0) {
    problem_ = "no loopback address 127.77.0.N with port 53 free";
    return;
  }
  thread_ = std::thread([this] { serve(); });
}

TruncatingNameserver::~TruncatingNameserver() {
  if (thread_.joinable()) {
    (void)!write(stop_[1], "x", 1);
    thread_.join();
  }
  for (int fd : {udp_, tcp_, stop_[0], stop_[1]})
    if (fd >= 0) close(fd);
}

void TruncatingNameserver::serve() {
  for (;;) {
    pollfd fds[3] = {{udp_, POLLIN, 0}, {tcp_, POLLIN, 0}, {stop_[0], POLLIN, 0}};
    if (poll(fds, 3, -1) < 0) continue;
    if (fds[2].revents) return;
    if (fds[0].revents & POLLIN) answer_udp();
    if (fds[1].revents & POLLIN) answer_tcp();
  }
}

void TruncatingNameserver::answer_udp() {
  char buf[kUdpLimit];
  sockaddr_storage from{};
  socklen_t from_size = sizeof from;
  ssize_t n = recvfrom(udp_, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &from_size);
  Question q;
  if (n <= 0 || !parse_question(std::string(buf, size_t(n)), q)) return;
  std::string reply = answer(std::string(buf, size_t(n)), q, many_, true);
  ++udp_answers_;  // before the send, as tcp_answers_
  sendto(udp_, reply.data(), reply.size(), 0, reinterpret_cast<sockaddr*>(&from), from_size);
}

// One query on one connection, as musl and glibc send it: two bytes of length, then the query.
void TruncatingNameserver::answer_tcp() {
  int fd = accept4(tcp_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return;
  timeval timeout{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  std::string in;
  char buf[1024];
  while (in.size() < 2 || in.size() < 2 + size_t(static_cast<unsigned char>(in[0]) << 8 | static_cast<unsigned char>(in[1]))) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    in.append(buf, size_t(n));
  }
  Question q;
  if (in.size() > 2 && parse_question(in.substr(2), q)) {
    std::string reply = answer(in.substr(2), q, many_, false);
    std::string framed;
    put16(framed, uint16_t(reply.size()));
    framed += reply;
    // Counted before the send: the client may have its answer, and the test read the count, before this
    // thread runs again (seen under load in the sanitized suite). Taken back when the send fails.
    ++tcp_answers_;
    if (send(fd, framed.data(), framed.size(), MSG_NOSIGNAL) != ssize_t(framed.size())) --tcp_answers_;
  }
  close(fd);
}

}  // namespace imgaudit::test
