#pragma once
// A nameserver on a loopback address of its own, port 53 (where resolv.conf's nameservers are asked), that
// answers as a real server does when an answer passes 512 bytes: over UDP with the TC bit set and no
// records, in full over TCP. It answers only what a test asks it, A queries, so that what a program's
// resolver does with a truncated answer is seen for real.
#include <atomic>
#include <string>
#include <thread>

namespace imgaudit::test {

class TruncatingNameserver {
 public:
  // An A query for a name whose first label is "many" is answered with `many` addresses (10.0.0.1, ...),
  // truncated over UDP when they do not fit in 512 bytes; any other name with two, which fit. Other queries
  // get no records.
  explicit TruncatingNameserver(int many);
  ~TruncatingNameserver();
  TruncatingNameserver(const TruncatingNameserver&) = delete;
  TruncatingNameserver& operator=(const TruncatingNameserver&) = delete;

  // Why it does not listen (not root, no free loopback address); "" when it does.
  const std::string& problem() const { return problem_; }
  const std::string& address() const { return address_; }  // "127.77.0.N"
  int tcp_answers() const { return tcp_answers_; }
  int udp_answers() const { return udp_answers_; }

 private:
  void serve();
  void answer_udp();
  void answer_tcp();

  int many_;
  int udp_ = -1, tcp_ = -1, stop_[2] = {-1, -1};
  std::string address_, problem_;
  std::atomic<int> tcp_answers_{0}, udp_answers_{0};
  std::thread thread_;
};

}  // namespace imgaudit::test
