// The search order of the image's own loader where it differs from "every directory anyone names":
// glibc reads /etc/ld.so.cache, never ld.so.conf; it tries glibc-hwcaps and (up to 2.36) tls and
// hwcap subdirectories first; its system directories are its own; it stops at the first file it
// cannot load. musl takes the first file that opens. Where this machine can run the program, the
// real loader says what it does, and the emulation must agree.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "elf/libc_table.h"
#include "facts/glibc_loader.h"
#include "facts/ld_so_cache.h"
#include "facts/loader.h"
#include "native_target.h"
#include "test_support.h"
#include "util/paths.h"
#include "util/strings.h"
#include "view_builder.h"

namespace imgaudit {
namespace {

using test::NativeTarget;
using test::ViewBuilder;
using test::run_loader;
using Names = std::vector<std::string>;
using Cache = LoaderFacts::Cache;

// A program exits with what foo() returns: which copy of libfoo.so.1 a real loader took.
constexpr int kBase = 7, kOther = 8;
const char* const kExitsWithFooC = "int foo(void);\nint main(void) { return foo(); }\n";
// What a development package puts where the loader looks (as libc.so is): longer than an ELF header.
const char* const kLinkerScript =
    "/* GNU ld script\n   Use the shared library, but some functions are only in\n   the static library.  */\n"
    "INPUT(libfoo.so.2 AS_NEEDED(libbar.so.1))\n";
std::string foo_source(int value) { return "int foo(void) { return " + std::to_string(value) + "; }\n"; }

const NativeTarget& native() { return test::native_target(); }
std::string multiarch(const std::string& dir) { return dir + "/" + native().triplet; }
std::string image_path(const std::string& host_path) { return NativeTarget::relative(host_path); }

// Compiled once per test program, by name.
std::string built(const std::string& name, const std::string& compiler, const std::string& source,
                  const std::string& flags) {
  static test::TempDir dir;
  static std::set<std::string> done;
  std::string out = dir / name;
  if (done.insert(name).second) {
    test::run("mkdir -p '" + parent_dir(out) + "'");
    test::compile_c(compiler, source, out, flags);
  }
  return out;
}

// libfoo.so.1 whose foo() returns `value`.
std::string libfoo(int value, const std::string& compiler = "gcc") {
  std::string tag = compiler;
  std::replace(tag.begin(), tag.end(), ' ', '_');
  return built(tag + "-" + std::to_string(value) + "/libfoo.so.1", compiler, foo_source(value),
               "-shared -fPIC -Wl,-soname,libfoo.so.1" + std::string(compiler == "gcc" ? "" : " -nostdlib"));
}

// A program needing libfoo.so.1, linked with `flags` ("-Wl,-rpath,..."), named `name`.
std::string app(const std::string& name, const std::string& flags = "", const std::string& compiler = "gcc") {
  return built(name, compiler, kExitsWithFooC,
               "-L'" + parent_dir(libfoo(kBase, compiler)) + "' -l:libfoo.so.1 " + flags);
}

// What this machine's own ld.so says of itself (glibc 2.33 and later): its system directories and
// its glibc-hwcaps subdirectories, best first, with whether it searches each on this CPU.
struct LoaderHelp {
  Names system_dirs;
  std::vector<std::pair<std::string, bool>> hwcaps;
};

LoaderHelp loader_help() {
  std::string out;
  test::run("'" + native().glibc_loader_file + "' --help", &out);
  LoaderHelp h;
  std::string section;
  for (auto& line : split(out, "\n")) {
    if (!line.empty() && line[0] != ' ') {
      section = line;
      continue;
    }
    std::string item(trim(line));
    std::string name = item.substr(0, item.find(' '));
    if (starts_with(section, "Shared library search path") && item.find("(system search path)") != std::string::npos)
      h.system_dirs.push_back(image_path(name));
    if (starts_with(section, "Subdirectories of glibc-hwcaps") && !name.empty())
      h.hwcaps.emplace_back(name, item.find("searched") != std::string::npos);
  }
  return h;
}

// Runs a program on this machine: its exit status, what its loader printed in *err.
int run_here(const std::string& command, std::string* err = nullptr) {
  test::TempDir tmp;
  int status = test::run(command + " 2>'" + (tmp / "err") + "'");
  if (err) *err = test::read_file(tmp / "err");
  return status;
}

class LoaderSearch : public ::testing::Test {
 public:
  // A file whose bytes the view keeps, as LayerFacts::blobs does for ld.so.cache and glibc's ld.so.
  void with_bytes(ViewBuilder& b, const std::string& path, const std::string& bytes,
                  std::shared_ptr<const ElfFacts> elf = nullptr) {
    blobs_.push_back(bytes);
    Node n;
    n.mode = 0644;
    n.size = bytes.size();
    n.elf = std::move(elf);
    n.blob = &blobs_.back();
    b.view.put(path, n);
  }

 protected:
  // Debian's loader and libc from this machine where Debian keeps them; with the loader's bytes
  // (as the layer reader keeps them) when `loader_bytes`.
  void glibc_base(ViewBuilder& b, bool loader_bytes = true, bool interpreter = true) {
    if (loader_bytes)
      with_bytes(b, native().glibc_loader_path, test::read_file(native().glibc_loader_file),
                 b.inspect(native().glibc_loader_file));
    else
      b.elf_file(native().glibc_loader_path, native().glibc_loader_file);
    if (interpreter) b.symlink(image_path(native().glibc_interpreter), "/" + native().glibc_loader_path);
    b.elf_file(native().glibc_libc_path, native().glibc_libc_file);
  }

