#include "image_fixture.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rules/catalog.h"

namespace imgaudit::test {

namespace {
CliResult run_imgaudit_cd(const std::string& dir, const std::string& args) {
  TempDir tmp;
  CliResult r;
  std::string cd = dir.empty() ? "" : "cd '" + dir + "' && ";
  r.status = run(cd + imgaudit_binary() + " " + args + " 2>'" + tmp / "stderr" + "'", &r.out);
  r.err = read_file(tmp / "stderr");
  return r;
}
}  // namespace

CliResult run_imgaudit(const std::string& args) { return run_imgaudit_cd("", args); }

CliResult run_imgaudit_in(const std::string& dir, const std::string& args) {
  return run_imgaudit_cd(dir, args);
}

MeasuredRun run_imgaudit_measured(const std::vector<std::string>& args) {
  TempDir tmp;
  const std::string out = tmp / "stdout", err = tmp / "stderr", binary = imgaudit_binary();
  std::vector<char*> argv = {const_cast<char*>(binary.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  MeasuredRun m;
  int status = 0;
  rusage u{};
  EXPECT_EQ(wait4(pid, &status, 0, &u), pid);
  m.result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.result.out = read_file(out);
  m.result.err = read_file(err);
  m.peak_rss_mib = double(u.ru_maxrss) / 1024.0;
  return m;
}


LayerBlob layer(std::vector<TarEntrySpec> entries, const std::string& created_by, Compression c) {
  LayerBlob l;
  l.bytes = make_layer_blob(entries, c);
  l.compression = c;
  l.created_by = created_by;
  return l;
}

TarEntrySpec file(const std::string& path, const std::string& content, uint32_t mode) {
  TarEntrySpec e;
  e.kind = TarEntrySpec::File;
  e.path = path;
  e.content = content;
  e.mode = mode;
  return e;
}

TarEntrySpec symlink_entry(const std::string& path, const std::string& target) {
  TarEntrySpec e;
  e.kind = TarEntrySpec::Symlink;
  e.path = path;
  e.link = target;
  e.mode = 0777;
  return e;
}

TarEntrySpec dir(const std::string& path) {
  TarEntrySpec e;
  e.kind = TarEntrySpec::Dir;
  e.path = path;
  e.mode = 0755;
  return e;
}

std::string incompressible(size_t size) {
  std::string bytes(size, '\0');
  uint64_t state = 0x9e3779b97f4a7c15u;  // a linear congruential generator: the same bytes each run
  for (char& c : bytes) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    c = static_cast<char>(state >> 56);
  }
  return bytes;
}

LayerBlob alpine_base() { return alpine_base(native_target().alpine_arch); }

std::string write_oci(const TempDir& tmp, const ImageSpec& spec, const std::string& name) {
  std::string dir = tmp / name;
  write_oci_layout(spec, dir);
  return "oci:" + dir;
}

nlohmann::json audit_json(const TempDir& tmp, const ImageSpec& spec, const std::string& name, const std::string& flags,
                          int status) {
  auto r = run_imgaudit("--format json " + flags + " " + write_oci(tmp, spec, name));
  EXPECT_EQ(r.status, status) << r.err;
  return r.json();
}

ImageSpec alpine_and(std::vector<TarEntrySpec> files, const std::string& created_by) {
  ImageSpec spec = native_image();
  spec.layers.push_back(alpine_base());
  spec.layers.push_back(layer(std::move(files), created_by));
  return spec;
}

ImageSpec native_image() {
  ImageSpec spec;
  spec.platform = native_target().platform();
  return spec;
}

std::string other_alpine_arch() { return native_target().alpine_arch == "aarch64" ? "x86_64" : "aarch64"; }
std::string other_platform() { return native_target().oci_arch == "arm64" ? "linux/amd64" : "linux/arm64"; }

LayerBlob alpine_base(const std::string& arch) {
  LayerBlob l;
  auto path = alpine_minirootfs(arch);
  if (!path.empty()) l.bytes = read_file(path);
  l.compression = Compression::Gzip;
  l.created_by = "/bin/sh -c #(nop) ADD file:alpine-minirootfs-3.20.3-" + arch + ".tar.gz in / ";
  return l;
}

std::vector<TarEntrySpec> native_glibc_base() {
  const NativeTarget& native = native_target();
  return {file(native.glibc_loader_path, read_file(native.glibc_loader_file)),
          symlink_entry(NativeTarget::relative(native.glibc_interpreter), "/" + native.glibc_loader_path),
          file(native.glibc_libc_path, read_file(native.glibc_libc_file))};
}

std::string compiled(const TempDir& tmp, const std::string& compiler, const std::string& source,
                     const std::string& flags) {
  static int n = 0;
  std::string out = tmp / ("prog" + std::to_string(++n));
  if (!compile_c(compiler, source, out, flags)) return "";
  return read_file(out);
}

void expect_rendered_from_values(const nlohmann::json& f) {
  const Rule* rule = Catalog::builtin().find(f.at("id").get<std::string>());
  ASSERT_NE(rule, nullptr) << f.dump();
  FindingValues values;
  for (auto& [name, value] : f.at("values").items()) {
    auto read = finding_value_from_json(value);
    ASSERT_TRUE(read) << name << " in " << f.dump();
    values.emplace(name, *read);
  }
  const auto shown = shown_values(*rule, values);
  for (auto& name : placeholder_names(rule->message))
    EXPECT_TRUE(shown.count(name)) << rule->id << ": no value for {" << name << "} in " << f.dump();
  EXPECT_EQ(render(*rule, rule->message, values), f.at("message").get<std::string>()) << f.dump();
  bool advice_rendered = false;  // which template the advice came from is not in the JSON: one of them
  for (auto& [key, tmpl] : rule->advice_templates)
    advice_rendered = advice_rendered || render(*rule, tmpl, values) == f.at("advice").get<std::string>();
  EXPECT_TRUE(advice_rendered) << rule->id << ": the advice is no template filled with the values: " << f.dump();
  const std::string text = f.at("message").get<std::string>() + f.at("advice").get<std::string>();
  for (auto& name : placeholder_names(text))
    ADD_FAILURE() << rule->id << ": {" << name << "} left unfilled in " << f.dump();
}

std::vector<nlohmann::json> findings(const nlohmann::json& report, const std::string& id) {
  std::vector<nlohmann::json> out;
  for (auto& f : report.at("findings"))
    if (f.at("id") == id) out.push_back(f);
  for (auto& f : out) expect_rendered_from_values(f);
  return out;
}

std::vector<nlohmann::json> start_findings(const nlohmann::json& report) {
  std::vector<nlohmann::json> out;
  for (auto& f : report.at("findings")) {
    const std::string id = f.at("id");
    if (id.rfind("entrypoint-", 0) == 0 || id == "user-unknown" || id == "no-command" || id == "healthcheck-cannot-start")
      out.push_back(f);
  }
  for (auto& f : out) expect_rendered_from_values(f);
  return out;
}

std::vector<nlohmann::json> errors(const nlohmann::json& report) {
  std::vector<nlohmann::json> out;
  for (auto& f : report.at("findings"))
    if (f.at("severity") == "error") out.push_back(f);
  for (auto& f : out) expect_rendered_from_values(f);
  return out;
}

const nlohmann::json* binary(const nlohmann::json& report, const std::string& path) {
  for (auto& b : report.at("binaries"))
    if (b.at("path") == path) return &b;
  return nullptr;
}

const char* const kReviewDockerfile = R"(# syntax=docker/dockerfile:1
FROM debian:12 AS build
RUN apt-get update && apt-get install -y gcc
COPY hello.c /src/
RUN gcc -o /out/hello /src/hello.c

FROM alpine:3.20
RUN apk add --no-cache \
      ca-certificates
COPY --from=build /out/hello /usr/local/bin/hello
ENV TZ=Asia/Ho_Chi_Minh
CMD ["hello"]
)";

ImageSpec review_image(const TempDir& tmp) {
  ImageSpec spec = native_image();
  spec.layers.push_back(alpine_base());
  spec.layers.push_back(layer({file("etc/apk/world", "alpine-baselayout\nca-certificates\n", 0644)},
                              "RUN /bin/sh -c apk add --no-cache       ca-certificates # buildkit"));
  spec.layers.push_back(layer({file("usr/local/bin/hello", compiled(tmp, "gcc", kHelloC))},
                              "COPY /out/hello /usr/local/bin/hello # buildkit"));
  spec.empty_history = {{1, "CMD [\"/bin/sh\"]"}};
  spec.env = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "TZ=Asia/Ho_Chi_Minh"};
  return spec;
}

}  // namespace imgaudit::test
