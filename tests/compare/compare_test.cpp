// `compare` on two images built here: the real Alpine minirootfs with a glibc
// program copied in, and a glibc image made from this machine's own libc,
// loader and a compiled program, both audited through the whole pipeline. Both
// are of this machine's architecture, whatever it is.
#include <gtest/gtest.h>

#include <gnu/libc-version.h>

#include <sstream>

#include "app/audit.h"
#include "compare/compare.h"
#include "compare/compare_rows.h"
#include "native_target.h"
#include "rules/wheel_tags.h"
#include "test_support.h"
#include "util/strings.h"
#include "writer/image_writer.h"

namespace imgaudit {
namespace {

using test::TempDir;

std::string compiled_hello(const TempDir& tmp) {
  EXPECT_TRUE(test::compile_c("gcc", test::kHelloC, tmp / "hello"));
  return test::read_file(tmp / "hello");
}

LayerBlob layer(std::vector<TarEntrySpec> entries, const std::string& created_by) {
  return {make_layer_blob(entries, Compression::Gzip), Compression::Gzip, created_by};
}

// Alpine 3.20.3 with a program built against glibc: its interpreter is missing.
ImageSpec alpine_image(const TempDir& tmp) {
  ImageSpec spec;
  spec.platform = test::native_target().platform();
  spec.layers.push_back({test::read_file(test::alpine_minirootfs(test::native_target().alpine_arch)), Compression::Gzip,
                         "/bin/sh -c #(nop) ADD file:alpine-minirootfs in / "});
  spec.layers.push_back(layer({TarEntrySpec::file("usr/local/bin/hello", compiled_hello(tmp), 0755)},
                              "COPY hello /usr/local/bin/ # buildkit"));
  spec.user = "65532";  // numeric: needs no /etc/passwd entry (a name would be user-unknown)
  spec.tag = "alpine";
  return spec;
}

// A glibc image from this machine's libc and loader, with zone files, a
// Python interpreter and two wheels, one of them built for musl.
ImageSpec glibc_image(const TempDir& tmp) {
  const std::string hello = compiled_hello(tmp);
  const std::string site = "usr/lib/python3.12/site-packages/";
  const test::NativeTarget& native = test::native_target();
  ImageSpec spec;
  spec.platform = native.platform();
  spec.layers.push_back(layer(
      {TarEntrySpec::file("etc/os-release", "ID=debian\nVERSION_ID=\"12\"\n"),
       TarEntrySpec::file(native.glibc_libc_path, test::read_file(native.glibc_libc_file), 0755),
       TarEntrySpec::file(native.glibc_loader_path, test::read_file(native.glibc_loader_file), 0755),
       TarEntrySpec::symlink(test::NativeTarget::relative(native.glibc_interpreter), "/" + native.glibc_loader_path),
       TarEntrySpec::file("usr/share/zoneinfo/UTC", "TZif2"),
       TarEntrySpec::file("usr/share/zoneinfo/Europe/Paris", "TZif2"),
       TarEntrySpec::file("usr/share/zoneinfo/Asia/Ho_Chi_Minh", "TZif2")},
      "/bin/sh -c #(nop) ADD file:glibc-base in / "));
  spec.layers.push_back(layer(
      {TarEntrySpec::file("usr/local/bin/hello", hello, 0755), TarEntrySpec::file("usr/bin/python3.12", hello, 0755),
       TarEntrySpec::file(site + "fastjson-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: fastjson\nVersion: 1.0\n"),
       TarEntrySpec::file(site + "fastjson-1.0.dist-info/WHEEL",
                          "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp312-cp312-musllinux_1_1_" +
                              wheel_arch_for_platform(native.oci_arch, "") + "\n"),
       TarEntrySpec::file(site + "six-1.16.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: six\nVersion: 1.16.0\n"),
       TarEntrySpec::file(site + "six-1.16.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")},
      "RUN /bin/sh -c pip install fastjson six # buildkit"));
  spec.tag = "glibc";
  return spec;  // no USER: runs as root
}

uint64_t compressed(const ImageSpec& spec) {
  uint64_t n = 0;
  for (auto& l : spec.layers) n += l.bytes.size();
  return n;
}

uint64_t uncompressed(const ImageSpec& spec) {
  uint64_t n = 0;
  for (auto& l : spec.layers) n += uncompressed_tar(l.bytes).size();
  return n;
}

std::unique_ptr<Audit> audit(const ImageSpec& spec, const std::string& dir) {
  write_oci_layout(spec, dir);
  AuditOptions o;
  o.image = "oci:" + dir + ":" + spec.tag;
  o.jobs = 1;
  return std::make_unique<Audit>(o);
}

// The cells of a text row: the label, then the A and B columns (split on runs of two spaces).
std::vector<std::string> row(const std::string& text, const std::string& label) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || line.compare(start, label.size() + 2, label + "  ") != 0) continue;
    std::vector<std::string> cells;
    size_t p = start;
    while (p < line.size()) {
      size_t end = line.find("  ", p);
      cells.push_back(line.substr(p, end == std::string::npos ? std::string::npos : end - p));
      if (end == std::string::npos) break;
      p = line.find_first_not_of(' ', end);
    }
    return cells;
  }
  return {};
}

