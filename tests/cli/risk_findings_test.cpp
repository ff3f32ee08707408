// The risk rules on images built in the test from real binaries and the real Alpine minirootfs, both of
// this machine's architecture.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "image_fixture.h"
#include "util/strings.h"
#include "util/human_size.h"
#include "rules/wheel_tags.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

ImageSpec alpine_with(std::vector<LayerBlob> layers, std::vector<std::string> env = {}) {
  ImageSpec spec = native_image();
  spec.layers.push_back(alpine_base());
  for (auto& l : layers) spec.layers.push_back(std::move(l));
  spec.env = std::move(env);
  spec.user = "app";
  return spec;
}

// Recurses ~512 KiB deep inside a thread started with default attributes.
const char* const kDeepRecursionC = R"(#include <pthread.h>
#include <stdio.h>
#include <string.h>
static int down(int n) { volatile char frame[1024]; memset((char*)frame, n, sizeof frame); return n ? down(n - 1) + frame[0] : 0; }
static void* work(void* arg) { (void)arg; printf("%d\n", down(512)); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, work, NULL); pthread_join(t, NULL); puts("ok"); return 0; }
)";

// Prints the hour of local time: reads TZ and the zone files (as CPython's time module, busybox's date, ...).
const char* const kLocalHourC = R"(#include <stdio.h>
#include <time.h>
int main(void) { time_t now = time(NULL); struct tm local; localtime_r(&now, &local); printf("%d\n", local.tm_hour); return 0; }
)";

}  // namespace

TEST(RiskFindings, MuslThreadStackPremiseAndRule) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  // The premise, checked for real: 512 KiB of recursion in a thread dies on
  // musl's default stack and survives once PT_GNU_STACK asks for 1 MiB.
  if (std::string problem = toolchain_problem("musl-gcc", "-static"); !problem.empty()) GTEST_SKIP() << problem;
  ASSERT_TRUE(compile_c("musl-gcc", kDeepRecursionC, tmp / "small", "-static -O0 -pthread"));
  ASSERT_TRUE(compile_c("musl-gcc", kDeepRecursionC, tmp / "big", "-static -O0 -pthread -Wl,-z,stack-size=1048576"));
  std::string out;
  EXPECT_NE(run(tmp / "small", &out), 0) << "expected a stack overflow on musl's 128 KiB thread stack: " << out;
  EXPECT_EQ(run(tmp / "big", &out), 0);
  EXPECT_NE(out.find("ok"), std::string::npos);

  auto j = audit_json(tmp,
                 alpine_with({layer({file("usr/local/bin/small", read_file(tmp / "small")),
                                     file("usr/local/bin/big", read_file(tmp / "big"))},
                                    "COPY --from=build /out/ /usr/local/bin/")}),
                 "img");
  EXPECT_EQ((*binary(j, "/usr/local/bin/big"))["stack_size"], 1048576);
  EXPECT_EQ((*binary(j, "/usr/local/bin/small"))["stack_size"], 0);
  auto stack = findings(j, "musl-thread-stack");
  ASSERT_EQ(stack.size(), 1u) << j["findings"].dump(1);
  EXPECT_EQ(stack[0]["paths"], nlohmann::json::array({"/usr/local/bin/small"}));
  EXPECT_EQ(stack[0]["severity"], "warning");
  EXPECT_NE(stack[0]["advice"].get<std::string>().find("-Wl,-z,stack-size="), std::string::npos);
}

