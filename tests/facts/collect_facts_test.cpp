#include <gtest/gtest.h>

#include <algorithm>

#include "facts/image_facts.h"
#include "native_target.h"
#include "test_support.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

TEST(FactsCollect, RealAlpineMinirootfsLoadsCompletely) {
  std::string why;
  auto layer = test::read_minirootfs("x86_64", &why);
  if (!layer) GTEST_SKIP() << why;
  FsView view;
  view.apply(*layer, 0);
  ImageInfo info;
  info.env = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"};
  ImageFacts f = collect_facts(info, view);

  EXPECT_EQ(f.view, &view);
  EXPECT_EQ(f.distro.id, "alpine");
  EXPECT_EQ(f.libc.family, LibcKind::Musl);
  EXPECT_EQ(f.binaries.size(), layer->elves.size());  // every ELF file, libraries included
  EXPECT_TRUE(std::is_sorted(f.binaries.begin(), f.binaries.end(),
                             [](auto& a, auto& b) { return a.path < b.path; }));
  for (auto& b : f.binaries) {
    EXPECT_TRUE(b.missing_needed.empty()) << b.path << " misses " << b.missing_needed.front();
    if (!b.elf->interpreter.empty()) {
      EXPECT_TRUE(b.interpreter_present) << b.path;
      EXPECT_EQ(b.interpreter_libc, LibcKind::Musl) << b.path;
    }
  }
  auto busybox = std::find_if(f.binaries.begin(), f.binaries.end(), [](auto& b) { return b.path == "bin/busybox"; });
  ASSERT_NE(busybox, f.binaries.end());
  EXPECT_EQ(busybox->interpreter_resolved, "lib/ld-musl-x86_64.so.1");
  EXPECT_EQ(busybox->resolved.at("libc.musl-x86_64.so.1"), "lib/ld-musl-x86_64.so.1");
  EXPECT_FALSE(f.tz.has_zoneinfo);
  EXPECT_TRUE(f.python.interpreters.empty());

  nlohmann::json j = f;
  const nlohmann::json& jb = *std::find_if(j["binaries"].begin(), j["binaries"].end(),
                                           [](auto& b) { return b["path"] == "/bin/busybox"; });
  for (auto key : {"path", "layer", "size", "machine", "type", "linkage", "interpreter", "interpreter_present",
                   "needed", "missing_needed", "rpath", "runpath", "soname", "glibc_required", "libc", "threads",
                   "stack_size", "gnu_stack_flags", "allocator", "go_version", "cgo", "packed"})
    EXPECT_TRUE(jb.contains(key)) << key;
  EXPECT_EQ(jb["machine"], "x86_64");
  EXPECT_EQ(jb["interpreter"], "/lib/ld-musl-x86_64.so.1");
  EXPECT_EQ(jb["interpreter_present"], true);
  EXPECT_EQ(jb["libc"], "musl");
  EXPECT_EQ(jb["linkage"], "dynamic");
  EXPECT_EQ(j["libc"], (nlohmann::json{{"family", "musl"},
                                       {"version", "1.2.5"},
                                       {"evidence", {"apk package musl 1.2.5-r0", "/lib/ld-musl-x86_64.so.1 (musl 1.2.5)"}},
                                       {"shims", nlohmann::json::array()}}));
  EXPECT_EQ(j["distro"]["id"], "alpine");
  EXPECT_EQ(j["distro"]["version_id"], "3.20.3");
  EXPECT_EQ(j["distro"]["packages"].size(), 14u);
  EXPECT_EQ(j["tz"]["tz_env"], nullptr);
  for (auto key : {"source", "digest", "platform", "env", "user", "entrypoint", "cmd", "layers"})
    EXPECT_TRUE(j["image"].contains(key)) << key;
}

TEST(FactsCollect, GlibcBinaryOnAlpineSeesMuslBehindTheCompatLoader) {
  // A program gcc builds here, on the Alpine of the same architecture.
  const test::NativeTarget& native = test::native_target();
  std::string why;
  auto layer = test::read_minirootfs(native.alpine_arch, &why);
  if (!layer) GTEST_SKIP() << why;
  test::TempDir dir;
  ASSERT_TRUE(test::compile_c("gcc", test::kHelloC, dir / "hello"));
  test::ViewBuilder b;
  b.view.apply(*layer, 0);
  b.symlink(test::NativeTarget::relative(native.glibc_interpreter), native.musl_interpreter, 1);
  b.elf_file("usr/local/bin/hello", dir / "hello", 1);
  ImageFacts f = collect_facts(ImageInfo(), b.view);
  EXPECT_EQ(f.libc.shims, std::vector<std::string>{native.glibc_interpreter + " -> " + native.musl_interpreter});
  auto hello = std::find_if(f.binaries.begin(), f.binaries.end(), [](auto& x) { return x.path == "usr/local/bin/hello"; });
  ASSERT_NE(hello, f.binaries.end());
  EXPECT_EQ(hello->layer, 1);
  EXPECT_TRUE(hello->interpreter_present);
  EXPECT_EQ(hello->interpreter_libc, LibcKind::Musl);
  EXPECT_EQ(effective_libc(*hello), LibcKind::Musl);
  EXPECT_TRUE(hello->missing_needed.empty()) << "musl answers libc.so.6 itself";
}

}  // namespace
}  // namespace imgaudit
