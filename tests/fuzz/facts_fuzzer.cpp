// The text inspectors over a merged view: os-release, apk and dpkg databases, ld.so.conf and its
// includes, musl's path file, a wheel's WHEEL and METADATA, passwd, glibc's ld.so.cache and the
// glibc loader's bytes; then the rules that read what they found. Each section (NUL-separated)
// is the content of one file at the path below. Three ELF files of fixed facts give the loader
// emulation and the Python detector something to resolve. The last sections feed the start checks:
// /etc/group, the config's User, a `sh -c` script (the Cmd and a CMD-SHELL healthcheck) and the first
// line of the script the Entrypoint names.
#include <nlohmann/json.hpp>

#include "facts/image_facts.h"
#include "fuzz_input.h"
#include "layer/fs_view.h"
#include "rules/evaluate.h"
#include "util/error.h"

namespace {

using namespace imgaudit;

const char* const kTextPaths[] = {
    "etc/os-release",
    "lib/apk/db/installed",
    "var/lib/dpkg/status",
    "var/lib/dpkg/status.d/extra",
    "etc/ld.so.conf",
    "etc/ld.so.conf.d/libc.conf",
    "etc/ld-musl-x86_64.path",
    "usr/lib/python3.11/site-packages/pkg-1.0.dist-info/WHEEL",
    "usr/lib/python3.11/site-packages/pkg-1.0.dist-info/METADATA",
    "etc/passwd",
};
constexpr size_t kTexts = sizeof kTextPaths / sizeof kTextPaths[0];
const char* const kLdSoCache = "etc/ld.so.cache";
const char* const kGlibcLoader = "lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";

ElfFacts dynamic_elf(std::vector<std::string> needed, std::string interpreter) {
  ElfFacts f;
  f.machine = "x86_64";
  f.e_machine = 62;
  f.type = ElfType::Dyn;
  f.linkage = Linkage::Dynamic;
  f.is_program = !interpreter.empty();
  f.interpreter = std::move(interpreter);
  f.needed = std::move(needed);
  f.libc = LibcKind::Glibc;
  return f;
}

struct Fixture {
  std::shared_ptr<const ElfFacts> python = std::make_shared<const ElfFacts>(
      dynamic_elf({"libpython3.11.so.1.0", "libc.so.6"}, "/lib64/ld-linux-x86-64.so.2"));
  std::shared_ptr<const ElfFacts> app =
      std::make_shared<const ElfFacts>(dynamic_elf({"libssl.so.3", "libm.so.6", "libc.so.6"}, "/lib/ld-musl-x86_64.so.1"));
  std::shared_ptr<const ElfFacts> loader = [] {
    ElfFacts f = dynamic_elf({}, "");
    f.soname = "ld-linux-x86-64.so.2";
    f.glibc_release = "2.36";
    return std::make_shared<const ElfFacts>(std::move(f));
  }();
};

void put(FsView& view, const std::string& path, EntryType type, const std::string* text, const std::string* blob,
         std::shared_ptr<const ElfFacts> elf, const std::string& link = "") {
  Node n;
  n.type = type;
  n.mode = type == EntryType::Dir ? 0755 : 0644;
  n.size = text ? text->size() : blob ? blob->size() : 1000;
  n.text = text;
  n.blob = blob;
  n.elf = std::move(elf);
  n.link = link;
  view.put(path, n);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Fixture fixture;
  std::vector<std::string> s = fuzz::sections(data, size, kTexts + 6);
  FsView view;
  for (size_t i = 0; i < kTexts; ++i)
    if (!s[i].empty()) put(view, kTextPaths[i], EntryType::File, &s[i], nullptr, nullptr);
  if (!s[kTexts].empty()) put(view, kLdSoCache, EntryType::File, nullptr, &s[kTexts], nullptr);
  put(view, kGlibcLoader, EntryType::File, nullptr, s[kTexts + 1].empty() ? nullptr : &s[kTexts + 1], fixture.loader);
  put(view, "lib64/ld-linux-x86-64.so.2", EntryType::Symlink, nullptr, nullptr, nullptr,
      "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
  put(view, "usr/bin/python3.11", EntryType::File, nullptr, nullptr, fixture.python);
  put(view, "usr/local/bin/app", EntryType::File, nullptr, nullptr, fixture.app);
  put(view, "bin/sh", EntryType::Symlink, nullptr, nullptr, nullptr, "/usr/local/bin/app");
  if (!s[kTexts + 2].empty()) put(view, "etc/group", EntryType::File, &s[kTexts + 2], nullptr, nullptr);
  const std::string head = script_head(s[kTexts + 5]);
  Node script;
  script.mode = 0755;
  script.script_head = &head;
  view.put("usr/local/bin/run", script);

  ImageInfo image;
  image.platform = {"linux", "amd64", ""};
  image.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "TZ=Europe/Paris"};
  image.user = s[kTexts + 3];
  image.entrypoint = {"run"};
  image.cmd = {"/bin/sh", "-c", s[kTexts + 4]};
  image.healthcheck = {"CMD-SHELL", s[kTexts + 4]};
  try {
    ImageFacts facts = collect_facts(image, view);
    nlohmann::json j = facts;
    evaluate_rules(facts);
  } catch (const InputError&) {
  }
  return 0;
}