using Row = std::vector<std::string>;

class Compare : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string arch = test::native_target().alpine_arch;
    if (test::alpine_minirootfs(arch).empty())
      GTEST_SKIP() << "../shared/rootfs/alpine-minirootfs-3.20.3-" << arch << ".tar.gz is not beside the project: "
                      "the compare tests use it as image A";
    a_spec = alpine_image(tmp);
    b_spec = glibc_image(tmp);
    a = audit(a_spec, tmp / "a");
    b = audit(b_spec, tmp / "b");
  }
  TempDir tmp;
  ImageSpec a_spec, b_spec;
  std::unique_ptr<Audit> a, b;
};

TEST_F(Compare, TextRowsSetTheImagesSideBySide) {
  std::ostringstream out;
  write_compare_text(out, a->report(), b->report(), "alpine-app", "glibc-app", false);
  const std::string text = out.str();
  const std::string glibc = gnu_get_libc_version();

  EXPECT_EQ(text.substr(0, text.find("\n\n")), "A  alpine-app\nB  glibc-app");
  EXPECT_EQ(row(text, "distro"), (Row{"distro", "alpine 3.20.3", "debian 12"}));
  EXPECT_EQ(row(text, "libc"), (Row{"libc", "musl 1.2.5", "glibc " + glibc}));
  EXPECT_EQ(row(text, "layers"), (Row{"layers", "2", "2"}));
  // B: libc, loader, the program and the Python interpreter (a copy of it).
  EXPECT_EQ(row(text, "ELF files"),
            (Row{"ELF files", std::to_string(a->report().facts.binaries.size()), "4"}));
  EXPECT_GT(a->report().facts.binaries.size(), 1u);
  EXPECT_EQ(row(text, "tzdata"), (Row{"tzdata", "none", "3 zones"}));
  EXPECT_EQ(row(text, "CA bundle"), (Row{"CA bundle", "/etc/ssl/certs/ca-certificates.crt", "none"}));
  EXPECT_EQ(row(text, "Python"), (Row{"Python", "none", "3.12 (/usr/bin/python3.12)"}));
  EXPECT_EQ(row(text, "wheels"), (Row{"wheels", "none", "2 dists, 1 with wheel findings"}));
  // A: a glibc program on musl, its loader missing; B: a musllinux wheel on glibc, and no USER.
  EXPECT_EQ(row(text, "errors"), (Row{"errors", "2", "1"}));
  // The Alpine base's busybox asks for local time and resolves names, but is the base's own tool: neither
  // tzdata-missing nor musl-resolver. no-command in both: neither sets one.
  EXPECT_EQ(row(text, "warnings"), (Row{"warnings", "0", "1"}));
  EXPECT_EQ(row(text, "info"), (Row{"info", "1", "1"}));
  EXPECT_EQ(row(text, "interpreter-missing"), (Row{"interpreter-missing", "1", "0"}));
  EXPECT_EQ(row(text, "libc-mismatch"), (Row{"libc-mismatch", "1", "0"}));
  EXPECT_EQ(row(text, "tzdata-missing"), Row{});
  EXPECT_EQ(row(text, "wheel-libc-mismatch"), (Row{"wheel-libc-mismatch", "0", "1"}));
  EXPECT_EQ(row(text, "runs-as-root"), (Row{"runs-as-root", "0", "1"}));
  EXPECT_EQ(row(text, "compressed size"),
            (Row{"compressed size", human_size(compressed(a_spec)), human_size(compressed(b_spec))}));

  // The header row ("", "A", "B") sits right above the first row, its names over the columns.
  const size_t distro_at = text.find("\ndistro ") + 1;
  const size_t header_at = text.rfind('\n', distro_at - 2) + 1;
  const std::string header = text.substr(header_at, distro_at - 1 - header_at);
  const std::string distro = text.substr(distro_at, text.find('\n', distro_at) - distro_at);
  EXPECT_EQ(header.find_first_not_of(' '), distro.find("alpine")) << header << "\n" << distro;
  EXPECT_EQ(header.find('A'), distro.find("alpine"));
  EXPECT_EQ(header.find('B'), distro.find("debian"));
  EXPECT_EQ(header.size(), header.find('B') + 1);
}

