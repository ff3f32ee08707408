#pragma once
// Builds test images with the project's writer and runs the imgaudit binary on them.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "native_target.h"
#include "test_support.h"
#include "writer/image_writer.h"

namespace imgaudit::test {

struct CliResult {
  int status = -1;
  std::string out;  // stdout
  std::string err;  // stderr
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

// Runs imgaudit with `args` (already shell-quoted as needed).
CliResult run_imgaudit(const std::string& args);
// The same, from the folder `dir`.
CliResult run_imgaudit_in(const std::string& dir, const std::string& args);

struct MeasuredRun {
  CliResult result;
  double peak_rss_mib = 0;
};

// imgaudit run with `args` in a child forked for it alone, with the child's peak resident memory. Not
// through popen, as run_imgaudit: a child spawned so starts from this process's own peak, and a test that
// built a large image has one.
MeasuredRun run_imgaudit_measured(const std::vector<std::string>& args);

// A layer holding the given entries.
LayerBlob layer(std::vector<TarEntrySpec> entries, const std::string& created_by,
                Compression c = Compression::Gzip);
TarEntrySpec file(const std::string& path, const std::string& content, uint32_t mode = 0755);
TarEntrySpec symlink_entry(const std::string& path, const std::string& target);
TarEntrySpec dir(const std::string& path);
// `size` bytes that gzip does not shrink, as a compiler's nearly are: a layer's compressed size grows with them.
std::string incompressible(size_t size);

// The real Alpine minirootfs as a base layer, of this machine's architecture unless told ("x86_64",
// "aarch64"); empty bytes when absent.
LayerBlob alpine_base();
LayerBlob alpine_base(const std::string& arch);
// The other architecture the minirootfs comes in ("aarch64" on x86_64, "x86_64" on aarch64), and the platform
// of an image of it ("linux/arm64", "linux/amd64"): the second platform of a multi-platform test image.
std::string other_alpine_arch();
std::string other_platform();

// An image of this machine's platform (native_target()), for the programs the tests compile here: the
// writer's own default, linux/amd64, would make them foreign on any other machine.
ImageSpec native_image();

// A glibc base of this machine's toolchain (native_target): its loader, the interpreter link to it and
// libc.so.6, where Debian keeps them.
std::vector<TarEntrySpec> native_glibc_base();

// Compiles `source` and returns the binary's bytes.
std::string compiled(const TempDir& tmp, const std::string& compiler, const std::string& source,
                     const std::string& flags = "");

// The image written as an OCI layout in tmp/NAME; returns "oci:<folder>", the reference to audit it by.
std::string write_oci(const TempDir& tmp, const ImageSpec& spec, const std::string& name = "img");

// The JSON report of the image written as tmp/NAME, audited with `flags`; expects exit status `status`.
nlohmann::json audit_json(const TempDir& tmp, const ImageSpec& spec, const std::string& name = "img",
                          const std::string& flags = "--fail-on never", int status = 0);

// A native-platform image: the native Alpine minirootfs, then one layer holding `files`.
ImageSpec alpine_and(std::vector<TarEntrySpec> files, const std::string& created_by = "COPY --from=build /out/ /app/");

// A finding of a JSON report is what its rule's templates render from its values: every placeholder of
// the message has a value, the message is the template filled with them, and nothing is left unfilled.
// findings(), errors() and start_findings() check each finding they return with it.
void expect_rendered_from_values(const nlohmann::json& finding);

// All findings with this id in a JSON report.
std::vector<nlohmann::json> findings(const nlohmann::json& report, const std::string& id);
std::vector<nlohmann::json> errors(const nlohmann::json& report);  // findings of severity error
// The findings of the start checks (entrypoint-*, user-unknown, no-command, healthcheck-cannot-start).
std::vector<nlohmann::json> start_findings(const nlohmann::json& report);
const nlohmann::json* binary(const nlohmann::json& report, const std::string& path);

// A two-stage Dockerfile (a glibc program built on Debian copied into Alpine, TZ set, no USER) and the image
// it makes, with history as BuildKit writes it, for this machine's platform: what --dockerfile reviews.
extern const char* const kReviewDockerfile;
ImageSpec review_image(const TempDir& tmp);

}  // namespace imgaudit::test

// Skips the test when the Alpine minirootfs of `arch` is absent; SKIP_WITHOUT_ALPINE() asks for this machine's.
#define SKIP_WITHOUT_ALPINE_OF(arch)                                                                     \
  if (const std::string alpine_arch_ = (arch); ::imgaudit::test::alpine_minirootfs(alpine_arch_).empty()) \
  GTEST_SKIP() << "../shared/rootfs/alpine-minirootfs-3.20.3-" << alpine_arch_                           \
               << ".tar.gz is not beside the project: the Alpine base-layer tests need it"
#define SKIP_WITHOUT_ALPINE() SKIP_WITHOUT_ALPINE_OF(::imgaudit::test::native_target().alpine_arch)
