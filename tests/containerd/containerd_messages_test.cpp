// containerd's messages as imgaudit writes and reads them: requests with the field numbers of containerd's
// .proto files (the bytes its Go client sends), answers as a containerd 1.6 sent them, and what a broken or
// hostile answer gives.
#include <gtest/gtest.h>

#include "containerd/containerd_client.h"
#include "containerd/containerd_messages.h"
#include "containerd/protobuf_wire.h"
#include "util/error.h"

namespace imgaudit {
namespace {

const std::string kDigest = "sha256:4ed6f86f88600388709994af924dddfced87810949caaa3c8b56141fcf9e80d4";

std::string message(const std::function<void(ProtoWriter&)>& fill) {
  ProtoWriter w;
  fill(w);
  return w.bytes();
}

std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ContainerdMessages, RequestsCarryContainerdsFieldNumbers) {
  EXPECT_EQ(encode_get_image("example.com/app:1"), std::string("\x0a\x11") + "example.com/app:1");
  EXPECT_EQ(encode_content_info(kDigest), std::string("\x0a\x47") + kDigest);
  // offset 5 and size 8 as fields 2 and 3; zero values are left out, as proto3 leaves them out.
  EXPECT_EQ(encode_read_content(kDigest, 5, 8), std::string("\x0a\x47") + kDigest + "\x10\x05\x18\x08");
  EXPECT_EQ(encode_read_content(kDigest, 0, 0), std::string("\x0a\x47") + kDigest);
}

// The Images.Get answer of containerd 1.6.20 for an imported index, its labels and timestamps included.
TEST(ContainerdMessages, ReadsAnImageRecord) {
  std::string target = message([](ProtoWriter& w) {
    w.add_bytes(1, "application/vnd.oci.image.index.v1+json");
    w.add_bytes(2, kDigest);
    w.add_varint(3, 491);
    w.add_bytes(5, message([](ProtoWriter& a) {
                  a.add_bytes(1, "org.opencontainers.image.ref.name");
                  a.add_bytes(2, "example.com/app:1");
                }));
  });
  std::string image = message([&](ProtoWriter& w) {
    w.add_bytes(1, "example.com/app:1");
    w.add_bytes(3, target);
    w.add_bytes(7, message([](ProtoWriter& t) { t.add_varint(1, 1700000000); }));
  });
  ContainerdImage record = decode_get_image(message([&](ProtoWriter& w) { w.add_bytes(1, image); }));
  EXPECT_EQ(record.name, "example.com/app:1");
  EXPECT_EQ(record.target.media_type, "application/vnd.oci.image.index.v1+json");
  EXPECT_EQ(record.target.digest, kDigest);
  EXPECT_EQ(record.target.size, 491);
}

TEST(ContainerdMessages, ReadsAContentRecordAndAChunk) {
  std::string info = message([](ProtoWriter& w) {
    w.add_bytes(1, kDigest);
    w.add_varint(2, 14160);
  });
  EXPECT_EQ(decode_content_size(message([&](ProtoWriter& w) { w.add_bytes(1, info); })), 14160u);
  std::string chunk = message([](ProtoWriter& w) {
    w.add_varint(1, 5);
    w.add_bytes(2, "ifests");
  });
  EXPECT_EQ(decode_read_data(chunk), "ifests");
  EXPECT_EQ(decode_read_data(""), "");  // an empty chunk: no data field
}

TEST(ContainerdMessages, RefusesBrokenAnswers) {
  auto image_with_target = [](const std::string& target) {
    std::string image = message([&](ProtoWriter& w) { w.add_bytes(3, target); });
    return message([&](ProtoWriter& w) { w.add_bytes(1, image); });
  };
  auto target_digest = [](const std::string& digest) {
    return message([&](ProtoWriter& w) { w.add_bytes(2, digest); });
  };
  EXPECT_EQ(error_of([] { decode_get_image(""); }), "containerd's image record: no field 1");
  EXPECT_EQ(error_of([] { decode_get_image(message([](ProtoWriter& w) { w.add_varint(1, 3); })); }),
            "containerd's image record: field 1 is not length-delimited");
  EXPECT_EQ(error_of([&] { decode_get_image(message([](ProtoWriter& w) { w.add_bytes(1, ""); })); }),
            "containerd's image record has no target");
  // A digest is never trusted to be a path before it is checked.
  EXPECT_EQ(error_of([&] { decode_get_image(image_with_target(target_digest("sha256:../../etc/passwd"))); }),
            "containerd's image target: unsupported or malformed digest \"sha256:../../etc/passwd\" (expected "
            "sha256:<64 hex>)");
  std::string negative = message([](ProtoWriter& w) { w.add_varint(2, ~uint64_t(0)); });
  EXPECT_EQ(error_of([&] { decode_content_size(message([&](ProtoWriter& w) { w.add_bytes(1, negative); })); }),
            "containerd's content record: field 2 is not a size");
  EXPECT_EQ(error_of([] { decode_read_data(std::string("\x12\x09" "short", 7)); }),
            "containerd's content: malformed protobuf message: a field of 9 bytes where 5 are left");
}

TEST(ContainerdMessages, NamespacesAreContainerdsAndNoHeaderInjection) {
  for (const char* ok : {"default", "k8s.io", "moby", "a-b_c.d", "x1"}) EXPECT_TRUE(is_containerd_namespace(ok)) << ok;
  for (const char* bad : {"", "k8s io", "a..b", ".a", "a-", "ns\r\nX-Evil: 1", "ns:1"})
    EXPECT_FALSE(is_containerd_namespace(bad)) << bad;
  EXPECT_FALSE(is_containerd_namespace(std::string(77, 'a')));
}

}  // namespace
}  // namespace imgaudit