TEST(RiskFindings, MuslAllocatorFiresForThreadedProgramsOnly) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  std::string dyn = compiled(tmp, "musl-gcc", kThreadsC, "-pthread");
  std::string stat = compiled(tmp, "musl-gcc", kThreadsC, "-static -pthread");
  std::string single = compiled(tmp, "musl-gcc", kHelloC);
  std::string glibc_threads = compiled(tmp, "gcc", kThreadsC, "-static -pthread");
  auto j = audit_json(tmp,
                 alpine_with({layer({file("app/dyn", dyn), file("app/static", stat), file("app/single", single),
                                     file("app/glibc-static", glibc_threads)},
                                    "COPY app /app/")}),
                 "plain");
  auto alloc = findings(j, "musl-allocator");
  ASSERT_EQ(alloc.size(), 2u) << j["findings"].dump(1);
  std::set<std::string> paths;
  for (auto& f : alloc) {
    paths.insert(f["paths"][0].get<std::string>());
    EXPECT_NE(f["message"].get<std::string>().find("1.64 M"), std::string::npos);
    if (f["paths"][0] == "/app/static")
      EXPECT_NE(f["advice"].get<std::string>().find("#[global_allocator]"), std::string::npos);
    else
      EXPECT_NE(f["advice"].get<std::string>().find("LD_PRELOAD=/usr/lib/libmimalloc.so.2"), std::string::npos);
  }
  EXPECT_EQ(paths, (std::set<std::string>{"/app/dyn", "/app/static"}));

  // Preloading mimalloc silences the dynamic program, not the static one.
  auto pre = audit_json(tmp,
                   alpine_with({layer({file("app/dyn", dyn), file("app/static", stat)}, "COPY app /app/")},
                               {"LD_PRELOAD=/usr/lib/libmimalloc.so.2"}),
                   "preload");
  alloc = findings(pre, "musl-allocator");
  ASSERT_EQ(alloc.size(), 1u);
  EXPECT_EQ(alloc[0]["paths"], nlohmann::json::array({"/app/static"}));

  // A program that links an allocator library is fine.
  std::string lib = tmp / "libmimalloc.so.2";
  ASSERT_TRUE(compile_c("musl-gcc", "void* mi_malloc(unsigned long n) { return 0; }\n", lib,
                        "-shared -fPIC -Wl,-soname,libmimalloc.so.2"));
  std::string linked = compiled(tmp, "musl-gcc", kThreadsC, "-pthread -L" + tmp.path() + " -l:libmimalloc.so.2 -Wl,--no-as-needed");
  auto with = audit_json(tmp,
                    alpine_with({layer({file("app/linked", linked), file("usr/lib/libmimalloc.so.2", read_file(lib))},
                                       "COPY app /app/")}),
                    "linked");
  EXPECT_EQ(findings(with, "musl-allocator").size(), 0u) << with["findings"].dump(1);
}

