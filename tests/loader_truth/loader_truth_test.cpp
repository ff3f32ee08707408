// The loader emulation against the real loaders, over whole roots: a debootstrap Debian 12 root with
// packages of many libraries, and the Alpine minirootfs with musl programs built here. Every ELF file of a
// root is traced in a chroot by the root's own loader (glibc's LD_TRACE_LOADED_OBJECTS=1, as ldd runs it;
// musl's --list), and the libraries it loads and those it cannot find must equal imgaudit's loads[] and
// missing_needed (with the names judged in context put back) for that file, but for the differences of
// definition in kKnownDifferences.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "native_target.h"
#include "test_support.h"
#include "util/strings.h"

using namespace imgaudit::test;
using imgaudit::ends_with;
using imgaudit::starts_with;
namespace fs = std::filesystem;

namespace {

// ---- Paths inside a root ----

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream ss(path);
  for (std::string c; std::getline(ss, c, '/');)
    if (!c.empty() && c != ".") out.push_back(c);
  return out;
}

// `path`, absolute as seen inside `root`, with every symlink followed inside the root (an absolute target
// starts again at the root, as in a chroot); "" when it does not resolve.
std::string real_in_root(const std::string& root, const std::string& path) {
  std::vector<std::string> parts = components(path);
  std::deque<std::string> rest(parts.begin(), parts.end());
  std::vector<std::string> done;
  int links = 0;
  while (!rest.empty()) {
    std::string c = rest.front();
    rest.pop_front();
    if (c == "..") {
      if (!done.empty()) done.pop_back();
      continue;
    }
    std::string at = root;
    for (auto& d : done) at += "/" + d;
    at += "/" + c;
    struct stat st {};
    if (lstat(at.c_str(), &st) != 0) return "";
    if (!S_ISLNK(st.st_mode)) {
      done.push_back(c);
      continue;
    }
    if (++links > 40) return "";
    std::string target = fs::read_symlink(at).string();
    if (!target.empty() && target[0] == '/') done.clear();
    std::vector<std::string> more = components(target);
    rest.insert(rest.begin(), more.begin(), more.end());
  }
  std::string out;
  for (auto& d : done) out += "/" + d;
  return out.empty() ? "/" : out;
}

// Every regular file of the root that starts with the ELF magic, as "/path" inside it.
std::set<std::string> elf_files(const std::string& root) {
  std::set<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (!it->is_regular_file() || it->is_symlink()) continue;
    std::ifstream f(it->path(), std::ios::binary);
    char magic[4] = {};
    if (f.read(magic, 4) && std::string(magic, 4) == "\x7f" "ELF")
      out.insert(it->path().string().substr(root.size()));
  }
  return out;
}

std::string tail(const std::string& s, size_t n = 4000) { return s.size() > n ? s.substr(s.size() - n) : s; }

// ---- The two views of one file ----

// The libraries one side says a file loads at start-up, transitively (real paths inside the root, or a bare
// name for an object that is no file), and the NEEDED names it cannot find.
struct Libraries {
  std::set<std::string> loaded, missing;
};

// imgaudit's view of one ELF file (binaries[] of its JSON report).
struct AuditedFile {
  Libraries libraries;
  std::string interpreter, interpreter_resolved, machine, linkage;
  int elf_class = 0;
};

// What the root's own loader printed for one file.
struct Trace {
  std::string loader;       // the loader that traced it, its real path in the root; "" when none would
  Libraries libraries;
  std::vector<std::string> refusal;  // what it said instead of a list of libraries
  bool traced() const { return !loader.empty() && refusal.empty(); }
};

using Audit = std::map<std::string, AuditedFile>;  // by path

std::set<std::string> strings_of(const nlohmann::json& a) {
  std::set<std::string> out;
  for (auto& s : a) out.insert(s.get<std::string>());
  return out;
}

Audit parse_audit(const nlohmann::json& report) {
  Audit out;
  for (auto& b : report.at("binaries")) {
    AuditedFile f;
    for (auto& l : b.at("loads")) f.libraries.loaded.insert(l.at("path").get<std::string>());
    // The loader traces a library on its own: what the programs loading it supply (supplied_by_program),
    // or the image holds elsewhere for a library no program loads (needed_elsewhere), it misses.
    f.libraries.missing = strings_of(b.at("missing_needed"));
    for (auto* in_context : {&b.at("supplied_by_program"), &b.at("needed_elsewhere")})
      for (auto& [name, path] : in_context->items()) f.libraries.missing.insert(name);
    f.interpreter = b.at("interpreter");
    f.interpreter_resolved = b.at("interpreter_resolved");
    f.machine = b.at("machine");
    f.linkage = b.at("linkage");
    f.elf_class = b.at("elf_class");
    out.emplace(b.at("path").get<std::string>(), std::move(f));
  }
  return out;
}

