// musl-resolver and musl-dns-no-tcp: programs that resolve host names on musl, with the musl that
// answers them.
#include <gtest/gtest.h>

#include <iostream>
#include <set>

#include "exec_truth.h"
#include "image_fixture.h"
#include "truncating_nameserver.h"
#include "util/version.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

const char* const kResolvesC =
    "#include <netdb.h>\n#include <stddef.h>\n"
    "int main(int argc, char** argv) { struct addrinfo* r = NULL;\n"
    "  return argc > 1 ? getaddrinfo(argv[1], \"443\", NULL, &r) : 0; }\n";

// Looks the name of its argument up for IPv4 and says how many addresses came back; its exit status says
// whether the lookup failed. It prints no message of the C library's: only its resolver's code dates it.
const char* const kLookupC =
    "#include <netdb.h>\n#include <stdio.h>\n#include <string.h>\n"
    "int main(int argc, char** argv) { struct addrinfo hints, *r = 0; memset(&hints, 0, sizeof hints);\n"
    "  hints.ai_family = AF_INET; hints.ai_socktype = SOCK_STREAM;\n"
    "  int e = getaddrinfo(argc > 1 ? argv[1] : \"localhost\", \"443\", &hints, &r);\n"
    "  if (e) { printf(\"lookup failed: %d\\n\", e); return 1; }\n"
    "  int n = 0; for (struct addrinfo* a = r; a; a = a->ai_next) ++n;\n"
    "  printf(\"%d addresses\\n\", n); return 0; }\n";

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
  EXPECT_NE(messages[0].find("(built in"), std::string::npos) << messages[0];
  EXPECT_NE(messages[1].find("(musl 1.2.5)"), std::string::npos) << messages[1];
  std::vector<nlohmann::json> paths{info[0]["paths"], info[1]["paths"]};
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths[0], nlohmann::json::array({"/app/client"}));
  EXPECT_EQ(paths[1], nlohmann::json::array({"/app/static-client"}));
  EXPECT_EQ(info[0]["severity"], "info");
  // Alpine 3.20's musl 1.2.5 retries truncated answers over TCP; the static client carries this machine's
  // musl, which does too from 1.2.4 on.
  auto no_tcp = findings(j, "musl-dns-no-tcp");
  if (version_newer("1.2.4", native_target().musl_version)) {
    ASSERT_EQ(no_tcp.size(), 1u) << j["findings"].dump(1);
    EXPECT_EQ(no_tcp[0]["paths"], nlohmann::json::array({"/app/static-client"}));
  } else {
    EXPECT_TRUE(no_tcp.empty()) << j["findings"].dump(1);
  }
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
  const bool before_tcp = version_newer("1.2.4", native.musl_version);
  auto no_tcp = findings(j, "musl-dns-no-tcp");
  ASSERT_EQ(no_tcp.size(), before_tcp ? 1u : 0u) << native.musl_version << "\n" << j["findings"].dump(1);
  if (before_tcp) {
    EXPECT_EQ(no_tcp[0]["paths"], nlohmann::json::array({"/app/client"}));
  }
}