TEST(RiskFindings, TzdataAndTzEnv) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  // A program that never asks for local time needs no zones, and busybox's date is the base's own tool.
  auto hello = audit_json(tmp, alpine_with({layer({file("app/hello", compiled(tmp, "musl-gcc", kHelloC))}, "COPY hello /app/")}),
                          "hello");
  EXPECT_EQ(hello["distro"]["base_layer"], 0);
  EXPECT_TRUE(findings(hello, "tzdata-missing").empty()) << hello["findings"].dump(1);

  auto app = layer({file("app/hour", compiled(tmp, "musl-gcc", kLocalHourC))}, "COPY hour /app/");
  auto j = audit_json(tmp, alpine_with({app}), "plain");
  EXPECT_EQ(j["tz"]["has_zoneinfo"], false);
  const std::vector<nlohmann::json> missing = findings(j, "tzdata-missing");
  ASSERT_EQ(missing.size(), 1u) << j["findings"].dump(1);
  EXPECT_NE(missing[0]["advice"].get<std::string>().find("apk add --no-cache tzdata"), std::string::npos);

  auto with_tz = audit_json(tmp, alpine_with({app}, {"TZ=Asia/Ho_Chi_Minh"}), "tz");
  auto err = findings(with_tz, "tz-env-without-tzdata");
  ASSERT_EQ(err.size(), 1u);
  EXPECT_EQ(err[0]["severity"], "error");
  EXPECT_NE(err[0]["message"].get<std::string>().find("Asia/Ho_Chi_Minh"), std::string::npos);
  EXPECT_EQ(findings(with_tz, "tzdata-missing").size(), 0u);

  // The zones tzdata would add, compiled here by zic from their rules.
  const std::string zic = "PATH=\"$PATH:/usr/sbin:/sbin\" zic";
  if (run(zic + " --version >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "zic (Debian libc-bin) is not here to compile the zones of the fixed image";
  write_file(tmp / "zones", "Zone Asia/Ho_Chi_Minh 7:00 - +07\nZone UTC 0 - UTC\n");
  std::string log;
  ASSERT_EQ(run(zic + " -d '" + tmp / "zoneinfo" + "' '" + tmp / "zones" + "' 2>&1", &log), 0) << log;
  auto fixed = audit_json(tmp,
                     alpine_with({app, layer({file("usr/share/zoneinfo/Asia/Ho_Chi_Minh",
                                                   read_file(tmp / "zoneinfo/Asia/Ho_Chi_Minh"), 0644),
                                              file("usr/share/zoneinfo/UTC", read_file(tmp / "zoneinfo/UTC"), 0644)},
                                             "RUN apk add --no-cache tzdata")},
                                 {"TZ=Asia/Ho_Chi_Minh"}),
                     "fixed");
  EXPECT_EQ(fixed["tz"]["tz_zone_present"], true);
  EXPECT_EQ(findings(fixed, "tz-env-without-tzdata").size(), 0u);
  EXPECT_EQ(findings(fixed, "tzdata-missing").size(), 0u);
}

TEST(RiskFindings, RootExecStackAndCaBundle) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  std::string ssl = tmp / "libssl.so.3";
  ASSERT_TRUE(compile_c("musl-gcc", "int SSL_library_init(void) { return 1; }\n", ssl,
                        "-shared -fPIC -Wl,-soname,libssl.so.3"));
  std::string client = compiled(tmp, "musl-gcc", "int SSL_library_init(void);\nint main(void) { return !SSL_library_init(); }\n",
                                "-L" + tmp.path() + " -l:libssl.so.3");
  std::string execstack = compiled(tmp, "musl-gcc", kHelloC, "-Wl,-z,execstack");

  ImageSpec spec = alpine_with({layer({file("app/client", client), file("usr/lib/libssl.so.3", read_file(ssl)),
                                       file("app/execstack", execstack)},
                                      "COPY app /app/")});
  spec.user = "";
  auto j = audit_json(tmp, spec, "root");
  auto root = findings(j, "runs-as-root");
  ASSERT_EQ(root.size(), 1u);
  EXPECT_EQ(root[0]["layer"], nullptr);
  EXPECT_NE(root[0]["advice"].get<std::string>().find("adduser -S"), std::string::npos);
  auto ex = findings(j, "exec-stack");
  ASSERT_EQ(ex.size(), 1u);
  EXPECT_EQ(ex[0]["paths"], nlohmann::json::array({"/app/execstack"}));
  EXPECT_EQ(findings(j, "ca-certificates-missing").size(), 0u) << "Alpine ships a CA bundle";

  spec.user = "1000:1000";
  spec.layers.push_back(layer({file("etc/ssl/certs/.wh.ca-certificates.crt", "", 0644), file("etc/ssl/.wh.cert.pem", "", 0644)},
                              "RUN rm -rf /etc/ssl/certs/ca-certificates.crt /etc/ssl/cert.pem"));
  auto bare = audit_json(tmp, spec, "nocerts");
  EXPECT_EQ(findings(bare, "runs-as-root").size(), 0u);
  // One finding a layer: Alpine's own ssl_client in the base, the client in layer 1.
  auto ca = findings(bare, "ca-certificates-missing");
  ASSERT_EQ(ca.size(), 2u) << bare["findings"].dump(1);
  EXPECT_EQ(ca[0]["layer"]["index"], 0);
  EXPECT_EQ(ca[0]["paths"], nlohmann::json::array({"/usr/bin/ssl_client"}));
  EXPECT_EQ(ca[1]["layer"]["index"], 1);
  EXPECT_EQ(ca[1]["paths"], nlohmann::json::array({"/app/client"}));
  EXPECT_NE(ca[1]["advice"].get<std::string>().find("apk add --no-cache ca-certificates"), std::string::npos);
}