// imgaudit's report on the root folder, or a failure with what it said.
bool audit_root(const std::string& root, Audit* out) {
  TempDir scratch;
  std::string json, err_file = scratch / "stderr";
  int status =
      run("'" + imgaudit_binary() + "' --format json --fail-on never '" + root + "' 2>'" + err_file + "'", &json);
  EXPECT_EQ(status, 0) << "imgaudit on " << root << ": " << read_file(err_file);
  if (status != 0) return false;
  *out = parse_audit(nlohmann::json::parse(json));
  return true;
}

// ---- The real loader's view ----

// One line of a trace, into the libraries it names; false when it names none.
bool parse_trace_line(const std::string& root, std::string line, Libraries& libs) {
  line.erase(0, line.find_first_not_of(" \t"));
  const std::string musl_missing = "Error loading shared library ";
  if (starts_with(line, musl_missing)) {  // musl: "Error loading shared library NAME: WHY (needed by FILE)"
    std::string rest = line.substr(musl_missing.size());
    libs.missing.insert(rest.substr(0, rest.find(": ")));
    return true;
  }
  // musl's relocation errors come of a missing library or symbol: about linking, not loading.
  if (starts_with(line, "Error relocating ")) return true;
  if (line == "statically linked") return true;  // glibc: a file without NEEDED loads nothing
  size_t arrow = line.find(" => ");
  if (arrow != std::string::npos) {
    std::string name = line.substr(0, arrow), target = line.substr(arrow + 4);
    if (target == "not found") {
      libs.missing.insert(name);
      return true;
    }
    size_t addr = target.rfind(" (0x");
    if (addr == std::string::npos) return false;
    std::string path = target.substr(0, addr), real = real_in_root(root, path);
    libs.loaded.insert(real.empty() ? path : real);
    return true;
  }
  size_t addr = line.rfind(" (0x");
  if (addr == std::string::npos) return false;
  std::string name = line.substr(0, addr);  // an object loaded by its path, or the vDSO by its name
  std::string real = name[0] == '/' ? real_in_root(root, name) : "";
  libs.loaded.insert(real.empty() ? name : real);
  return true;
}

// A root's loaders and how they trace a file.
struct RootLoaders {
  std::string command;                // a shell command of $loader and $file
  std::vector<std::string> rtldlist;  // glibc: ldd's loaders, which --verify picks from
  std::string musl;                   // musl: its loader, for every file
  std::vector<std::string> names() const { return musl.empty() ? rtldlist : std::vector<std::string>{musl}; }
};

using ClassAndMachine = std::pair<int, std::string>;

// One loader of a root: the ELF class and machine imgaudit read of it, and why this machine cannot run it
// ("" when it can; a kernel without 32-bit support refuses an i386 loader: "Exec format error").
struct LoaderTarget {
  ClassAndMachine target;
  std::string cannot_run;
};

// The loaders of a root, by real path.
using LoaderTargets = std::map<std::string, LoaderTarget>;

const char kFileMark = '\036', kEndMark = '\037';

// Traces every file in one chroot: `files` are (LOADER, FILE), LOADER "-" for ldd's choice (the first loader
// of RTLDLIST that --verify says takes the file, as ldd does).
std::map<std::string, Trace> trace_all(const std::string& root, const RootLoaders& loaders,
                                       const std::vector<std::pair<std::string, std::string>>& files,
                                       std::string* failure) {
  std::string rtldlist;
  for (auto& l : loaders.rtldlist) rtldlist += " " + l;
  const std::string script =
      "while IFS='\t' read -r loader file; do\n"
      "  if [ \"$loader\" = - ]; then\n"
      "    loader=\n"
      "    for rtld in" + rtldlist + "; do\n"
      "      [ -x \"$rtld\" ] || continue\n"
      "      \"$rtld\" --verify \"$file\" >/dev/null 2>&1\n"
      "      case $? in 0|2) loader=$rtld; break ;; esac\n"
      "    done\n"
      "  fi\n"
      "  printf '\\036%s\\t%s\\n' \"$file\" \"$loader\"\n"
      "  if [ -n \"$loader\" ]; then " + loaders.command + " 2>&1; fi\n"
      "done\n"
      "printf '\\037\\n'\n";
  TempDir scratch;
  std::string list;
  for (auto& [loader, file] : files) list += loader + "\t" + file + "\n";
  write_file(scratch / "files", list);
  write_file(scratch / "trace.sh", script);
  std::string out;
  int status = run("env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin chroot '" + root + "' /bin/sh -c \"$(cat '" +
                       scratch / "trace.sh" + "')\" < '" + scratch / "files" + "' 2>&1",
                   &out);
  // The loop's status is its last trace's: only the end mark says that it went through the list.
  if (!ends_with(out, std::string{kEndMark, '\n'})) {
    *failure = "the trace loop in the chroot did not finish (exit " + std::to_string(status) + "):\n" + tail(out);
    return {};
  }
  std::map<std::string, Trace> traces;
  Trace* current = nullptr;
  std::stringstream ss(out.substr(0, out.size() - 2));
  for (std::string line; std::getline(ss, line);) {
    if (!line.empty() && line[0] == kFileMark) {
      size_t tab = line.find('\t');
      std::string file = line.substr(1, tab - 1), loader = line.substr(tab + 1);
      current = &traces[file];
      current->loader = loader.empty() ? "" : real_in_root(root, loader);
    } else if (current && !parse_trace_line(root, line, current->libraries)) {
      current->refusal.push_back(line);
    }
  }
  for (auto& [loader, file] : files)
    if (!traces.count(file)) *failure += "the trace loop skipped " + file + "\n";
  return traces;
}

