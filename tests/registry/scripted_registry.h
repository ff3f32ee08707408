#pragma once
// scripted_registry.py on 127.0.0.1: a registry serving an OCI layout that
// misbehaves as told, with a log of the requests it answered.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "local_registry.h"

namespace imgaudit::test {

struct LoggedRequest {
  std::string method, path, range, authorization;
  int status = 0;
  double seconds = 0;  // when it came, on the server's monotonic clock
  int peer = 0;        // the client's port: requests of one connection share it (0 for a TLS attempt)
};

class ScriptedRegistry {
 public:
  // Serves `layout`; `options` are scripted_registry.py's (--manifest-status 500 ...).
  // Throws std::runtime_error when it does not start.
  ScriptedRegistry(const std::string& layout, const std::vector<std::string>& options = {});

  std::string host() const { return "127.0.0.1:" + port_; }
  std::vector<LoggedRequest> requests() const;
  // Logged requests whose path contains `part`.
  std::vector<LoggedRequest> requests_to(const std::string& part) const;

 private:
  TempDir dir_;
  std::string port_;
  std::unique_ptr<Background> server_;
};

// A one-layer image tagged v1, written as an OCI layout in tmp/layout; returns its manifest digest.
std::string one_layer_layout(const TempDir& tmp);

#define SKIP_WITHOUT_PYTHON() \
  if (!::imgaudit::test::have_tool("python3")) GTEST_SKIP() << "python3 is needed"

// A test of imgaudit against a ScriptedRegistry serving one_layer_layout (tmp_/layout): skips without python3.
class OneLayerRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_PYTHON();
    digest_ = one_layer_layout(tmp_);
  }
  std::string layout() const { return tmp_ / "layout"; }
  TempDir tmp_, home_;
  std::string digest_;  // the image's manifest
};

}  // namespace imgaudit::test
