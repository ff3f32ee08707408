#include <gtest/gtest.h>

#include <algorithm>

#include "facts/image_facts.h"
#include "native_target.h"
#include "test_support.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

// What each program is, decided once for every rule: by what it is, not by a name that merely starts alike.
TEST(FactsCollect, ProgramKinds) {
  test::TempDir dir;
  ASSERT_TRUE(test::compile_c("gcc", test::kHelloC, dir / "hello"));
  ASSERT_TRUE(test::compile_c("gcc", test::kLibFooC, dir / "libfoo.so", "-shared -fPIC"));
  test::ViewBuilder b;
  test::add_native_glibc(b);
  b.elf_file("usr/bin/python3", dir / "hello");
  b.elf_file("usr/local/bin/python3.12", dir / "hello");
  b.elf_file("usr/bin/python-build", dir / "hello");
  b.elf_file("usr/lib/jvm/java-17/bin/java", dir / "hello");
  b.elf_file("usr/lib/x86_64-linux-gnu/libpython3.12.so.1.0", dir / "libfoo.so");
  b.elf_file("usr/lib/libnode.so.108", dir / "libfoo.so");
  b.elf_file("usr/lib/libfoo.so", dir / "libfoo.so");
  b.elf_file("app/server", dir / "hello");
  ImageFacts f = collect_facts(ImageInfo(), b.view);

  auto kind = [&](const std::string& path) {
    const BinaryFacts* bf = f.binary_at(path);
    EXPECT_NE(bf, nullptr) << path;
    return bf ? bf->kind : ProgramKind::Other;
  };
  EXPECT_EQ(kind(test::native_target().glibc_loader_path), ProgramKind::Libc);
  EXPECT_EQ(kind(test::native_target().glibc_libc_path), ProgramKind::Libc);
  EXPECT_EQ(kind("usr/bin/python3"), ProgramKind::PythonInterpreter);
  EXPECT_EQ(kind("usr/local/bin/python3.12"), ProgramKind::PythonInterpreter);
  EXPECT_EQ(kind("usr/bin/python-build"), ProgramKind::Other);
  EXPECT_EQ(kind("usr/lib/jvm/java-17/bin/java"), ProgramKind::JvmLauncher);
  EXPECT_EQ(kind("usr/lib/x86_64-linux-gnu/libpython3.12.so.1.0"), ProgramKind::LanguageRuntime);
  EXPECT_EQ(kind("usr/lib/libnode.so.108"), ProgramKind::LanguageRuntime);
  EXPECT_EQ(kind("usr/lib/libfoo.so"), ProgramKind::Other);
  EXPECT_EQ(kind("app/server"), ProgramKind::Other);
}

// Only a root filesystem folder is one: an image with no layers still has its config.
TEST(FactsCollect, FromFolderIsTheSourcesKindNotTheLayerCount) {
  ImageInfo image;
  EXPECT_FALSE(image.from_folder);
  test::ViewBuilder b;
  EXPECT_FALSE(collect_facts(image, b.view).image.from_folder);
  image.from_folder = true;
  EXPECT_TRUE(collect_facts(image, b.view).image.from_folder);
}

TEST(FactsCollect, RealAlpineMinirootfsLoadsCompletely) {
  std::string why;
  auto layer = test::read_minirootfs("x86_64", &why);
  if (!layer) GTEST_SKIP() << why;
  FsView view;
  view.apply(*layer, 0);
  ImageInfo info;
  info.env = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"};
  ImageFacts f = collect_facts(info, view);

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
  EXPECT_EQ(f.binary_at("bin/busybox"), &*busybox);
  EXPECT_EQ(f.binary_at("bin/sh"), nullptr) << "a symlink, not a binary";
  EXPECT_EQ(busybox->kind, ProgramKind::Other);
  ASSERT_NE(f.binary_at("lib/ld-musl-x86_64.so.1"), nullptr);
  EXPECT_EQ(f.binary_at("lib/ld-musl-x86_64.so.1")->kind, ProgramKind::Libc);
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