TEST(RiskFindings, BuildToolsNameTheLayerThatAddedThem) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  std::string db;
  const std::string arch = native_target().alpine_arch, tarball = alpine_minirootfs(arch);
  ASSERT_EQ(run("tar -xzOf '" + tarball + "' ./lib/apk/db/installed 2>/dev/null || tar -xzOf '" + tarball + "' lib/apk/db/installed", &db), 0);
  ASSERT_FALSE(db.empty());
  // apk's own record format, as 'apk add build-base' appends it.
  std::string added = db + "C:Q1aaaa=\nP:gcc\nV:13.2.1_git20240309-r0\nA:" + arch + "\nS:28000000\nI:90000000\nT:The GNU Compiler Collection\n\n" +
                      "C:Q1bbbb=\nP:build-base\nV:0.5-r3\nA:" + arch + "\nS:1000\nI:4096\nT:Meta package for build base\n\n" +
                      "C:Q1cccc=\nP:musl-dev\nV:1.2.5-r0\nA:" + arch + "\nS:400000\nI:2000000\nT:musl headers\n\n";
  auto j = audit_json(tmp, alpine_with({layer({file("lib/apk/db/installed", added, 0644)}, "RUN apk add build-base")}), "img");
  auto tools = findings(j, "build-tools-in-image");
  ASSERT_EQ(tools.size(), 1u) << j["findings"].dump(1);
  EXPECT_EQ(tools[0]["layer"]["index"], 1);
  EXPECT_EQ(tools[0]["layer"]["created_by"], "RUN apk add build-base");
  auto msg = tools[0]["message"].get<std::string>();
  EXPECT_NE(msg.find("gcc"), std::string::npos) << msg;
  EXPECT_NE(msg.find("build-base"), std::string::npos) << msg;
  EXPECT_NE(msg.find("87.7 MiB"), std::string::npos) << msg;  // 90000000 + 4096 + 2000000 bytes
  EXPECT_NE(tools[0]["advice"].get<std::string>().find("COPY --from=build"), std::string::npos);
  EXPECT_NE(tools[0]["advice"].get<std::string>().find("Move 'RUN apk add build-base' into a build stage"), std::string::npos)
      << tools[0]["advice"];
}

// gcc's own programs copied from a build stage (no package records them) are build tools by what they are; in a
// layer that installed build-tool packages, the packages' finding covers them.
TEST(RiskFindings, BuildToolsCopiedWithoutAPackageAreFoundByTheirPrograms) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  std::string collect2;
  ASSERT_EQ(run("gcc -print-prog-name=collect2", &collect2), 0);
  collect2 = std::string(trim(collect2.substr(0, collect2.find('\n'))));
  const std::string program = read_file(collect2);
  ASSERT_EQ(program.substr(0, 4), "\x7f" "ELF") << "gcc's collect2 (" << collect2 << ") is its own ELF program";
  std::string db;
  const std::string arch = native_target().alpine_arch, tarball = alpine_minirootfs(arch);
  ASSERT_EQ(run("tar -xzOf '" + tarball + "' ./lib/apk/db/installed 2>/dev/null || tar -xzOf '" + tarball + "' lib/apk/db/installed", &db), 0);
  const std::string with_gcc = db + "C:Q1aaaa=\nP:gcc\nV:13.2.1_git20240309-r0\nA:" + arch + "\nS:28000000\nI:90000000\nT:GCC\n\n";
  auto j = audit_json(
      tmp,
      alpine_with({layer({file("usr/lib/gcc/x86_64-linux-gnu/12/collect2", program), file("opt/app/collect2", program),
                          file("usr/lib/gcc/x86_64-linux-gnu/12/cc1", "#!/bin/sh\nnot a compiler\n")},
                         "COPY /usr/lib/gcc /usr/lib/gcc # buildkit"),
                   layer({file("lib/apk/db/installed", with_gcc, 0644),
                          file("usr/libexec/gcc/x86_64-alpine-linux-musl/13.2.1/collect2", program)},
                         "RUN apk add gcc")}),
      "img");
  auto tools = findings(j, "build-tools-in-image");
  ASSERT_EQ(tools.size(), 2u) << j["findings"].dump(1);
  EXPECT_EQ(tools[0]["layer"]["index"], 1);
  EXPECT_EQ(tools[0]["paths"], nlohmann::json::array({"/usr/lib/gcc/x86_64-linux-gnu/12/collect2"}))
      << "neither the same program elsewhere nor a script named cc1";
  const std::string msg = tools[0]["message"];
  EXPECT_NE(msg.find("gcc copied in without a package (" + human_size(program.size()) + ")"), std::string::npos) << msg;
  EXPECT_NE(tools[0]["advice"].get<std::string>().find("Copy only what the build made"), std::string::npos)
      << tools[0]["advice"];
  EXPECT_EQ(tools[1]["layer"]["index"], 2);
  EXPECT_EQ(tools[1]["paths"], nlohmann::json::array({"/lib/apk/db/installed"})) << "the packages' finding alone";
}

