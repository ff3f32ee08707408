// An image whose programs are damaged only where the kernel and ld.so never read: the audit reports what
// their loader's view says (a missing interpreter is an error, so --fail-on error fails), and the damage
// beside it as a warning, never instead of it. Run through the imgaudit binary over a root folder holding
// this machine's glibc loader and libc, with programs compiled and damaged here; execve is the truth.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../elf/damaged_elf.h"
#include "native_target.h"
#include "test_support.h"

namespace imgaudit::test {
namespace {

struct Audit {
  int status = -1;
  nlohmann::json report;
};

Audit audit(const std::string& root) {
  Audit a;
  std::string out;
  a.status = run(shell_quoted(imgaudit_binary()) + " --format json --fail-on error " + shell_quoted("rootfs:" + root) +
                     " 2>/dev/null",
                 &out);
  a.report = nlohmann::json::parse(out, nullptr, false);
  return a;
}

// Paths of the findings of `id`, and their severity (one per id).
std::set<std::string> paths_of(const nlohmann::json& report, const std::string& id, std::string* severity = nullptr) {
  std::set<std::string> paths;
  for (const auto& f : report["findings"]) {
    if (f["id"] != id) continue;
    if (severity) *severity = f["severity"];
    for (const auto& p : f["paths"]) paths.insert(p);
  }
  return paths;
}

nlohmann::json binary_at(const nlohmann::json& report, const std::string& path) {
  for (const auto& b : report["binaries"])
    if (b["path"] == path) return b;
  return nullptr;
}

// A root folder with this machine's glibc loader (behind its interpreter path) and libc.
std::string glibc_root(const TempDir& dir) {
  const NativeTarget& native = native_target();
  std::string root = dir / "root";
  std::filesystem::create_directories(root + "/etc");
  std::filesystem::create_directories(root + "/bin");
  for (const auto& [image_path, host_file] : {std::pair{native.glibc_loader_path, native.glibc_loader_file},
                                              std::pair{native.glibc_libc_path, native.glibc_libc_file}}) {
    std::filesystem::create_directories(std::filesystem::path(root + "/" + image_path).parent_path());
    write_file(root + "/" + image_path, read_file(host_file), 0755);
  }
  std::string interpreter = root + native.glibc_interpreter;
  std::filesystem::create_directories(std::filesystem::path(interpreter).parent_path());
  std::filesystem::create_symlink("/" + native.glibc_loader_path, interpreter);
  return root;
}

TEST(DamagedPrograms, TheirInterpreterAndLibrariesAreStillChecked) {
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  TempDir dir;
  std::string bin = dir / "damageable";
  ASSERT_TRUE(compile_c("gcc", kDamageableC, bin, kDamageableFlags));
  const std::string good = read_file(bin);
  std::string no_sections = good, broken_hash = good;
  put<uint64_t>(no_sections, offsetof(Elf64_Ehdr, e_shoff), good.size() + 4096);
  put<uint32_t>(broken_hash, section_header(good, SHT_HASH).sh_offset + 4, 0xffffffff);
  const std::string lost_loader = with_interpreter(no_sections, "/lib/ld-missing.so.1");

  std::string root = glibc_root(dir);
  const std::map<std::string, std::string> programs = {
      {"/bin/intact", good}, {"/bin/no-sections", no_sections}, {"/bin/broken-hash", broken_hash}};
  for (const auto& [path, bytes] : programs) write_file(root + path, bytes, 0755);
  // What the kernel says of each, run on this machine, whose loader and libc the root folder holds.
  for (const auto& [name, bytes] : {std::pair{"no-sections", no_sections}, std::pair{"broken-hash", broken_hash},
                                    std::pair{"lost-loader", lost_loader}}) {
    write_file(dir / name, bytes, 0755);
    EXPECT_EQ(exec_status(dir / name), std::string(name) == "lost-loader" ? -ENOENT : kDamageableExit) << name;
  }

  Audit without = audit(root);
  ASSERT_FALSE(without.report.is_discarded()) << without.status;
  EXPECT_EQ(without.status, 0) << without.report["findings"].dump(1);
  std::string severity;
  EXPECT_EQ(paths_of(without.report, "elf-sections-unreadable", &severity),
            (std::set<std::string>{"/bin/no-sections", "/bin/broken-hash"}));
  EXPECT_EQ(severity, "warning");
  EXPECT_TRUE(paths_of(without.report, "elf-unreadable").empty());
  for (const char* path : {"/bin/intact", "/bin/no-sections", "/bin/broken-hash"}) {
    nlohmann::json b = binary_at(without.report, path);
    ASSERT_TRUE(b.is_object()) << path;
    EXPECT_EQ(b["interpreter"], native_target().glibc_interpreter) << path;
    EXPECT_EQ(b["interpreter_present"], true) << path;
    EXPECT_EQ(b["needed"], nlohmann::json::array({"libc.so.6"})) << path;
    EXPECT_EQ(b["missing_needed"], nlohmann::json::array()) << path;
    EXPECT_EQ(b["runpath"], nlohmann::json::array({"/opt/damaged/lib"})) << path;
  }
  EXPECT_EQ(binary_at(without.report, "/bin/intact")["sections_error"], "");
  EXPECT_EQ(binary_at(without.report, "/bin/no-sections")["sections_error"], "section header table past end of file");
  EXPECT_EQ(binary_at(without.report, "/bin/broken-hash")["sections_error"], "dynamic symbol table past end of file");

  // The same image with the program whose loader is missing: an error, and the image fails.
  write_file(root + "/bin/lost-loader", lost_loader, 0755);
  Audit with = audit(root);
  ASSERT_FALSE(with.report.is_discarded()) << with.status;
  EXPECT_EQ(with.status, 1);
  EXPECT_EQ(paths_of(with.report, "interpreter-missing", &severity), std::set<std::string>{"/bin/lost-loader"});
  EXPECT_EQ(severity, "error");
  EXPECT_EQ(paths_of(with.report, "elf-sections-unreadable"),
            (std::set<std::string>{"/bin/no-sections", "/bin/broken-hash", "/bin/lost-loader"}));
  EXPECT_TRUE(paths_of(with.report, "elf-unreadable").empty());
  EXPECT_EQ(binary_at(with.report, "/bin/lost-loader")["interpreter"], "/lib/ld-missing.so.1");
}

}  // namespace
}  // namespace imgaudit::test