// The loaders ldd tries, from the root's own /usr/bin/ldd.
std::vector<std::string> ldd_rtldlist(const std::string& root) {
  std::string ldd = read_file(root + "/usr/bin/ldd");
  const std::string tag = "RTLDLIST=";
  size_t at = ldd.find(tag);
  if (at == std::string::npos) return {};
  at += tag.size();
  std::string value = ldd.substr(at, ldd.find('\n', at) - at);
  value.erase(std::remove(value.begin(), value.end(), '"'), value.end());
  std::vector<std::string> out;
  std::stringstream ss(value);
  for (std::string l; ss >> l;) out.push_back(l);
  return out;
}

// ---- The comparison ----

struct Difference {
  enum Kind {
    LoadedOnlyByLoader,
    LoadedOnlyByImgaudit,
    MissingOnlyByLoader,
    MissingOnlyByImgaudit,
    Untraced,  // the loader listed no libraries: it refused the file, or none would take it
    Unlisted,  // imgaudit has no entry for an ELF file of the root
  };
  Kind kind;
  std::string entry;  // the library's path or name; "" for Untraced and Unlisted
};

struct FileCase {
  const std::string& path;
  const AuditedFile* audited;  // nullptr when imgaudit did not list the file
  const Trace& trace;
  const LoaderTargets& loaders;
};

bool no_libraries(const Libraries& l) { return l.loaded.empty() && l.missing.empty(); }

bool said(const Trace& t, const std::string& words) {
  return std::any_of(t.refusal.begin(), t.refusal.end(), [&](auto& l) { return l.find(words) != std::string::npos; });
}

// The file at which glibc ended the start ("FILE: error while loading shared libraries: LIB: WHY"), or "".
std::string glibc_stopped_at(const Trace& t) {
  const std::string words = "error while loading shared libraries: ";
  for (auto& line : t.refusal) {
    size_t at = line.find(words);
    if (at == std::string::npos) continue;
    at += words.size();
    return line.substr(at, line.find(": ", at) - at);
  }
  return "";
}

// A difference of definition: where the two sides mean different things, not where imgaudit is wrong.
struct KnownDifference {
  const char* name;
  const char* reason;
  bool (*explains)(const FileCase&, const Difference&);
};