TEST(RiskFindings, WheelsAgainstAlpine) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  auto dist = [](const std::string& name, const std::string& tag) {
    std::string dir = "usr/local/lib/python3.12/site-packages/" + name + "-1.0.dist-info/";
    return std::vector<TarEntrySpec>{
        file(dir + "METADATA", "Metadata-Version: 2.1\nName: " + name + "\nVersion: 1.0\n", 0644),
        file(dir + "WHEEL", "Wheel-Version: 1.0\nGenerator: bdist_wheel\nRoot-Is-Purelib: false\nTag: " + tag + "\n", 0644)};
  };
  // Wheels for this machine's architecture, and one for another.
  const std::string arch = wheel_arch_for_platform(native_target().oci_arch, "");
  const std::string other = arch == "aarch64" ? "x86_64" : "aarch64";
  std::vector<TarEntrySpec> entries;
  for (auto& [name, tag] : std::vector<std::pair<std::string, std::string>>{
           {"glibconly", "cp312-cp312-manylinux_2_17_" + arch},
           {"good", "cp312-cp312-musllinux_1_2_" + arch},
           {"newmusl", "cp312-cp312-musllinux_1_3_" + arch},
           {"oldpy", "cp311-cp311-musllinux_1_2_" + arch},
           {"otherarch", "cp312-cp312-musllinux_1_2_" + other},
           {"pure", "py3-none-any"}}) {
    auto e = dist(name, tag);
    entries.insert(entries.end(), e.begin(), e.end());
  }
  auto j = audit_json(tmp, alpine_with({layer(entries, "RUN pip install -r requirements.txt")}), "img");
  auto one = [&](const std::string& id, const std::string& pkg) {
    auto f = findings(j, id);
    ASSERT_EQ(f.size(), 1u) << id << ": " << j["findings"].dump(1);
    EXPECT_NE(f[0]["message"].get<std::string>().find(pkg), std::string::npos) << f[0]["message"];
    EXPECT_EQ(f[0]["layer"]["created_by"], "RUN pip install -r requirements.txt");
  };
  one("wheel-libc-mismatch", "glibconly");
  one("wheel-musl-too-old", "newmusl");
  one("wheel-python-mismatch", "oldpy");
  one("wheel-arch-mismatch", "otherarch");
  for (auto& f : j["findings"]) {
    auto m = f["message"].get<std::string>();
    EXPECT_EQ(m.find("good 1.0"), std::string::npos) << m;
    EXPECT_EQ(m.find("pure 1.0"), std::string::npos) << m;
  }
}

// A cp311 glibc wheel in CPython 3.13's site-packages on Alpine: a libc mismatch and a Python mismatch, both
// reported (JSON, SARIF, the counts), so that a move to a glibc base is not followed by the second surprise.
TEST(RiskFindings, AWheelWithTwoProblemsHasAFindingOfEach) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  const std::string arch = wheel_arch_for_platform(native_target().oci_arch, "");
  const std::string dir = "usr/local/lib/python3.13/site-packages/numpy-1.26.4.dist-info/";
  ImageSpec spec = alpine_with({layer({file(dir + "METADATA", "Metadata-Version: 2.1\nName: numpy\nVersion: 1.26.4\n", 0644),
                                       file(dir + "WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp311-cp311-manylinux_2_17_" +
                                                               arch + "\n", 0644)},
                                      "RUN pip install numpy")});
  write_oci_layout(spec, tmp / "img");
  const nlohmann::json j = run_imgaudit("--format json --fail-on never " + tmp / "img").json();
  for (const char* id : {"wheel-libc-mismatch", "wheel-python-mismatch"}) {
    auto f = findings(j, id);
    ASSERT_EQ(f.size(), 1u) << id << ": " << j["findings"].dump(1);
    EXPECT_NE(f[0]["message"].get<std::string>().find("numpy 1.26.4"), std::string::npos) << f[0]["message"];
    EXPECT_FALSE(f[0].contains("caused_by")) << "each its own problem";
  }
  EXPECT_NE(findings(j, "wheel-python-mismatch")[0]["message"].get<std::string>().find("3.13"), std::string::npos);
  const nlohmann::json sarif = run_imgaudit("--format sarif --fail-on never " + tmp / "img").json();
  std::set<std::string> rules;
  for (const auto& result : sarif["runs"][0]["results"]) rules.insert(result["ruleId"].get<std::string>());
  EXPECT_TRUE(rules.count("wheel-libc-mismatch") && rules.count("wheel-python-mismatch"));
  const std::string text = run_imgaudit("--color never --fail-on never " + tmp / "img").out;
  EXPECT_NE(text.find("wheel-libc-mismatch"), std::string::npos);
  EXPECT_NE(text.find("wheel-python-mismatch"), std::string::npos) << text;
}