  void musl_base(ViewBuilder& b) {
    std::shared_ptr<const ElfFacts> musl = b.inspect(native().musl_libc_file);
    ASSERT_TRUE(musl->is_musl_loader);
    b.elf(image_path(native().musl_interpreter), musl);
  }


  std::deque<std::string> blobs_;
};

// A root folder on this machine and a view holding the same files: ldconfig -r writes the root's
// ld.so.cache, and the program runs in it under chroot with this machine's glibc.
class MirroredRoot {
 public:
  explicit MirroredRoot(LoaderSearch& t) : t_(t) {
    file(native().glibc_loader_path, native().glibc_loader_file, true);
    symlink(image_path(native().glibc_interpreter), "/" + native().glibc_loader_path);
    file(native().glibc_libc_path, native().glibc_libc_file);
    text("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  }
  static std::string skip_reason() {
    if (geteuid() != 0) return "ldconfig -r and chroot need root";
    if (test::run("PATH=\"$PATH:/usr/sbin:/sbin\" command -v ldconfig >/dev/null") != 0) return "no ldconfig here";
    return "";
  }

  void file(const std::string& path, const std::string& host_file, bool keep_bytes = false) {
    test::run("mkdir -p '" + parent_dir(dir_ / path) + "' && cp '" + host_file + "' '" + (dir_ / path) + "'");
    if (keep_bytes) t_.with_bytes(b, path, test::read_file(host_file), b.inspect(host_file));
    else b.elf_file(path, host_file);
  }
  void text(const std::string& path, const std::string& content) {
    test::run("mkdir -p '" + parent_dir(dir_ / path) + "'");
    test::write_file(dir_ / path, content);
    b.text(path, content);
  }
  void symlink(const std::string& path, const std::string& target) {
    test::run("mkdir -p '" + parent_dir(dir_ / path) + "' && ln -s '" + target + "' '" + (dir_ / path) + "'");
    b.symlink(path, target);
  }
  void remove(const std::string& path) {
    test::run("rm -f '" + (dir_ / path) + "'");
    FsView pruned;
    for (auto& [p, n] : b.view.nodes())
      if (p != path) pruned.put(p, n);
    b.view = pruned;
  }
  // ldconfig -r over the root as it is now; the cache goes into the view too.
  std::string ldconfig(const std::string& options = "") {
    std::string log;
    int rc =
        test::run("PATH=\"$PATH:/usr/sbin:/sbin\" ldconfig -X " + options + " -r '" + dir_.path() + "' 2>&1", &log);
    EXPECT_EQ(rc, 0) << log;
    std::string bytes = test::read_file(dir_ / "etc/ld.so.cache");
    t_.with_bytes(b, "etc/ld.so.cache", bytes);
    return bytes;
  }
  int run(const std::string& program, std::string* err = nullptr) {
    return run_here("chroot '" + dir_.path() + "' '/" + program + "'", err);
  }

  ViewBuilder b;

 private:
  LoaderSearch& t_;
  test::TempDir dir_;
};

#define SKIP_WITHOUT_ROOT()                                                  \
  if (std::string why = MirroredRoot::skip_reason(); !why.empty()) GTEST_SKIP() << why

// --- 1. ld.so.cache, not ld.so.conf ---

TEST_F(LoaderSearch, CacheWrittenByLdconfigFindsTheLibraryOnAnLdSoConfDirectory) {
  SKIP_WITHOUT_ROOT();
  MirroredRoot root(*this);
  root.text("etc/ld.so.conf.d/local.conf", "/usr/local/lib\n");
  root.file("usr/local/lib/libfoo.so.1", libfoo(kBase));
  root.file("usr/bin/app", app("app"));
  root.ldconfig();
  EXPECT_EQ(root.run("usr/bin/app"), kBase);

  LoaderFacts facts;
  BinaryFacts bf = run_loader(root.b, "usr/bin/app", {}, LibcKind::Glibc, &facts);
  EXPECT_EQ(bf.resolved.at("libfoo.so.1"), "usr/local/lib/libfoo.so.1");
  EXPECT_EQ(bf.resolved.at("libc.so.6"), native().glibc_libc_path);
  EXPECT_TRUE(bf.missing_needed.empty());
  EXPECT_TRUE(bf.library_notes.empty());
  EXPECT_EQ(facts.ld_so_cache, Cache::Read);
  EXPECT_EQ(facts.ld_so_cache_format, "glibc-ld.so.cache1.1");
  EXPECT_GE(facts.ld_so_cache_entries, 3u);  // libfoo, libc, the loader
  EXPECT_TRUE(facts.ld_so_cache_warnings.empty());
  EXPECT_EQ(facts.ld_so_conf_dirs, Names{"usr/local/lib"});

  // collect_facts() hands the image-wide part on.
  ImageFacts f = collect_facts(ImageInfo(), root.b.view);
  EXPECT_EQ(f.loader.ld_so_cache, Cache::Read);
  ASSERT_EQ(f.loader.glibc_loaders.size(), 1u);
  EXPECT_EQ(f.loader.glibc_loaders[0].path, native().glibc_loader_path);
}

TEST_F(LoaderSearch, StaleCacheMissesALibraryAddedAfterLdconfig) {
  SKIP_WITHOUT_ROOT();
  MirroredRoot root(*this);
  root.text("etc/ld.so.conf.d/local.conf", "/usr/local/lib\n");
  root.file("usr/bin/app", app("app"));
  root.ldconfig();
  root.file("usr/local/lib/libfoo.so.1", libfoo(kBase));  // a later COPY, no ldconfig after it
  std::string err;
  EXPECT_EQ(root.run("usr/bin/app", &err), 127);
  EXPECT_NE(err.find("libfoo.so.1: cannot open shared object file"), std::string::npos) << err;

  BinaryFacts bf = run_loader(root.b, "usr/bin/app");
  EXPECT_EQ(bf.missing_needed, Names{"libfoo.so.1"});
  const LibraryNote& note = bf.library_notes.at("libfoo.so.1");
  EXPECT_EQ(note.conf_only_path, "usr/local/lib/libfoo.so.1");
  EXPECT_NE(note.missing_reason.find("/etc/ld.so.cache does not list it"), std::string::npos) << note.missing_reason;
  EXPECT_NE(note.missing_reason.find("run ldconfig"), std::string::npos) << note.missing_reason;
}

TEST_F(LoaderSearch, WithoutACacheOnlyTheSystemDirectoriesAreSearched) {
  SKIP_WITHOUT_ROOT();
  MirroredRoot root(*this);
  root.text("etc/ld.so.conf.d/local.conf", "/usr/local/lib\n");
  root.file("usr/local/lib/libfoo.so.1", libfoo(kBase));
  root.file("usr/bin/app", app("app"));
  EXPECT_EQ(root.run("usr/bin/app"), 127);

  LoaderFacts facts;
  BinaryFacts bf = run_loader(root.b, "usr/bin/app", {}, LibcKind::Glibc, &facts);
  EXPECT_EQ(facts.ld_so_cache, Cache::Absent);
  EXPECT_EQ(bf.missing_needed, Names{"libfoo.so.1"});
  EXPECT_EQ(bf.resolved.at("libc.so.6"), native().glibc_libc_path);  // a system directory needs no cache
  const LibraryNote& note = bf.library_notes.at("libfoo.so.1");
  EXPECT_EQ(note.conf_only_path, "usr/local/lib/libfoo.so.1");
  EXPECT_NE(note.missing_reason.find("the image has no /etc/ld.so.cache"), std::string::npos) << note.missing_reason;
}

TEST_F(LoaderSearch, CacheEntriesOutliveTheLdSoConfThatNamedThem) {
  SKIP_WITHOUT_ROOT();
  MirroredRoot root(*this);
  root.text("etc/ld.so.conf.d/opt.conf", "/opt/foo/lib\n");
  root.file("opt/foo/lib/libfoo.so.1", libfoo(kBase));
  root.file("usr/bin/app", app("app"));
  root.ldconfig();
  root.remove("etc/ld.so.conf.d/opt.conf");
  EXPECT_EQ(root.run("usr/bin/app"), kBase);
  LoaderFacts facts;
  BinaryFacts bf = run_loader(root.b, "usr/bin/app", {}, LibcKind::Glibc, &facts);
  EXPECT_TRUE(facts.ld_so_conf_dirs.empty());
  EXPECT_EQ(bf.resolved.at("libfoo.so.1"), "opt/foo/lib/libfoo.so.1");

  // An entry whose file is gone: glibc goes on to its system directories.
  root.remove("opt/foo/lib/libfoo.so.1");
  root.file(multiarch("usr/lib") + "/libfoo.so.1", libfoo(kOther));
  EXPECT_EQ(root.run("usr/bin/app"), kOther);
  EXPECT_EQ(run_loader(root.b, "usr/bin/app").resolved.at("libfoo.so.1"), multiarch("usr/lib") + "/libfoo.so.1");
}

TEST_F(LoaderSearch, EveryCacheFormatLdconfigWrites) {
  SKIP_WITHOUT_ROOT();
  for (std::string format : {"new", "old", "compat"}) {
    MirroredRoot root(*this);
    root.text("etc/ld.so.conf.d/local.conf", "/usr/local/lib\n");
    root.file("usr/local/lib/libfoo.so.1", libfoo(kBase));
    root.file("usr/bin/app", app("app"));
    std::string bytes = root.ldconfig("-c " + format);
    EXPECT_EQ(root.run("usr/bin/app"), kBase) << format;
    std::string problem;
    auto cache = LdSoCache::parse(bytes, &problem);
    ASSERT_TRUE(cache) << format << ": " << problem;
    EXPECT_EQ(cache->format(), format == "new"   ? "glibc-ld.so.cache1.1"
                               : format == "old" ? "ld.so-1.7.0"
                                                 : "ld.so-1.7.0 + glibc-ld.so.cache1.1");
    std::shared_ptr<const ElfFacts> e = root.b.inspect(app("app"));
    EXPECT_EQ(cache->lookup("libfoo.so.1", glibc_cache_flags(e->e_machine, e->elf_class)).path,
              "/usr/local/lib/libfoo.so.1")
        << format;
    EXPECT_EQ(run_loader(root.b, "usr/bin/app").resolved.at("libfoo.so.1"), "usr/local/lib/libfoo.so.1") << format;
  }
}


// A real cache, the one ldconfig writes for a root of this machine's glibc and a library, with its bytes
// cut or overwritten: a problem or warnings, never a crash, and glibc's fallback (a cache it cannot read
// is no cache).
TEST_F(LoaderSearch, MalformedCachesGiveAProblemNeverACrash) {
  SKIP_WITHOUT_ROOT();
  MirroredRoot root(*this);
  root.text("etc/ld.so.conf.d/local.conf", "/usr/local/lib\n");
  root.file("usr/local/lib/libfoo.so.1", libfoo(kBase));
  const std::string good = root.ldconfig("-c new");
  std::string problem;
  auto parsed = LdSoCache::parse(good, &problem);
  ASSERT_TRUE(parsed) << problem;
  if (parsed->format() != "glibc-ld.so.cache1.1" || good[28] != 2)
    GTEST_SKIP() << "the offsets below are those of a little-endian cache of the new format";
  ASSERT_FALSE(parsed->entries().empty());
  const std::string some_name = parsed->entries().front().soname;
  auto survives = [&](const std::string& bytes) {
    std::string why;
    auto c = LdSoCache::parse(bytes, &why);
    if (!c) return !why.empty();
    c->lookup(some_name, {0x303, 0xa03, 3, 1});
    return true;
  };
  for (size_t n = 0; n < good.size(); n += n < 4096 ? 1 : 61) EXPECT_TRUE(survives(good.substr(0, n))) << n;
  for (size_t at = 0; at + 4 <= std::min<size_t>(good.size(), 48 + 24 * 16); ++at)
    for (const char* v : {"\xff\xff\xff\xff", "\x00\x00\x00\x80", "\x01\x00\x00\x00"}) {
      std::string bad = good;
      bad.replace(at, 4, std::string(v, 4));
      EXPECT_TRUE(survives(bad)) << at;
    }

  auto with_u32 = [&](size_t at, uint32_t v) {
    std::string bad = good;
    for (int i = 0; i < 4; ++i) bad[at + i] = char(v >> (8 * i));  // a little-endian cache, as checked above
    return bad;
  };
  EXPECT_FALSE(LdSoCache::parse(good.substr(0, 10), &problem));
  EXPECT_EQ(problem, "it is too short");
  EXPECT_FALSE(LdSoCache::parse(std::string(100, 'x'), &problem));
  EXPECT_EQ(problem, "it has neither cache magic");
  EXPECT_FALSE(LdSoCache::parse(with_u32(20, 0xffffffff), &problem));  // nlibs
  EXPECT_EQ(problem, "its table runs past the end of the file");
  std::string invalid = good;
  invalid[28] = 1;  // the endianness flag ldconfig sets on a cache it gave up on
  EXPECT_FALSE(LdSoCache::parse(invalid, &problem));
  EXPECT_EQ(problem, "ldconfig marked it invalid");
  auto bad_key = LdSoCache::parse(with_u32(48 + 4, 0xfffffff0), &problem);  // the first entry's name
  ASSERT_TRUE(bad_key);
  EXPECT_EQ(bad_key->entries().size(), parsed->entries().size() - 1);
  EXPECT_EQ(bad_key->warnings(), Names{"1 entries name strings outside the file: skipped"});
  auto bad_extension = LdSoCache::parse(with_u32(32, 0xfffffff0), &problem);
  ASSERT_TRUE(bad_extension);
  EXPECT_EQ(bad_extension->warnings(),
            Names{"its extension directory is invalid (outside the file): hwcaps entries are ignored"});

  // In an image: the problem is a fact, and glibc's loader goes without the cache.
  ViewBuilder b;
  glibc_base(b);
  b.text("etc/ld.so.conf", "/usr/local/lib\n");
  b.elf_file("usr/local/lib/libfoo.so.1", libfoo(kBase));
  b.elf_file("usr/bin/app", app("app"));
  with_bytes(b, "etc/ld.so.cache", good.substr(0, 30));
  LoaderFacts facts;
  BinaryFacts bf = run_loader(b, "usr/bin/app", {}, LibcKind::Glibc, &facts);
  EXPECT_EQ(facts.ld_so_cache, Cache::Malformed);
  EXPECT_EQ(facts.ld_so_cache_problem, "it is too short");
  EXPECT_EQ(bf.missing_needed, Names{"libfoo.so.1"});
  EXPECT_NE(bf.library_notes.at("libfoo.so.1").missing_reason.find("/etc/ld.so.cache is malformed (it is too short)"),
            std::string::npos);

  // A cache whose bytes were not kept: the ld.so.conf directories stand in for it.
  Node unread;
  unread.size = good.size();
  b.view.put("etc/ld.so.cache", unread);
  bf = run_loader(b, "usr/bin/app", {}, LibcKind::Glibc, &facts);
  EXPECT_EQ(facts.ld_so_cache, Cache::Unread);
  EXPECT_EQ(bf.resolved.at("libfoo.so.1"), "usr/local/lib/libfoo.so.1");
}

// --- 2. glibc-hwcaps and the legacy subdirectories ---

// Host folders for programs linked with an RPATH into them, once per test program.
const test::TempDir& layouts() {
  static test::TempDir dir;
  return dir;
}

void host_copy(const std::string& from, const std::string& to) {
  test::run("mkdir -p '" + parent_dir(to) + "' && cp '" + from + "' '" + to + "'");
}

TEST_F(LoaderSearch, SubdirectoriesAreTheOnesThisLoaderTries) {
  std::string dir = layouts() / "probe/rp";
  std::string prog = app("app-probe", "-Wl,--disable-new-dtags,-rpath," + dir);
  std::string err;
  run_here("LD_DEBUG=libs '" + prog + "'", &err);
  size_t at = err.find("search path=" + dir + "/");
  ASSERT_NE(at, std::string::npos) << err;
  std::string list = err.substr(at + 12, err.find_first_of("\t\n", at) - at - 12);
  Names tried;
  for (auto& p : split(list, ":"))
    if (p != dir && std::find(tried.begin(), tried.end(), p.substr(dir.size() + 1)) == tried.end())
      tried.push_back(p.substr(dir.size() + 1));

  ViewBuilder inspected;  // owns the facts both pointers point to
  std::shared_ptr<const ElfFacts> ld = inspected.inspect(native().glibc_loader_file);
  std::shared_ptr<const ElfFacts> e = inspected.inspect(prog);
  std::vector<HwcapSubdir> model = glibc_hwcap_subdirs(e->e_machine, e->elf_class, e->little_endian, ld->glibc_release);
  Names every_cpu;
  for (auto& s : model)
    if (!s.cpu_dependent) every_cpu.push_back(s.path);
  for (auto& t : tried)
    EXPECT_TRUE(std::any_of(model.begin(), model.end(), [&](auto& s) { return s.path == t; })) << t;
  Names tried_of_every_cpu;
  for (auto& t : tried)
    if (std::find(every_cpu.begin(), every_cpu.end(), t) != every_cpu.end()) tried_of_every_cpu.push_back(t);
  EXPECT_EQ(tried_of_every_cpu, every_cpu) << list;
}

TEST_F(LoaderSearch, AGlibcHwcapsCopyDependsOnTheCpu) {
  LoaderHelp help = loader_help();
  if (help.hwcaps.empty()) GTEST_SKIP() << "this machine's glibc has no glibc-hwcaps subdirectories";
  auto [level, supported] = help.hwcaps.back();  // the lowest level: most CPUs have it
  std::string rp = layouts() / "hwcaps/rp", hw = rp + "/glibc-hwcaps/" + level;
  std::string prog = app("app-hwcaps", "-Wl,--disable-new-dtags,-rpath," + rp);
  host_copy(libfoo(kOther), hw + "/libfoo.so.1");
  EXPECT_EQ(run_here("'" + prog + "'"), supported ? kOther : 127);  // only the hwcaps copy
  host_copy(libfoo(kBase), rp + "/libfoo.so.1");
  EXPECT_EQ(run_here("'" + prog + "'"), supported ? kOther : kBase);

  ViewBuilder b;
  glibc_base(b);
  b.elf_file(image_path(hw + "/libfoo.so.1"), libfoo(kOther));
  b.elf_file("usr/bin/app", prog);
  BinaryFacts only_hw = run_loader(b, "usr/bin/app");
  b.elf_file(image_path(rp + "/libfoo.so.1"), libfoo(kBase));
  BinaryFacts both = run_loader(b, "usr/bin/app");
  EXPECT_EQ(both.resolved.at("libfoo.so.1"), image_path(rp + "/libfoo.so.1"));
  EXPECT_EQ(both.library_notes.at("libfoo.so.1").cpu_alternatives, Names{image_path(hw + "/libfoo.so.1")});
  EXPECT_FALSE(both.library_notes.at("libfoo.so.1").cpu_only);
  EXPECT_EQ(both.library_notes.at("libfoo.so.1").cpu_base_path, "");
  EXPECT_EQ(only_hw.resolved.at("libfoo.so.1"), image_path(hw + "/libfoo.so.1"));
  EXPECT_TRUE(only_hw.library_notes.at("libfoo.so.1").cpu_only);
  EXPECT_EQ(only_hw.library_notes.at("libfoo.so.1").cpu_base_path, image_path(rp + "/libfoo.so.1"));
  EXPECT_TRUE(only_hw.missing_needed.empty());
}

TEST_F(LoaderSearch, TlsSubdirectoryShadowsTheBaseUpToGlibc236) {
  std::string rp = layouts() / "tls/rp";
  std::string prog = app("app-tls", "-Wl,--disable-new-dtags,-rpath," + rp);
  host_copy(libfoo(kBase), rp + "/libfoo.so.1");
  host_copy(libfoo(kOther), rp + "/tls/libfoo.so.1");
  const int real = run_here("'" + prog + "'");
  ASSERT_TRUE(real == kBase || real == kOther) << real;

  auto resolved_with = [&](const std::string& release) {
    ViewBuilder b;
    ElfFacts ld = *b.inspect(native().glibc_loader_file);
    if (!release.empty()) ld.glibc_release = release;
    with_bytes(b, native().glibc_loader_path, test::read_file(native().glibc_loader_file), b.keep(ld));
    b.symlink(image_path(native().glibc_interpreter), "/" + native().glibc_loader_path);
    b.elf_file(native().glibc_libc_path, native().glibc_libc_file);
    b.elf_file(image_path(rp + "/libfoo.so.1"), libfoo(kBase));
    b.elf_file(image_path(rp + "/tls/libfoo.so.1"), libfoo(kOther));
    b.elf_file("usr/bin/app", prog);
    return run_loader(b, "usr/bin/app").resolved.at("libfoo.so.1");
  };
  EXPECT_EQ(resolved_with(""), image_path(rp + (real == kOther ? "/tls" : "") + "/libfoo.so.1"));
  EXPECT_EQ(resolved_with("2.36"), image_path(rp + "/tls/libfoo.so.1"));
  EXPECT_EQ(resolved_with("2.37"), image_path(rp + "/libfoo.so.1"));
}

TEST_F(LoaderSearch, HwcapsEntriesOfTheCacheDependOnTheCpu) {
  SKIP_WITHOUT_ROOT();
  LoaderHelp help = loader_help();
  if (help.hwcaps.empty()) GTEST_SKIP() << "this machine's glibc has no glibc-hwcaps subdirectories";
  auto [level, supported] = help.hwcaps.back();
  MirroredRoot root(*this);
  root.text("etc/ld.so.conf.d/local.conf", "/usr/local/lib\n");
  root.file("usr/local/lib/libfoo.so.1", libfoo(kBase));
  root.file("usr/local/lib/glibc-hwcaps/" + level + "/libfoo.so.1", libfoo(kOther));
  root.file("usr/bin/app", app("app"));
  std::string bytes = root.ldconfig();
  EXPECT_EQ(root.run("usr/bin/app"), supported ? kOther : kBase);

  std::string problem;
  auto cache = LdSoCache::parse(bytes, &problem);
  ASSERT_TRUE(cache) << problem;
  auto hw = std::find_if(cache->entries().begin(), cache->entries().end(),
                         [](auto& e) { return e.soname == "libfoo.so.1" && !e.hwcaps_subdir.empty(); });
  ASSERT_NE(hw, cache->entries().end());
  EXPECT_EQ(hw->hwcaps_subdir, level);
  BinaryFacts bf = run_loader(root.b, "usr/bin/app");
  EXPECT_EQ(bf.resolved.at("libfoo.so.1"), "usr/local/lib/libfoo.so.1");
  EXPECT_EQ(bf.library_notes.at("libfoo.so.1").cpu_alternatives,
            Names{"usr/local/lib/glibc-hwcaps/" + level + "/libfoo.so.1"});
}

// --- 3. the loader's own system directories ---

TEST_F(LoaderSearch, SystemDirectoriesAreTheLoadersOwn) {
  LoaderHelp help = loader_help();
  if (help.system_dirs.empty())
    GTEST_SKIP() << native().glibc_loader_file << " --help lists no system search path (glibc "
                 << native().glibc_version << "; 2.33 and later do)";
  const bool lib64_is_one =
      std::find(help.system_dirs.begin(), help.system_dirs.end(), "lib64") != help.system_dirs.end();
  for (bool bytes : {true, false}) {
    ViewBuilder b;
    glibc_base(b, bytes);
    b.elf_file("lib64/libfoo.so.1", libfoo(kBase));
    b.elf_file("usr/bin/app", app("app"));
    LoaderFacts facts;
    BinaryFacts bf = run_loader(b, "usr/bin/app", {}, LibcKind::Glibc, &facts);
    ASSERT_EQ(facts.glibc_loaders.size(), 1u);
    const LoaderFacts::GlibcLoader& ld = facts.glibc_loaders[0];
    EXPECT_EQ(ld.path, native().glibc_loader_path);
    EXPECT_EQ(ld.system_dirs_from_loader, bytes);
    if (bytes) {
      EXPECT_EQ(ld.system_dirs, help.system_dirs);
      EXPECT_EQ(bf.missing_needed.empty(), lib64_is_one);
    } else {
      // imgaudit's defaults, lib64 among them for a 64-bit loader.
      EXPECT_EQ(ld.system_dirs_problem, "its bytes were not kept");
      EXPECT_EQ(std::count(ld.system_dirs.begin(), ld.system_dirs.end(), "lib64"),
                b.inspect(app("app"))->elf_class == 64 ? 1 : 0);
    }
  }
  if (!MirroredRoot::skip_reason().empty()) return;
  MirroredRoot root(*this);  // no cache
  root.file("lib64/libfoo.so.1", libfoo(kBase));
  root.file("usr/bin/app", app("app"));
  EXPECT_EQ(root.run("usr/bin/app"), lib64_is_one ? kBase : 127);
}

TEST_F(LoaderSearch, SyntheticLoaderBytesNameTheSystemDirectories) {
  const std::string elf_head("\x7f" "ELF\x02\x01\x01", 7);
  auto loader_with = [&](const std::string& strings) {
    auto b = std::make_unique<ViewBuilder>();
    with_bytes(*b, native().glibc_loader_path, elf_head + std::string(200, '\x01') + '\0' + strings + "tail",
               b->inspect(native().glibc_loader_file));
    b->symlink(image_path(native().glibc_interpreter), "/" + native().glibc_loader_path);
    b->elf_file(native().glibc_libc_path, native().glibc_libc_file);
    b->elf_file("opt/sys/lib/libfoo.so.1", libfoo(kBase));
    b->elf_file("usr/bin/app", app("app"));
    return b;
  };
  using namespace std::string_literals;
  auto one = loader_with("/opt/sys/lib/\0/usr/lib/\0"s + std::string(8, '\0') + "/opt/sys/lib/\0/usr/lib/\0"s);
  LoaderFacts facts;
  BinaryFacts bf = run_loader(*one, "usr/bin/app", {}, LibcKind::Glibc, &facts);
  EXPECT_EQ(facts.glibc_loaders.at(0).system_dirs, (Names{"opt/sys/lib", "usr/lib"}));
  EXPECT_TRUE(facts.glibc_loaders.at(0).system_dirs_from_loader);
  EXPECT_EQ(bf.resolved.at("libfoo.so.1"), "opt/sys/lib/libfoo.so.1");
  EXPECT_EQ(bf.missing_needed, Names{"libc.so.6"});  // not in /opt/sys/lib or /usr/lib

  auto two = loader_with("/opt/sys/lib/\0/usr/lib/\0"s + std::string(8, '\0') + "/lib64/\0/usr/lib64/\0"s);
  run_loader(*two, "usr/bin/app", {}, LibcKind::Glibc, &facts);
  EXPECT_FALSE(facts.glibc_loaders.at(0).system_dirs_from_loader);
  EXPECT_EQ(facts.glibc_loaders.at(0).system_dirs_problem, "several different lists of library directories in it");
  auto none = loader_with("/etc/ld.so.cache\0/usr/lib\0"s);
  run_loader(*none, "usr/bin/app", {}, LibcKind::Glibc, &facts);
  EXPECT_EQ(facts.glibc_loaders.at(0).system_dirs_problem, "no list of library directories in it");

  std::string why;
  EXPECT_EQ(glibc_system_dirs_in("/lib/\0/usr/lib/\0"s, &why), (Names{"lib", "usr/lib"}));
  EXPECT_EQ(glibc_system_dirs_in("/lib/\0/usr/lib/\0/usr/lib/\0"s, &why), (Names{"lib", "usr/lib", "usr/lib"}));
  EXPECT_FALSE(glibc_system_dirs_in("x/lib/\0/usr/lib/\0"s, &why));  // the first starts inside another string
  EXPECT_FALSE(glibc_system_dirs_in("\0/lib\0/usr/lib\0"s, &why));   // directories end with '/'
  EXPECT_FALSE(glibc_system_dirs_in("\0/opt/\0/usr/lib/\0"s, &why)); // every one is a lib directory
  EXPECT_FALSE(glibc_system_dirs_in("\0/usr/lib/\0"s, &why));         // one alone is no list
  EXPECT_FALSE(glibc_system_dirs_in("\0/l ib/\0/usr/lib/\0"s, &why));
  std::string many;
  for (int i = 0; i < 17; ++i) many += "/lib" + std::to_string(i) + "/" + '\0';
  EXPECT_FALSE(glibc_system_dirs_in(many, &why));
}

// --- 4. glibc stops at a file it cannot load ---

TEST_F(LoaderSearch, AFileGlibcCannotLoadStopsTheSearch) {
  std::string bad = layouts() / "stop/bad", good = layouts() / "stop/good";
  std::string prog = app("app-stop", "-Wl,--disable-new-dtags,-rpath," + bad + ":" + good);
  host_copy(libfoo(kBase), good + "/libfoo.so.1");
  struct Case {
    const char* what;
    std::string content;  // "" for a directory
    const char* glibc_error;
  };
  const Case cases[] = {
      {"a linker script", kLinkerScript, "invalid ELF header"},
      {"a short file", "!<arch>\n", "file too short"},
      {"a directory", "", "cannot read file data: Error 21"},  // EISDIR
  };
  for (const Case& c : cases) {
    test::run("rm -rf '" + bad + "' && mkdir -p '" + bad + "'");
    if (c.content.empty()) test::run("mkdir '" + bad + "/libfoo.so.1'");
    else test::write_file(bad + "/libfoo.so.1", c.content);
    std::string err;
    EXPECT_EQ(run_here("'" + prog + "'", &err), 127) << c.what;
    EXPECT_NE(err.find(c.glibc_error), std::string::npos) << c.what << ": " << err;

    ViewBuilder b;
    glibc_base(b);
    if (c.content.empty()) b.dir(image_path(bad + "/libfoo.so.1"));
    else b.text(image_path(bad + "/libfoo.so.1"), c.content);
    b.elf_file(image_path(good + "/libfoo.so.1"), libfoo(kBase));
    b.elf_file("usr/bin/app", prog);
    BinaryFacts bf = run_loader(b, "usr/bin/app");
    EXPECT_EQ(bf.missing_needed, Names{"libfoo.so.1"}) << c.what;
    const std::string& reason = bf.library_notes["libfoo.so.1"].missing_reason;
    EXPECT_NE(reason.find(display_path(image_path(bad + "/libfoo.so.1"))), std::string::npos) << reason;
    EXPECT_NE(reason.find(c.glibc_error), std::string::npos) << reason;
  }
}

// The one other compiler for each kind of wrong ELF this machine may have: another class, another machine.
std::vector<std::string> wrong_elf_compilers() {
  std::vector<std::string> out;
  if (test::toolchain_problem("gcc -m32 -nostdlib", "-shared -fPIC").empty()) out.push_back("gcc -m32 -nostdlib");
  std::string cross = native().machine == "aarch64" ? "x86_64-linux-gnu-gcc" : "aarch64-linux-gnu-gcc";
  if (test::toolchain_problem(cross, "-shared -fPIC -nostdlib").empty()) out.push_back(cross);
  return out;
}

TEST_F(LoaderSearch, GlibcSkipsAnotherClassOrMachine) {
  auto compilers = wrong_elf_compilers();
  if (compilers.empty()) GTEST_SKIP() << "neither gcc -m32 nor a cross compiler builds here";
  std::string bad = layouts() / "skip/bad", good = layouts() / "skip/good";
  std::string prog = app("app-skip", "-Wl,--disable-new-dtags,-rpath," + bad + ":" + good);
  host_copy(libfoo(kBase), good + "/libfoo.so.1");
  for (auto& compiler : compilers) {
    host_copy(libfoo(kOther, compiler), bad + "/libfoo.so.1");
    EXPECT_EQ(run_here("'" + prog + "'"), kBase) << compiler;
    ViewBuilder b;
    glibc_base(b);
    b.elf_file(image_path(bad + "/libfoo.so.1"), libfoo(kOther, compiler));
    b.elf_file(image_path(good + "/libfoo.so.1"), libfoo(kBase));
    b.elf_file("usr/bin/app", prog);
    EXPECT_EQ(run_loader(b, "usr/bin/app").resolved.at("libfoo.so.1"), image_path(good + "/libfoo.so.1")) << compiler;
  }
}

// --- 5. musl loads the first file that opens ---

TEST_F(LoaderSearch, MuslLoadsTheFirstFileThatOpens) {
  if (std::string p = test::toolchain_problem("musl-gcc", "-shared -fPIC"); !p.empty()) GTEST_SKIP() << p;
  std::string bad = layouts() / "musl/bad", good = layouts() / "musl/good";
  std::string prog = app("musl/app", "", "musl-gcc");
  host_copy(libfoo(kBase, "musl-gcc"), good + "/libfoo.so.1");
  const std::string env = "LD_LIBRARY_PATH='" + bad + ":" + good + "' ";
  struct Case {
    std::string what;      // what the first one is, as the reason says it
    std::string compiler;  // its compiler; "" for a text file, "dir" for a directory
  };
  std::vector<Case> cases = {{"is not an ELF file", ""}, {"is a directory", "dir"}};
  for (auto& compiler : wrong_elf_compilers())
    cases.push_back({"is for " + ViewBuilder().inspect(libfoo(kOther, compiler))->machine, compiler});
  test::run("rm -rf '" + bad + "'");
  EXPECT_EQ(run_here(env + "'" + prog + "'"), kBase);
  for (const Case& c : cases) {
    test::run("rm -rf '" + bad + "' && mkdir -p '" + bad + "'");
    if (c.compiler == "dir") test::run("mkdir '" + bad + "/libfoo.so.1'");
    else if (c.compiler.empty()) test::write_file(bad + "/libfoo.so.1", kLinkerScript);
    else host_copy(libfoo(kOther, c.compiler), bad + "/libfoo.so.1");
    int real = run_here(env + "'" + prog + "'");
    EXPECT_NE(real, kBase) << c.what;
    EXPECT_NE(real, kOther) << c.what;

    ViewBuilder b;
    musl_base(b);
    std::string first = image_path(bad + "/libfoo.so.1");
    if (c.compiler == "dir") b.dir(first);
    else if (c.compiler.empty()) b.text(first, kLinkerScript);
    else b.elf_file(first, libfoo(kOther, c.compiler));
    b.elf_file(image_path(good + "/libfoo.so.1"), libfoo(kBase, "musl-gcc"));
    b.elf_file("usr/bin/app", prog);
    BinaryFacts bf = run_loader(b, "usr/bin/app", {"LD_LIBRARY_PATH=" + bad + ":" + good}, LibcKind::Musl);
    EXPECT_EQ(bf.missing_needed, Names{"libfoo.so.1"}) << c.what;
    EXPECT_EQ(bf.library_notes["libfoo.so.1"].missing_reason,
              "the first libfoo.so.1 on the search path " + c.what + " (" + display_path(first) +
                  "): musl loads the first file that opens");
  }
}

// --- 6. every missing library at once ---

TEST_F(LoaderSearch, AProgramWithoutItsInterpreterStillListsEveryOtherMissingLibrary) {
  std::string libbar = built("gcc-bar/libbar.so.1", "gcc", "int bar(void) { return 1; }\n",
                             "-shared -fPIC -Wl,-soname,libbar.so.1");
  std::string prog = built("app-two", "gcc",
                           "int foo(void);\nint bar(void);\nint main(void) { return foo() + bar(); }\n",
                           "-L'" + parent_dir(libfoo(kBase)) + "' -L'" + parent_dir(libbar) +
                               "' -Wl,--no-as-needed -l:libfoo.so.1 -l:libbar.so.1 -lm");
  ASSERT_EQ(ViewBuilder().inspect(prog)->needed, (Names{"libfoo.so.1", "libbar.so.1", "libm.so.6", "libc.so.6"}));

  // On musl: musl's own loader would search; libbar is there, libfoo is not, libc and libm are libc's.
  ViewBuilder on_musl;
  musl_base(on_musl);
  on_musl.elf_file("usr/lib/libbar.so.1", libbar);
  on_musl.elf_file("usr/bin/app", prog);
  BinaryFacts m = run_loader(on_musl, "usr/bin/app", {}, LibcKind::Musl);
  EXPECT_FALSE(m.interpreter_present);
  EXPECT_EQ(m.missing_needed, Names{"libfoo.so.1"});
  EXPECT_EQ(m.resolved.at("libbar.so.1"), "usr/lib/libbar.so.1");

  // On glibc without the interpreter's path: glibc's search, libc found, libfoo and libbar missing.
  ViewBuilder on_glibc;
  glibc_base(on_glibc, true, false);
  on_glibc.elf_file("usr/bin/app", prog);
  BinaryFacts g = run_loader(on_glibc, "usr/bin/app");
  EXPECT_FALSE(g.interpreter_present);
  EXPECT_EQ(g.resolved.at("libc.so.6"), native().glibc_libc_path);
  EXPECT_EQ(g.missing_needed, (Names{"libfoo.so.1", "libbar.so.1"}));  // libm.so.6, absent too, is libc's

  // From scratch: no libc at all; libc's names are left to the libc finding.
  ViewBuilder scratch;
  scratch.elf_file("usr/bin/app", prog);
  EXPECT_EQ(run_loader(scratch, "usr/bin/app", {}, LibcKind::None).missing_needed,
            (Names{"libfoo.so.1", "libbar.so.1"}));
}

TEST(LoaderLibcOwnNames, AreThoseALibcShipsItself) {
  for (auto name : {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libresolv.so.2",
                    "libnss_dns.so.2", "libnss_files.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
                    "ld-linux-armhf.so.3", "ld-linux.so.2", "ld64.so.2", "ld64.so.1", "libc.so",
                    "ld-musl-x86_64.so.1", "libc.musl-aarch64.so.1"})
    EXPECT_TRUE(is_libc_own_name(name)) << name;
  for (auto name : {"libgcc_s.so.1", "libstdc++.so.6", "libicuuc.so.72", "libz.so.1", "libcrypt.so.1",
                    "libssl.so.3", "libcurl.so.4", "libmagic.so.1", "libc.so.7", "libcap.so.2", "libnss3.so"})
    EXPECT_FALSE(is_libc_own_name(name)) << name;

  // Every library of the glibc package gcc links against here, where dpkg knows it (named with this machine's
  // architecture: with another's libc6 installed beside it, a bare libc6 is ambiguous).
  std::string files;
  if (test::run("dpkg -L libc6:$(dpkg --print-architecture) 2>/dev/null", &files) != 0)
    GTEST_SKIP() << "the names checked; dpkg knows no libc6 here to take the rest of glibc's libraries from";
  int seen = 0;
  for (auto& f : split(files, "\n")) {
    if (parent_dir(f) != "/" + parent_dir(native().glibc_libc_path) || f.find(".so") == std::string::npos) continue;
    ElfResult r = inspect_elf(test::read_file(f));
    if (!r.facts) continue;
    std::string name = r.facts->soname.empty() ? base_name(f) : r.facts->soname;
    EXPECT_TRUE(is_libc_own_name(name)) << f;
    ++seen;
  }
  EXPECT_GT(seen, 10);
}

}  // namespace
}  // namespace imgaudit
