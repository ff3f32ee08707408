// musl-resolver and musl-dns-no-tcp: programs that resolve host names on musl, with the musl that
// answers them.
#include <gtest/gtest.h>

#include <sstream>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

const char* const kResolvesC =
    "#include <netdb.h>\n#include <stddef.h>\n"
    "int main(int argc, char** argv) { struct addrinfo* r = NULL;\n"
    "  return argc > 1 ? getaddrinfo(argv[1], \"443\", NULL, &r) : 0; }\n";

}  // namespace

TEST(ResolverFindings, ProgramsThatResolveNamesOnAlpineGetTheResolverNote) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  auto j = audit_json(tmp, alpine_and({file("app/client", compiled(tmp, "musl-gcc", kResolvesC)),
                                       file("app/static-client", compiled(tmp, "musl-gcc", kResolvesC, "-static")),
                                       file("app/hello", compiled(tmp, "musl-gcc", kHelloC))}));
  // The minirootfs's own busybox and apk resolve names too, but are the base's: only the layer added counts.
  std::vector<nlohmann::json> info = findings(j, "musl-resolver");
  ASSERT_EQ(info.size(), 2u) << j["findings"].dump(1);  // one per musl: the image's, and the one built in
  for (auto& f : info) EXPECT_EQ(f["layer"]["index"], 1) << f.dump();
  std::vector<std::string> messages{info[0]["message"], info[1]["message"]};
  std::sort(messages.begin(), messages.end());
  EXPECT_NE(messages[0].find("(built in)"), std::string::npos) << messages[0];
  EXPECT_NE(messages[1].find("(musl 1.2.5)"), std::string::npos) << messages[1];
  std::vector<nlohmann::json> paths{info[0]["paths"], info[1]["paths"]};
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths[0], nlohmann::json::array({"/app/client"}));
  EXPECT_EQ(paths[1], nlohmann::json::array({"/app/static-client"}));
  EXPECT_EQ(info[0]["severity"], "info");
  // Alpine 3.20's musl 1.2.5 retries truncated answers over TCP.
  EXPECT_TRUE(findings(j, "musl-dns-no-tcp").empty()) << j["findings"].dump(1);
}

TEST(ResolverFindings, HelloResolvesNothing) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  ImageSpec spec = alpine_and({file("app/hello", compiled(tmp, "musl-gcc", kHelloC))}, "COPY hello /app/");
  auto j = audit_json(tmp, spec);
  // Nor does the base's busybox get the note: a healthy Alpine image has no musl-resolver finding.
  EXPECT_TRUE(findings(j, "musl-resolver").empty()) << j["findings"].dump(1);
  // Run as a user, with its command there, it has nothing to say at all: -q prints nothing.
  spec.layers.push_back(layer({file("etc/passwd", "root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000::/app:/sbin/nologin\n", 0644)},
                              "RUN adduser -D app"));
  spec.user = "app";
  spec.entrypoint = {"/app/hello"};
  CliResult r = run_imgaudit("-q " + write_oci(tmp, spec, "quiet"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "") << "nothing at or above the display floor";
  EXPECT_EQ(r.err, "");
}

// Debian's musl package, or a loader copied into a distroless image, comes without an apk database:
// the loader's own version string decides. This machine's musl is the one musl-gcc links with.
TEST(ResolverFindings, BareMuslLoaderIsJudgedByTheVersionItCarries) {
  const NativeTarget& native = native_target();
  if (std::string why = toolchain_problem("musl-gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir tmp;
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file(NativeTarget::relative(native.musl_interpreter), read_file(native.musl_libc_file)),
                               file("app/client", compiled(tmp, "musl-gcc", kResolvesC))},
                              "COPY --from=build /out/ /"));
  auto j = audit_json(tmp, spec);
  EXPECT_EQ(j["libc"]["version"], native.musl_version);
  auto info = findings(j, "musl-resolver");
  ASSERT_EQ(info.size(), 1u) << j["findings"].dump(1);
  EXPECT_NE(info[0]["message"].get<std::string>().find("(musl " + native.musl_version + ")"), std::string::npos)
      << info[0]["message"];
  // musl retries truncated answers over TCP from 1.2.4 on.
  auto parts = [](const std::string& v) {
    std::vector<int> n;
    std::stringstream in(v);
    for (std::string p; std::getline(in, p, '.');) n.push_back(std::atoi(p.c_str()));
    return n;
  };
  const bool before_tcp = parts(native.musl_version) < std::vector<int>{1, 2, 4};
  auto no_tcp = findings(j, "musl-dns-no-tcp");
  ASSERT_EQ(no_tcp.size(), before_tcp ? 1u : 0u) << native.musl_version << "\n" << j["findings"].dump(1);
  if (before_tcp) {
    EXPECT_EQ(no_tcp[0]["paths"], nlohmann::json::array({"/app/client"}));
  }
}