TEST(RiskFindings, RulesAndExplain) {
  auto list = run_imgaudit("rules");
  EXPECT_EQ(list.status, 0);
  for (auto id : {"interpreter-missing", "musl-allocator", "musl-thread-stack", "tzdata-missing", "wheel-libc-mismatch",
                  "build-tools-in-image", "ca-certificates-missing", "runs-as-root", "exec-stack"})
    EXPECT_NE(list.out.find(id), std::string::npos) << id;
  auto ex = run_imgaudit("explain musl-allocator");
  EXPECT_EQ(ex.status, 0);
  EXPECT_NE(ex.out.find("209 times"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("mimalloc"), std::string::npos);
  auto bad = run_imgaudit("explain no-such-rule");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("no-such-rule"), std::string::npos);
}

namespace {

// A Go program starting goroutines, built without cgo; with time/tzdata or
// crypto/tls when asked.
std::string go_program(const TempDir& tmp, const std::string& name, bool embed_tzdata, bool use_tls = false) {
  std::string src = tmp / (name + ".go"), out = tmp / name, log;
  write_file(src, std::string("package main\n\nimport (\n\t\"fmt\"\n\t\"sync\"\n\t\"time\"\n") +
                      (embed_tzdata ? "\t_ \"time/tzdata\"\n" : "") + (use_tls ? "\t\"crypto/tls\"\n" : "") +
                      ")\n\nfunc main() {\n\tvar wg sync.WaitGroup\n\tfor i := 0; i < 4; i++ {\n\t\twg.Add(1)\n"
                      "\t\tgo func() { defer wg.Done(); _ = make([]byte, 1<<20) }()\n\t}\n\twg.Wait()\n" +
                      (use_tls ? "\tc, err := tls.Dial(\"tcp\", \"127.0.0.1:9\", nil)\n\tfmt.Println(c, err)\n" : "") +
                      "\tloc, err := time.LoadLocation(\"Asia/Ho_Chi_Minh\")\n\tfmt.Println(loc, err)\n}\n");
  int rc = run("cd '" + tmp.path() + "' && " + go_env(tmp.path()) + " CGO_ENABLED=0 go build -o '" + out + "' '" + src +
                   "' 2>&1",
               &log);
  EXPECT_EQ(rc, 0) << log;
  return rc == 0 ? read_file(out) : "";
}

}  // namespace

TEST(RiskFindings, GoWithoutCgoIsExemptAndCarriesItsZones) {
  if (std::string problem = toolchain_problem("go"); !problem.empty()) GTEST_SKIP() << problem << " (Debian golang-go)";
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  std::string embedded = go_program(tmp, "embedded", true);
  std::string plain = go_program(tmp, "plain", false);
  ASSERT_FALSE(embedded.empty());
  ASSERT_FALSE(plain.empty());

  // On Alpine: goroutines on Go's own allocator and growable stacks: no musl rule.
  auto j = audit_json(tmp, alpine_with({layer({file("app/server", plain)}, "COPY server /app/")}), "alpine-go");
  auto* b = binary(j, "/app/server");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ((*b)["libc"], "none");
  EXPECT_EQ((*b)["cgo"], false);
  EXPECT_EQ(findings(j, "musl-allocator").size(), 0u) << j["findings"].dump(1);
  EXPECT_EQ(findings(j, "musl-thread-stack").size(), 0u);

  // From scratch: the zones embedded with time/tzdata are enough; without them, tzdata-missing.
  ImageSpec scratch = native_image();
  scratch.user = "65532";
  scratch.layers.push_back(layer({file("server", embedded)}, "COPY server /server # buildkit"));
  auto with = audit_json(tmp, scratch, "scratch-embedded");
  EXPECT_EQ(findings(with, "tzdata-missing").size(), 0u) << with["findings"].dump(1);
  scratch.layers[0] = layer({file("server", plain)}, "COPY server /server # buildkit");
  auto without = audit_json(tmp, scratch, "scratch-plain");
  EXPECT_EQ(findings(without, "tzdata-missing").size(), 1u) << without["findings"].dump(1);
  EXPECT_EQ(without["libc"]["family"], "none");
  EXPECT_EQ(findings(without, "ca-certificates-missing").size(), 0u) << "no TLS in this program";

  // A Go TLS client from scratch has no CA bundle to verify servers with.
  std::string client = go_program(tmp, "client", true, true);
  ASSERT_FALSE(client.empty());
  scratch.layers[0] = layer({file("client", client)}, "COPY client /client # buildkit");
  auto tls = audit_json(tmp, scratch, "scratch-tls");
  auto ca = findings(tls, "ca-certificates-missing");
  ASSERT_EQ(ca.size(), 1u) << tls["findings"].dump(1);
  EXPECT_NE(ca[0]["message"].get<std::string>().find("Go crypto/tls"), std::string::npos) << ca[0]["message"];
  EXPECT_NE(ca[0]["advice"].get<std::string>().find("COPY --from=build /etc/ssl/certs/ca-certificates.crt"),
            std::string::npos);
}

