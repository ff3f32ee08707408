#include "view_builder.h"

#include <gtest/gtest.h>

#include "facts/loader.h"
#include "native_target.h"
#include "test_support.h"
#include "util/sha256.h"

namespace imgaudit::test {

namespace {

class StringStream : public ByteStream {
 public:
  explicit StringStream(const std::string& bytes) : bytes_(bytes) {}
  size_t read(void* buf, size_t n) override {
    n = std::min(n, bytes_.size() - pos_);
    std::copy_n(bytes_.data() + pos_, n, static_cast<char*>(buf));
    pos_ += n;
    return n;
  }

 private:
  const std::string& bytes_;
  size_t pos_ = 0;
};

}  // namespace

std::shared_ptr<const ElfFacts> ViewBuilder::inspect(const std::string& host_path) {
  ElfResult r = inspect_elf(read_file(host_path));
  EXPECT_TRUE(r.facts) << host_path << ": " << (r.error ? r.error->message : "no facts");
  return keep(r.facts ? *r.facts : ElfFacts());
}

std::shared_ptr<const ElfFacts> ViewBuilder::keep(ElfFacts facts) {
  return std::make_shared<const ElfFacts>(std::move(facts));
}

void ViewBuilder::elf(const std::string& path, std::shared_ptr<const ElfFacts> facts, int layer) {
  Node n;
  n.type = EntryType::File;
  n.mode = 0755;
  n.size = 1000;
  n.layer = layer;
  n.elf = std::move(facts);
  view.put(path, n);
}

void ViewBuilder::text(const std::string& path, const std::string& content, int layer) {
  texts_.push_back(content);
  Node n;
  n.type = EntryType::File;
  n.mode = 0644;
  n.size = content.size();
  n.layer = layer;
  n.text = &texts_.back();
  view.put(path, n);
}

void ViewBuilder::symlink(const std::string& path, const std::string& target, int layer) {
  Node n;
  n.type = EntryType::Symlink;
  n.mode = 0777;
  n.link = target;
  n.layer = layer;
  view.put(path, n);
}

void ViewBuilder::dir(const std::string& path, int layer) {
  Node n;
  n.type = EntryType::Dir;
  n.mode = 0755;
  n.layer = layer;
  view.put(path, n);
}

void add_native_glibc(ViewBuilder& b) {
  const NativeTarget& native = native_target();
  b.elf_file(native.glibc_loader_path, native.glibc_loader_file);
  b.symlink(NativeTarget::relative(native.glibc_interpreter), "/" + native.glibc_loader_path);
  b.elf_file(native.glibc_libc_path, native.glibc_libc_file);
}

std::optional<LayerFacts> read_minirootfs(const std::string& arch, std::string* why) {
  std::string tarball = alpine_minirootfs(arch);
  if (tarball.empty()) {
    *why = "the Alpine 3.20.3 minirootfs for " + arch + " is not in ../shared/rootfs beside the project";
    return std::nullopt;
  }
  std::string bytes = read_file(tarball);
  Descriptor d{"application/vnd.oci.image.layer.v1.tar+gzip", Sha256::of(bytes), static_cast<int64_t>(bytes.size())};
  StringStream stream(bytes);
  return read_layer(stream, d, "");
}

BinaryFacts run_loader(const ViewBuilder& b, const std::string& path, const std::vector<std::string>& env,
                       LibcKind image_libc, LoaderFacts* facts) {
  ImageInfo info;
  info.env = env;
  LoaderEmulator loader(b.view, info, image_libc);
  BinaryFacts bf;
  bf.path = path;
  const Node* n = b.view.find(path);
  EXPECT_TRUE(n && n->elf) << path;
  bf.elf = n ? n->elf : nullptr;
  if (bf.elf) loader.resolve(bf);
  if (facts) *facts = loader.facts();
  return bf;
}

}  // namespace imgaudit::test