const KnownDifference kKnownDifferences[] = {
    {"vdso", "the kernel's vDSO (linux-vdso.so.1, linux-gate.so.1) is in every process, so the loader lists it; "
             "it is no file of the image",
     [](const FileCase&, const Difference& d) {
       return d.kind == Difference::LoadedOnlyByLoader && d.entry.find('/') == std::string::npos;
     }},
    {"the loader itself",
     "the loader maps itself before any library (a program's interpreter, or the loader tracing a library) and "
     "musl answers libc's names with itself; imgaudit reports a program's interpreter as interpreter_resolved, "
     "and lists the loader in loads only where a NEEDED name is looked up and found as a file",
     [](const FileCase& f, const Difference& d) {
       return d.kind == Difference::LoadedOnlyByLoader && d.entry == f.trace.loader && f.audited &&
              (f.audited->interpreter.empty() || f.audited->interpreter_resolved == d.entry);
     }},
    {"static program",
     "the loader traces only programs with a dynamic section: no loader of ldd's RTLDLIST takes a static "
     "non-PIE one (ldd: \"not a dynamic executable\"), musl's --list says \"Not a valid dynamic program\"; "
     "it loads nothing, as imgaudit says",
     [](const FileCase& f, const Difference& d) {
       return d.kind == Difference::Untraced && f.audited && f.audited->linkage == "static" &&
              no_libraries(f.audited->libraries) &&
              (f.trace.loader.empty() || said(f.trace, "Not a valid dynamic program"));
     }},
    {"glibc stops at a file it cannot load",
     "glibc ends the whole start at a file of a library's name that it cannot load (a directory, a linker "
     "script, a short file: \"error while loading shared libraries: FILE: WHY\") and lists nothing; imgaudit "
     "says that library is missing, with glibc's words in its note",
     [](const FileCase& f, const Difference& d) {
       return d.kind == Difference::Untraced && f.audited && !f.trace.loader.empty() &&
              f.audited->libraries.missing.count(fs::path(glibc_stopped_at(f.trace)).filename().string());
     }},
    {"no loader of its class and machine",
     "the root has no loader of the file's ELF class and machine, so nothing there starts it: glibc's loaders "
     "refuse to trace it, musl's --list maps it all the same (it does not check the machine) and lists its own "
     "names; imgaudit still says what the image's own loader would search",
     [](const FileCase& f, const Difference&) {
       if (!f.audited) return false;
       ClassAndMachine target{f.audited->elf_class, f.audited->machine};
       return std::none_of(f.loaders.begin(), f.loaders.end(), [&](auto& l) { return l.second.target == target; });
     }},
    {"its loader cannot run on this machine",
     "the root's loaders of the file's ELF class and machine cannot run here (the kernel refuses them), so "
     "nothing traces the file; the test prints that these files go uncompared",
     [](const FileCase& f, const Difference& d) {
       if (d.kind != Difference::Untraced || !f.audited) return false;
       ClassAndMachine target{f.audited->elf_class, f.audited->machine};
       auto of_target = [&](auto& l) { return l.second.target == target; };
       auto runs = [&](auto& l) { return of_target(l) && l.second.cannot_run.empty(); };
       return std::any_of(f.loaders.begin(), f.loaders.end(), of_target) &&
              std::none_of(f.loaders.begin(), f.loaders.end(), runs);
     }},
};

void add_set_differences(const std::set<std::string>& loader, const std::set<std::string>& imgaudit,
                         Difference::Kind only_loader, Difference::Kind only_imgaudit, std::vector<Difference>& out) {
  for (auto& e : loader)
    if (!imgaudit.count(e)) out.push_back({only_loader, e});
  for (auto& e : imgaudit)
    if (!loader.count(e)) out.push_back({only_imgaudit, e});
}

std::vector<Difference> differences(const AuditedFile* audited, const Trace& trace) {
  if (!audited) return {{Difference::Unlisted, ""}};
  if (!trace.traced()) return {{Difference::Untraced, ""}};
  std::vector<Difference> out;
  add_set_differences(trace.libraries.loaded, audited->libraries.loaded, Difference::LoadedOnlyByLoader,
                      Difference::LoadedOnlyByImgaudit, out);
  add_set_differences(trace.libraries.missing, audited->libraries.missing, Difference::MissingOnlyByLoader,
                      Difference::MissingOnlyByImgaudit, out);
  return out;
}

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (auto& e : s) out += (out.empty() ? "" : " ") + e;
  return out.empty() ? "-" : out;
}

std::string describe(const FileCase& f, const std::vector<Difference>& unexplained) {
  static const char* const kinds[] = {"only the loader loads", "only imgaudit loads",         "only the loader misses",
                                      "only imgaudit misses",  "the loader did not trace it", "imgaudit did not list it"};
  std::string s = f.path + "\n";
  for (auto& d : unexplained) s += "  " + std::string(kinds[d.kind]) + (d.entry.empty() ? "" : ": " + d.entry) + "\n";
  if (f.audited)
    s += "  imgaudit: loads " + joined(f.audited->libraries.loaded) + "; missing " +
         joined(f.audited->libraries.missing) + "\n";
  s += "  loader " + (f.trace.loader.empty() ? std::string("(none)") : f.trace.loader) + ": loads " +
       joined(f.trace.libraries.loaded) + "; missing " + joined(f.trace.libraries.missing) + "\n";
  for (auto& l : f.trace.refusal) s += "  | " + l + "\n";
  return s;
}

// The differences of one file that no row explains; the rows that explain the others in *rows.
std::vector<Difference> unexplained(const FileCase& f, std::set<std::string>* rows) {
  std::vector<Difference> out;
  for (auto& d : differences(f.audited, f.trace)) {
    auto row = std::find_if(std::begin(kKnownDifferences), std::end(kKnownDifferences),
                            [&](const KnownDifference& k) { return k.explains(f, d); });
    if (row == std::end(kKnownDifferences)) out.push_back(d);
    else rows->insert(row->name);
  }
  return out;
}