TEST(RiskFindings, JvmLauncherKeepsTheAllocatorWarningButNotTheStackOne) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  // The shape of OpenJDK's launcher: a small program named java that links
  // libjli.so and starts the VM in a new thread (whose size -Xss sets).
  std::string jli = tmp / "libjli.so";
  ASSERT_TRUE(compile_c("musl-gcc", "int JLI_Launch(void) { return 0; }\n", jli, "-shared -fPIC -Wl,-soname,libjli.so"));
  std::string java = compiled(tmp, "musl-gcc",
                              "#include <pthread.h>\nint JLI_Launch(void);\nstatic void* vm(void* a) { return a; }\n"
                              "int main(void) { pthread_t t; pthread_create(&t, 0, vm, 0); pthread_join(t, 0); return JLI_Launch(); }\n",
                              "-pthread -L" + tmp.path() + " -ljli -Wl,-rpath,'$ORIGIN/../lib'");
  auto j = audit_json(tmp,
                 alpine_with({layer({file("opt/jdk/bin/java", java), file("opt/jdk/lib/libjli.so", read_file(jli))},
                                    "COPY --from=jdk /opt/jdk /opt/jdk")}),
                 "jvm");
  EXPECT_EQ(findings(j, "needed-lib-missing").size(), 0u) << j["findings"].dump(1);
  EXPECT_EQ(findings(j, "musl-thread-stack").size(), 0u) << j["findings"].dump(1);
  auto alloc = findings(j, "musl-allocator");
  ASSERT_EQ(alloc.size(), 1u);
  EXPECT_EQ(alloc[0]["paths"], nlohmann::json::array({"/opt/jdk/bin/java"}));
}

TEST(RiskFindings, ExtensionModuleMissingALibraryIsNamedAsItsPythonPackage) {
  SKIP_WITHOUT_ALPINE();
  TempDir tmp;
  std::string gfortran = tmp / "libgfortran.so.5";
  ASSERT_TRUE(compile_c("musl-gcc", "double dnrm2_(void) { return 0; }\n", gfortran, "-shared -fPIC -Wl,-soname,libgfortran.so.5"));
  std::string ext = tmp / "_linalg.so";
  ASSERT_TRUE(compile_c("musl-gcc", "double dnrm2_(void);\ndouble PyInit__linalg(void) { return dnrm2_(); }\n", ext,
                        "-shared -fPIC -L" + tmp.path() + " -l:libgfortran.so.5"));
  std::string site = "usr/local/lib/python3.12/site-packages/";
  const std::string arch = wheel_arch_for_platform(native_target().oci_arch, "");
  auto j = audit_json(tmp,
                 alpine_with({layer({file(site + "fastla/_linalg.cpython-312-" + arch + "-linux-musl.so", read_file(ext)),
                                     file(site + "fastla-1.0.dist-info/METADATA", "Name: fastla\nVersion: 1.0\n", 0644),
                                     file(site + "fastla-1.0.dist-info/WHEEL", "Tag: cp312-cp312-musllinux_1_2_" + arch + "\n", 0644)},
                                    "RUN pip install fastla")}),
                 "img");
  auto missing = findings(j, "needed-lib-missing");
  ASSERT_EQ(missing.size(), 1u) << j["findings"].dump(1);
  auto msg = missing[0]["message"].get<std::string>();
  EXPECT_NE(msg.find("libgfortran.so.5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Python package(s) fastla fail to import"), std::string::npos) << msg;
  EXPECT_EQ(missing[0]["layer"]["created_by"], "RUN pip install fastla");
}