// What the finding says is what happens: each program of the image, run in a chroot of it, looks up a name
// whose answer passes 512 bytes from a nameserver that truncates it over UDP and gives it whole over TCP.
// The programs musl-dns-no-tcp lists fail; the others resolve it, over TCP. A name whose answer fits
// resolves for all of them, so a failure is the truncation's.
TEST(ResolverFindings, ProgramsListedWithoutDnsOverTcpAreTheOnesWhoseLookupsFail) {
  SKIP_WITHOUT_ALPINE();
  if (std::string why = why_no_chroot(); !why.empty()) GTEST_SKIP() << why;
  if (std::string why = toolchain_problem("musl-gcc", "-static"); !why.empty()) GTEST_SKIP() << why;
  TruncatingNameserver nameserver(40);  // 40 addresses: 667 bytes
  if (!nameserver.problem().empty()) GTEST_SKIP() << nameserver.problem();
  TempDir tmp;
  const std::string static_lookup = tmp / "static-lookup", stripped = tmp / "static-lookup-stripped";
  write_file(static_lookup, compiled(tmp, "musl-gcc", kLookupC, "-static"), 0755);
  ASSERT_EQ(run("strip -o " + shell_quoted(stripped) + " " + shell_quoted(static_lookup)), 0);
  std::vector<std::string> programs = {"/app/lookup", "/app/static-lookup", "/app/static-lookup-stripped"};
  std::vector<TarEntrySpec> files = {file("app/lookup", compiled(tmp, "musl-gcc", kLookupC)),
                                     file("app/static-lookup", read_file(static_lookup)),
                                     file("app/static-lookup-stripped", read_file(stripped))};
  // Static programs of musl 1.2.5 (Debian 13's musl-gcc, in its root), which has DNS over TCP: built where
  // that root can be made, else said.
  std::string skip, failure, log;
  const std::string debian13 = debian13_root(&skip, &failure);
  ASSERT_TRUE(failure.empty()) << failure;
  for (const char* strip : {"", " -s"}) {
    if (debian13.empty()) break;
    std::string program = compiled_in_root(debian13, "musl-gcc", kLookupC, std::string("-static") + strip, &log);
    ASSERT_FALSE(program.empty()) << log;
    files.push_back(file(*strip ? "app/static-lookup-125-stripped" : "app/static-lookup-125", program));
    programs.push_back(*strip ? "/app/static-lookup-125-stripped" : "/app/static-lookup-125");
  }
  if (debian13.empty()) std::cout << "[ NOTE ] no static program of musl 1.2.5: " << skip << "\n";
  ImageSpec spec = alpine_and(files);
  spec.layers.push_back(layer({file("etc/resolv.conf", "nameserver " + nameserver.address() +
                                                            "\noptions timeout:1 attempts:1\n", 0644)},
                              "RUN echo nameserver > /etc/resolv.conf"));
  auto j = audit_json(tmp, spec);
  std::set<std::string> listed;
  for (auto& f : findings(j, "musl-dns-no-tcp"))
    for (auto& p : f["paths"]) listed.insert(p.get<std::string>());
  const std::string root = unpack_image(tmp, spec);
  for (const std::string& program : programs) {
    ExecOutcome few = execute_in_chroot(root, {program, "few.test"}, {"PATH=/bin"}, "/", 0, 0);
    EXPECT_EQ(few.exit_status, 0) << program << ": " << few.output;
    const int tcp_before = nameserver.tcp_answers();
    ExecOutcome many = execute_in_chroot(root, {program, "many.test"}, {"PATH=/bin"}, "/", 0, 0);
    ASSERT_TRUE(many.started()) << program;
    const bool resolved = many.exit_status == 0;
    EXPECT_EQ(!resolved, listed.count(program) == 1) << program << " printed " << many.output << "\n"
                                                      << j["findings"].dump(1);
    if (resolved) {
      EXPECT_EQ(many.output, "40 addresses\n") << program;
      EXPECT_GT(nameserver.tcp_answers(), tcp_before) << program << " resolved without TCP";
    }
  }
  // The dynamic program runs on Alpine's musl 1.2.5, which has the fallback; the static ones carry this
  // machine's musl, listed when it is older than 1.2.4.
  EXPECT_EQ(listed.count("/app/lookup"), 0u);
  for (const char* p : {"/app/static-lookup-125", "/app/static-lookup-125-stripped"}) {
    if (debian13.empty()) break;
    EXPECT_EQ(listed.count(p), 0u) << p;
    EXPECT_EQ((*binary(j, p))["musl_built_in"]["since"], "1.2.4") << p << ": " << (*binary(j, p)).dump();
  }
  EXPECT_EQ(listed.count("/app/static-lookup"), version_newer("1.2.4", native_target().musl_version) ? 1u : 0u)
      << native_target().musl_version;
  EXPECT_GT(nameserver.udp_answers(), 0);
}