struct Tally {
  size_t agreed = 0, explained = 0, failed = 0, traced_missing = 0, traced_loading = 0;
  std::map<std::string, size_t> row_files;
  std::string report;  // the first kMaxReported failures
  static constexpr size_t kMaxReported = 50;
};

// Compares every file, prints the tally, and fails the test on each difference no row explains.
void compare(const std::string& root_name, const std::set<std::string>& files, const Audit& audit,
             const std::map<std::string, Trace>& traces, const LoaderTargets& loaders) {
  Tally t;
  for (auto& path : files) {
    auto a = audit.find(path);
    FileCase f{path, a == audit.end() ? nullptr : &a->second, traces.at(path), loaders};
    if (f.trace.traced()) {
      t.traced_missing += !f.trace.libraries.missing.empty();
      t.traced_loading += std::any_of(f.trace.libraries.loaded.begin(), f.trace.libraries.loaded.end(),
                                      [&](auto& l) { return l[0] == '/' && l != f.trace.loader; });
    }
    std::set<std::string> rows;
    std::vector<Difference> left = unexplained(f, &rows);
    for (auto& r : rows) ++t.row_files[r];
    if (!left.empty() && ++t.failed <= Tally::kMaxReported) t.report += describe(f, left);
    if (left.empty()) ++(rows.empty() ? t.agreed : t.explained);
  }
  std::cout << root_name << ": " << files.size() << " ELF files (the loader traced " << t.traced_loading
            << " loading libraries, " << t.traced_missing << " missing some); " << t.agreed << " agree exactly, "
            << t.explained << " differ only as kKnownDifferences explains, " << t.failed << " differ otherwise\n";
  for (auto& k : kKnownDifferences) std::cout << "  " << k.name << ": " << t.row_files[k.name] << " files\n";
  const std::string shown = t.failed > Tally::kMaxReported ? " (the first " + std::to_string(Tally::kMaxReported) + ")" : "";
  EXPECT_EQ(t.failed, 0u) << t.failed << " of " << files.size() << " ELF files of " << root_name
                          << " differ as no known difference explains" << shown << ":\n" << t.report;
  // The roots hold programs that load libraries and programs that miss some: a comparison without either
  // would pass without checking anything.
  EXPECT_GT(t.traced_loading, 0u) << root_name;
  EXPECT_GT(t.traced_missing, 0u) << root_name;
}

// Why this machine cannot run `loader` (a path outside the root), or "": only a refused exec counts (the
// shell's 126), not what the loader answers to --help.
std::string cannot_run(const std::string& loader) {
  std::string said;
  if (run("'" + loader + "' --help 2>&1 >/dev/null", &said) != 126) return "";
  while (!said.empty() && said.back() == '\n') said.pop_back();
  return said.empty() ? "exit 126" : said.substr(said.rfind('\n') + 1);
}

// The real paths of the loaders in the root that are ELF files imgaudit read, with their class and machine.
LoaderTargets targets_of(const std::string& root, const RootLoaders& loaders, const Audit& audit) {
  LoaderTargets out;
  for (auto& n : loaders.names()) {
    auto a = audit.find(real_in_root(root, n));
    if (a != audit.end())
      out.emplace(a->first, LoaderTarget{{a->second.elf_class, a->second.machine}, cannot_run(root + a->first)});
  }
  return out;
}

// The loader that traces `path`: musl's for every file; for glibc, a program's own interpreter when it is one
// of ldd's loaders, else "-" (ldd's choice).
std::string loader_for(const std::string& root, const std::string& path, const RootLoaders& loaders,
                       const LoaderTargets& targets, const Audit& audit) {
  if (!loaders.musl.empty()) return loaders.musl;
  auto a = audit.find(path);
  if (a != audit.end() && !a->second.interpreter.empty() && targets.count(real_in_root(root, a->second.interpreter)))
    return a->second.interpreter;
  return "-";
}