TEST(RiskFindings, PythonWithTheTzdataPackageNeedsNoZoneinfo) {
  TempDir tmp;
  std::string site = "usr/local/lib/python3.12/site-packages/";
  const NativeTarget& native = native_target();
  auto base = layer({file(NativeTarget::relative(native.musl_interpreter), read_file(native.musl_libc_file)),
                     file("usr/local/bin/python3.12", compiled(tmp, "musl-gcc", kLocalHourC)), dir(site)},
                    "ADD python-base.tar /");
  ImageSpec spec = native_image();
  spec.user = "65532";
  spec.layers = {base};
  auto without = audit_json(tmp, spec, "without");
  ASSERT_EQ(without["python"]["interpreters"].size(), 1u) << without["python"].dump();
  EXPECT_EQ(findings(without, "tzdata-missing").size(), 1u) << without["findings"].dump(1);

  spec.layers.push_back(layer({file(site + "tzdata-2024.1.dist-info/METADATA", "Name: tzdata\nVersion: 2024.1\n", 0644),
                               file(site + "tzdata-2024.1.dist-info/WHEEL", "Tag: py2-none-any\nTag: py3-none-any\n", 0644)},
                              "RUN pip install tzdata"));
  auto with = audit_json(tmp, spec, "with");
  EXPECT_EQ(findings(with, "tzdata-missing").size(), 0u) << with["findings"].dump(1);
}

TEST(RiskFindings, TzdataMissingOnlyWhereAProgramAsksForLocalTime) {
  TempDir tmp;
  const NativeTarget& native = native_target();
  ImageSpec spec = native_image();
  spec.user = "65532";
  auto audit_with = [&](std::vector<TarEntrySpec> files, const std::string& name) {
    spec.layers = {layer(std::move(files), "COPY app /app # buildkit")};
    return audit_json(tmp, spec, name);
  };

  // One static-pie glibc tool, as imgaudit's own release image holds: no zone files needed.
  auto tool = audit_with({file("app", compiled(tmp, "gcc", kHelloC, "-static-pie"))}, "static-hello");
  ASSERT_EQ(tool["tz"]["has_zoneinfo"], false);
  EXPECT_EQ(findings(tool, "tzdata-missing").size(), 0u) << tool["findings"].dump(1);
  auto clock = audit_with({file("app", compiled(tmp, "gcc", kLocalHourC, "-static-pie"))}, "static-clock");
  EXPECT_EQ(findings(clock, "tzdata-missing").size(), 1u) << clock["findings"].dump(1);

  // Dynamic on musl: the program itself, or a library it loads, asking for local time.
  const TarEntrySpec loader = file(NativeTarget::relative(native.musl_interpreter), read_file(native.musl_libc_file));
  auto hello = audit_with({loader, file("app", compiled(tmp, "musl-gcc", kHelloC))}, "musl-hello");
  EXPECT_EQ(findings(hello, "tzdata-missing").size(), 0u) << hello["findings"].dump(1);
  auto own = audit_with({loader, file("app", compiled(tmp, "musl-gcc", kLocalHourC))}, "musl-clock");
  EXPECT_EQ(findings(own, "tzdata-missing").size(), 1u) << own["findings"].dump(1);

  std::string lib = tmp / "libhour.so";
  ASSERT_TRUE(compile_c("musl-gcc", "#include <time.h>\nint hour(void) { time_t t = time(0); struct tm tm; "
                                    "return localtime_r(&t, &tm) ? tm.tm_hour : -1; }\n",
                        lib, "-shared -fPIC -Wl,-soname,libhour.so"));
  std::string uses = compiled(tmp, "musl-gcc", "int hour(void);\nint main(void) { return hour() < 0; }\n",
                              "-L" + tmp.path() + " -lhour -Wl,-rpath,/lib/app");
  auto via = audit_with({loader, file("app", uses), file("lib/app/libhour.so", read_file(lib))}, "musl-library");
  ASSERT_EQ(findings(via, "needed-lib-missing").size(), 0u) << via["findings"].dump(1);
  EXPECT_EQ(findings(via, "tzdata-missing").size(), 1u) << via["findings"].dump(1);
}
