#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "source/source.h"
#include "test_support.h"
#include "util/error.h"
#include "writer/image_writer.h"

namespace imgaudit::test {

inline std::string read_all(ByteStream& in) {
  std::string out;
  char buf[4096];
  while (size_t n = in.read(buf, sizeof buf)) out.append(buf, n);
  return out;
}

// Three small layers, one per compression, and a full config.
inline ImageSpec sample_spec() {
  ImageSpec spec;
  spec.layers.push_back({make_layer_blob({TarEntrySpec::dir("etc"), TarEntrySpec::file("etc/motd", "hello\n")},
                                         Compression::Gzip),
                         Compression::Gzip, "ADD base /"});
  spec.layers.push_back({make_layer_blob({TarEntrySpec::file("bin/tool", "#!/bin/sh\n", 0755)}, Compression::Zstd),
                         Compression::Zstd, "COPY tool /bin/"});
  spec.layers.push_back({make_layer_blob({TarEntrySpec::file("etc/.wh.motd", "")}, Compression::None),
                         Compression::None, "RUN rm /etc/motd"});
  spec.env = {"PATH=/bin", "TZ=UTC"};
  spec.user = "nobody";
  spec.entrypoint = {"/bin/tool"};
  spec.cmd = {"--help"};
  spec.empty_history = {{1, "ENV TZ=UTC"}};
  spec.tag = "v1";
  return spec;
}

// Runs `f`, expecting an InputError whose one-line message contains each of `parts`.
inline void expect_input_error(const std::function<void()>& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no InputError thrown";
  } catch (const InputError& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    for (const std::string& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "\"" << p << "\" not in: " << msg;
  }
}

}  // namespace imgaudit::test