// Audits and traces every ELF file of `root` (those imgaudit lists too), then compares them.
void check_root(const std::string& root_name, const std::string& root, const RootLoaders& loaders) {
  std::set<std::string> files = elf_files(root);
  ASSERT_FALSE(files.empty()) << root << " has no ELF file";
  Audit audit;
  if (!audit_root(root, &audit)) return;
  for (auto& [path, _] : audit) files.insert(path);
  LoaderTargets targets = targets_of(root, loaders, audit);
  std::vector<std::string> names = loaders.names();
  ASSERT_FALSE(targets.empty()) << root_name << " has none of its loaders: " << joined({names.begin(), names.end()});
  std::string refused;
  for (auto& [path, loader] : targets)
    if (!loader.cannot_run.empty()) refused += "  " + path + " cannot run on this machine (" + loader.cannot_run + ")\n";
  if (std::all_of(targets.begin(), targets.end(), [](auto& l) { return !l.second.cannot_run.empty(); }))
    GTEST_SKIP() << "no loader of " << root_name << " runs here:\n" << refused;
  std::cout << refused << (refused.empty() ? "" : "  the files of their class and machine go uncompared\n");

  std::vector<std::pair<std::string, std::string>> work;
  for (auto& path : files) work.emplace_back(loader_for(root, path, loaders, targets, audit), path);
  std::string failure;
  std::map<std::string, Trace> traces = trace_all(root, loaders, work, &failure);
  ASSERT_TRUE(failure.empty()) << failure;
  compare(root_name, files, audit, traces, targets);
}

// ---- Preconditions ----

// Why this machine cannot run the test ("" when it can).
std::string chroot_problem() {
  if (geteuid() != 0) return "chroot needs root";
  if (!have_tool("chroot")) return "chroot (coreutils) is not on PATH";
  return "";
}

// ---- The Debian root ----

// Packages with many shared libraries, and deep trees of them: systemd (RUNPATH to its private
// libraries), python3 and perl (extension modules), libavcodec59 (about a hundred libraries).
std::vector<std::string> debian_packages() {
  std::vector<std::string> p = {"systemd", "python3", "perl", "libavcodec59"};
  if (native_target().machine == "x86_64") p.push_back("libc6-i386");  // a second loader and class
  return p;
}

// The Debian root in the build folder, made once for this package list (cached_debootstrap).
std::string debian_root(std::string* skip, std::string* failure) {
  return cached_debootstrap(std::string(LOADER_TRUTH_CACHE_DIR) + "/debian-root", "bookworm", debian_packages(), skip,
                            failure);
}

// ---- Programs built into a root ----

const char* const kLibOuterC = "int foo(void);\nint outer(void) { return foo() + 1; }\n";
const char* const kUsesOuterC = "int outer(void);\nint main(void) { return outer(); }\n";

// Programs and libraries of every kind of lookup, built with `compiler` into a root: in /usr/local/lib
// (musl's default path; for glibc, in ld.so.conf but not in the cache), through RUNPATH and RPATH
// $ORIGIN/../lib, and for a library through the program's (musl walks both, glibc RPATH only), with tokens
// ($LIB, which musl does not know; $ORIGIN in a NEEDED path, which musl does not expand), through a
// symlink (its folder is $ORIGIN), behind a file of the name that the loader cannot load (a directory,
// another class), by an absolute NEEDED path, and not found, directly and through a library. What they add
// to the root is removed with them; a killed run's leftovers, by the next run.
class TestPrograms {
 public:
  // `foreign_rootfs`: a minirootfs of another machine, whose busybox comes along ("" for none).
  TestPrograms(const std::string& root, const std::string& compiler, const std::string& foreign_rootfs)
      : root_(root), compiler_(compiler) {
    remove_all_added();
    build();
    if (!foreign_rootfs.empty()) add_foreign_busybox(foreign_rootfs);
  }
  ~TestPrograms() { remove_all_added(); }
  TestPrograms(const TestPrograms&) = delete;
  TestPrograms& operator=(const TestPrograms&) = delete;

 private:
  void build() {
    for (auto dir : {"/usr", "/usr/local", "/usr/local/lib", "/usr/local/bin", "/opt", "/opt/truth",
                     "/opt/truth/lib", "/opt/truth/bin", "/opt/truth/deps", "/opt/truth/real"})
      make_dir(dir);
    build_default_path();
    build_origin();
    build_in_the_way();
    build_missing();
  }

  void build_default_path() {
    const std::string local = root_ + "/usr/local/lib";
    lib(local + "/libtruth.so.1", kLibFooC);
    lib(local + "/libouter.so.1", kLibOuterC, "-L'" + local + "' -ltruth");
    program("/usr/local/bin/uses-truth", kUsesFooC, "-L'" + local + "' -ltruth");
    program("/usr/local/bin/uses-outer", kUsesOuterC, "-L'" + local + "' -louter -Wl,-rpath-link,'" + local + "'");
    if (toolchain_problem(compiler_, "-static").empty()) program("/usr/local/bin/static-truth", kHelloC, "-static");
  }