TEST_F(Compare, JsonSidesHaveTheSameKeys) {
  nlohmann::json j = compare_json(a->report(), b->report(), "alpine-app", "glibc-app");
  const nlohmann::json& ja = j.at("a");
  const nlohmann::json& jb = j.at("b");
  std::vector<std::string> keys_a, keys_b;
  for (auto& [k, v] : ja.items()) keys_a.push_back(k);
  for (auto& [k, v] : jb.items()) keys_b.push_back(k);
  EXPECT_EQ(keys_a, keys_b);
  std::vector<std::string> ids_a, ids_b;
  for (auto& [k, v] : ja.at("findings_by_id").items()) ids_a.push_back(k);
  for (auto& [k, v] : jb.at("findings_by_id").items()) ids_b.push_back(k);
  EXPECT_EQ(ids_a, ids_b);

  EXPECT_EQ(ja.at("image"), "alpine-app");
  EXPECT_EQ(ja.at("distro"), (nlohmann::json{{"id", "alpine"}, {"version", "3.20.3"}}));
  EXPECT_EQ(jb.at("distro"), (nlohmann::json{{"id", "debian"}, {"version", "12"}}));
  EXPECT_EQ(ja.at("libc"), (nlohmann::json{{"family", "musl"}, {"version", "1.2.5"}}));
  EXPECT_EQ(jb.at("libc"), (nlohmann::json{{"family", "glibc"}, {"version", gnu_get_libc_version()}}));
  EXPECT_EQ(ja.at("compressed_size"), compressed(a_spec));
  EXPECT_EQ(jb.at("compressed_size"), compressed(b_spec));
  EXPECT_EQ(ja.at("uncompressed_size"), uncompressed(a_spec));
  EXPECT_EQ(jb.at("uncompressed_size"), uncompressed(b_spec));
  EXPECT_EQ(ja.at("layers"), 2);
  EXPECT_EQ(jb.at("elf_files"), 4);
  EXPECT_EQ(ja.at("tzdata_zones"), 0);
  EXPECT_EQ(jb.at("tzdata_zones"), 3);
  EXPECT_EQ(ja.at("ca_bundle"), "/etc/ssl/certs/ca-certificates.crt");
  EXPECT_TRUE(jb.at("ca_bundle").is_null());
  EXPECT_EQ(ja.at("python"), nlohmann::json::array());
  EXPECT_EQ(jb.at("python"), nlohmann::json::array({{{"path", "/usr/bin/python3.12"}, {"version", "3.12"}}}));
  EXPECT_EQ(jb.at("wheels"), (nlohmann::json{{"dists", 2}, {"dists_with_findings", 1}}));
  EXPECT_EQ(ja.at("findings_by_id").at("interpreter-missing"), 1);
  EXPECT_EQ(jb.at("findings_by_id").at("interpreter-missing"), 0);
  EXPECT_EQ(jb.at("findings_by_id").at("wheel-libc-mismatch"), 1);
  int errors_b = 0;
  for (auto& f : b->report().findings) errors_b += f.severity == Severity::Error;
  EXPECT_EQ(jb.at("findings").at("error"), errors_b);
  EXPECT_EQ(j.at("verdict"), compare_verdict(a->report(), b->report()));
}

TEST_F(Compare, VerdictNamesTheDifferencesThatMatter) {
  const std::string v = compare_verdict(a->report(), b->report());
  EXPECT_TRUE(starts_with(v, "A has 2 errors B does not: interpreter-missing (1), libc-mismatch (1). ")) << v;
  EXPECT_NE(v.find("B has 1 error A does not: wheel-libc-mismatch (1)."), std::string::npos) << v;
  EXPECT_NE(v.find("B has 1 warning A does not: runs-as-root (1)."), std::string::npos) << v;
  EXPECT_EQ(v.find("A has 1 warning B does not"), std::string::npos) << "the base's busybox needs no zones: " << v;
  EXPECT_NE(v.find("A runs on musl 1.2.5, B on glibc " + std::string(gnu_get_libc_version()) + "."), std::string::npos) << v;
  EXPECT_NE(v.find("B has no CA bundle."), std::string::npos) << v;
  EXPECT_NE(v.find("A has no tzdata."), std::string::npos) << v;
  EXPECT_NE(v.find("A has no Python, B Python 3.12."), std::string::npos) << v;
  const uint64_t ca = compressed(a_spec), cb = compressed(b_spec);
  const std::string smaller = ca < cb ? "A is " + human_size(cb - ca) : "B is " + human_size(ca - cb);
  EXPECT_NE(v.find(smaller + " smaller compressed"), std::string::npos) << v;

  // An image against itself: nothing differs.
  EXPECT_EQ(compare_verdict(b->report(), b->report()),
            "A and B do not differ in findings, libc, CA bundle, tzdata, Python or compressed size.");
}

}  // namespace
}  // namespace imgaudit