  void build_origin() {
    const std::string opt = root_ + "/opt/truth/lib", link = "-L'" + opt + "' ";
    const std::string origin = " -Wl,-rpath,'$ORIGIN/../lib'", runpath = " -Wl,--enable-new-dtags" + origin,
                      rpath = " -Wl,--disable-new-dtags" + origin;
    lib(opt + "/liborigin.so.1", kLibFooC);
    lib(opt + "/libdeep.so.1", kLibOuterC, link + "-lorigin");  // no path of its own
    program("/opt/truth/bin/origin-runpath", kUsesFooC, link + "-lorigin" + runpath);
    program("/opt/truth/bin/origin-rpath", kUsesFooC, link + "-lorigin" + rpath);
    const std::string deep = link + "-ldeep -Wl,-rpath-link,'" + opt + "'";
    program("/opt/truth/bin/deep-runpath", kUsesOuterC, deep + runpath);
    program("/opt/truth/bin/deep-rpath", kUsesOuterC, deep + rpath);

    // glibc finds $LIB's copy (Debian's $LIB is lib/<multiarch>); musl drops the whole list.
    const std::string multiarch = fs::path(native_target().glibc_libc_path).parent_path().filename().string();
    make_dir("/opt/truth/lib/" + multiarch);
    lib(opt + "/" + multiarch + "/libtoken.so.1", kLibFooC);
    lib(opt + "/libtoken.so.1", kLibFooC);
    program("/opt/truth/bin/lib-token", kUsesFooC, link + "-ltoken -Wl,-rpath,'/opt/truth/$LIB:/opt/truth/lib'");
    // glibc expands $ORIGIN in a NEEDED path; musl opens it as it is.
    compile(opt + "/libdst.so", kLibFooC, "-shared -fPIC -Wl,-soname,'$ORIGIN/../lib/libdst.so'");
    program("/opt/truth/bin/origin-needed", kUsesFooC, "'" + opt + "/libdst.so'");
    compile(opt + "/libabsolute.so", kLibFooC, "-shared -fPIC -Wl,-soname,/opt/truth/lib/libabsolute.so");
    program("/opt/truth/bin/absolute-needed", kUsesFooC, "'" + opt + "/libabsolute.so'");

    // $ORIGIN of a library found through a symlink is the symlink's folder, not its target's.
    const std::string deps = root_ + "/opt/truth/deps";
    lib(deps + "/libdep.so.1", kLibFooC);
    make_dir("/opt/truth/real/sub");
    lib(root_ + "/opt/truth/real/sub/libsym.so.1", kLibOuterC, "-L'" + deps + "' -ldep -Wl,-rpath,'$ORIGIN/../deps'");
    fs::create_symlink("../real/sub/libsym.so.1", opt + "/libsym.so.1");
    added(opt + "/libsym.so.1");
    program("/opt/truth/bin/via-symlink", kUsesOuterC,
            "-L'" + root_ + "/opt/truth/real/sub' -lsym -Wl,-rpath-link,'" + deps + "' -Wl,-rpath,/opt/truth/lib");
  }

  // A file of the library's name that the loader cannot load, in a folder searched first: glibc stops at a
  // directory and goes past another class; musl stops at both.
  void build_in_the_way() {
    const std::string opt = root_ + "/opt/truth/lib";
    lib(opt + "/libinway.so.1", kLibFooC);
    make_dir("/opt/truth/dir-first");
    make_dir("/opt/truth/dir-first/libinway.so.1");
    program("/opt/truth/bin/dir-first", kUsesFooC,
            "-L'" + opt + "' -linway -Wl,-rpath,/opt/truth/dir-first:/opt/truth/lib");
    const std::string other_class = "gcc -m32 -nostdlib";
    if (!toolchain_problem(other_class, "-shared -fPIC").empty()) return;
    make_dir("/opt/truth/class-first");
    compile(root_ + "/opt/truth/class-first/libinway.so.1", kLibFooC, "-shared -fPIC -Wl,-soname,libinway.so.1",
            other_class);
    program("/opt/truth/bin/class-first", kUsesFooC,
            "-L'" + opt + "' -linway -Wl,-rpath,/opt/truth/class-first:/opt/truth/lib");
  }

  void build_missing() {
    const std::string local = root_ + "/usr/local/lib", absent = absent_.path();
    lib(absent + "/libabsent.so.1", kLibFooC);
    lib(local + "/libneeds-absent.so.1", kLibOuterC, "-L'" + absent + "' -labsent");
    program("/usr/local/bin/lacks-lib", kUsesFooC, "-L'" + absent + "' -labsent");
    program("/usr/local/bin/lacks-lib-deeper", kUsesOuterC,
            "-L'" + local + "' -lneeds-absent -Wl,-rpath-link,'" + absent + "'");
  }

  void add_foreign_busybox(const std::string& tarball) {
    const std::string file = root_ + "/usr/local/bin/foreign-busybox";
    std::string log;
    const std::string extract = "tar -xzf '" + tarball + "' -O ./bin/busybox > '" + file + "'";
    EXPECT_EQ(run("{ " + extract + " && chmod 755 '" + file + "'; } 2>&1", &log), 0) << log;
    added(file);
  }

  // `file` compiled from `source` (with this root's compiler unless told), without its source beside it.
  void compile(const std::string& file, const char* source, const std::string& flags, std::string compiler = "") {
    compile_c(compiler.empty() ? compiler_ : compiler, source, file, flags);
    fs::remove(file + ".c");
    added(file);
  }

  // A library named by its soname, and the name -l links against beside it.
  void lib(const std::string& file, const char* source, const std::string& links = "") {
    std::string soname = fs::path(file).filename().string(), dev = file.substr(0, file.rfind(".so.") + 3);
    compile(file, source, "-shared -fPIC -Wl,-soname," + soname + " " + links);
    fs::create_symlink(soname, dev);
    added(dev);
  }

  void program(const std::string& at, const char* source, const std::string& links) {
    compile(root_ + at, source, links);
  }

  // A folder of the root (by its path inside it), made and listed unless it is there.
  void make_dir(const std::string& dir) {
    if (fs::exists(root_ + dir)) return;
    fs::create_directory(root_ + dir);
    added(root_ + dir);
  }

  // Listed beside the root as it is made, so that a killed run leaves the list for the next.
  void added(const std::string& path) {
    if (!starts_with(path, root_ + "/")) return;  // outside: a library left out of the root
    lines_ += path.substr(root_.size()) + "\n";
    write_file(list_file(), lines_);
  }

  // Each added path, the last first: a folder after what it holds.
  void remove_all_added() {
    std::vector<std::string> paths;
    std::stringstream ss(read_file(list_file()));
    for (std::string path; std::getline(ss, path);) paths.push_back(path);
    std::error_code ec;  // a folder something else was put in stays
    for (auto it = paths.rbegin(); it != paths.rend(); ++it) fs::remove(root_ + *it, ec);
    fs::remove(list_file(), ec);
    lines_.clear();
  }

  std::string list_file() const { return root_ + ".added"; }

  std::string root_, compiler_, lines_;
  TempDir absent_;  // libraries linked against but left out of the root
};

// The minirootfs of a machine other than this one's, for a file no loader of the root takes; "" when absent.
std::string foreign_minirootfs() {
  return alpine_minirootfs(native_target().alpine_arch == "aarch64" ? "x86_64" : "aarch64");
}

}  // namespace

TEST(LoaderTruth, DebianRootAgreesWithGlibcLdd) {
  if (std::string why = chroot_problem(); !why.empty()) GTEST_SKIP() << why;
  if (std::string why = toolchain_problem("gcc"); !why.empty()) GTEST_SKIP() << why;
  std::string skip, failure;
  std::string root = debian_root(&skip, &failure);
  if (!skip.empty()) GTEST_SKIP() << skip;
  ASSERT_TRUE(failure.empty()) << failure;
  std::vector<std::string> rtldlist = ldd_rtldlist(root);
  ASSERT_FALSE(rtldlist.empty()) << root << "/usr/bin/ldd names no RTLDLIST";
  TestPrograms programs(root, "gcc", foreign_minirootfs());
  if (HasFailure()) return;
  check_root("the Debian root", root, {"LD_TRACE_LOADED_OBJECTS=1 \"$loader\" \"$file\"", rtldlist, ""});
}

TEST(LoaderTruth, AlpineRootAgreesWithMuslList) {
  if (std::string why = chroot_problem(); !why.empty()) GTEST_SKIP() << why;
  if (std::string why = toolchain_problem("musl-gcc"); !why.empty()) GTEST_SKIP() << why;
  const NativeTarget& native = native_target();
  std::string tarball = alpine_minirootfs(native.alpine_arch);
  if (tarball.empty()) GTEST_SKIP() << "no Alpine minirootfs for " << native.alpine_arch << " in ../shared/rootfs/";
  TempDir scratch;
  std::string root = scratch / "root", log;
  fs::create_directory(root);
  ASSERT_EQ(run("tar -xzf '" + tarball + "' -C '" + root + "' 2>&1", &log), 0) << log;
  TestPrograms programs(root, "musl-gcc", foreign_minirootfs());
  if (HasFailure()) return;
  const std::string musl = "/lib/ld-musl-" + native.musl_arch + ".so.1";
  check_root("the Alpine root", root, {"\"$loader\" --list \"$file\"", {}, musl});
}
