// The progress line: on a terminal, one line drawn over itself while the layers are read, whatever the
// transport, in MiB; gone before the report; never with -q, --no-progress, or when standard error is no terminal.
#include <gtest/gtest.h>

#include "image_fixture.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

// Two layers of some 300 KiB each, so that the line has bytes to count.
ImageSpec two_layers() {
  ImageSpec spec = native_image();
  spec.layers.push_back(layer({file("opt/a.bin", incompressible(300 << 10), 0644)}, "COPY a.bin /opt/"));
  spec.layers.push_back(layer({file("opt/b.bin", incompressible(310 << 10), 0644)}, "COPY b.bin /opt/"));
  return spec;
}

// What the terminal shows of standard error (standard output discarded) when imgaudit audits `image`.
std::string shown_on_a_terminal(const TempDir& tmp, const std::string& args) {
  std::string shown;
  run_on_a_terminal("XDG_CACHE_HOME='" + tmp / "cache" + "' '" + imgaudit_binary() + "' --fail-on never " + args +
                        " >/dev/null",
                    &shown);
  return shown;
}

// The states the line went through: each drawing starts at the line's start, and is padded with spaces.
std::vector<std::string> drawn_lines(const std::string& shown) {
  std::vector<std::string> lines;
  size_t at = 0;
  while ((at = shown.find("\rimgaudit: layers ", at)) != std::string::npos) {
    size_t end = shown.find('\r', at + 1);
    std::string line = shown.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    line.erase(line.find_last_not_of(' ') + 1);
    lines.push_back(line);
    at = end == std::string::npos ? shown.size() : end;
  }
  return lines;
}

}  // namespace

TEST(ProgressLine, CountsTheLayersOfALayoutAndIsClearedBeforeTheReport) {
  SKIP_WITHOUT_TERMINAL();
  TempDir tmp;
  write_oci_layout(two_layers(), tmp / "layout");
  const std::string shown = shown_on_a_terminal(tmp, "--no-cache -j 1 oci:" + tmp / "layout");
  const std::vector<std::string> lines = drawn_lines(shown);
  ASSERT_FALSE(lines.empty()) << shown;
  EXPECT_EQ(lines.front().rfind("imgaudit: layers 0 of 2, 0 B of ", 0), 0u) << lines.front();
  EXPECT_EQ(lines.back().rfind("imgaudit: layers 1 of 2, ", 0), 0u) << lines.back();
  for (const std::string& line : lines) {
    EXPECT_NE(line.find(" KiB"), std::string::npos) << "binary units, as the report's: " << line;
    EXPECT_EQ(line.find(" MB"), std::string::npos) << line;
  }
  // The last thing on the terminal blanks the line and returns to its start: nothing is left of it.
  ASSERT_GE(shown.size(), 2u);
  const size_t last = shown.find_last_not_of("\r\n");
  EXPECT_EQ(shown[last], ' ') << shown;
  EXPECT_EQ(shown.find('\033'), std::string::npos) << "no escape sequence: any terminal shows it alike";
}

TEST(ProgressLine, CountsAStreamAsItsLayersCome) {
  SKIP_WITHOUT_TERMINAL();
  TempDir tmp;
  write_docker_archive(two_layers(), tmp / "app.tar", false);
  const std::vector<std::string> lines = drawn_lines(shown_on_a_terminal(tmp, "--no-cache - < '" + tmp / "app.tar'"));
  ASSERT_FALSE(lines.empty());
  // The second layer is known only once it comes: "0 of 1", then "0 of 2" or "1 of 2".
  EXPECT_EQ(lines.front().rfind("imgaudit: layers 0 of 1, ", 0), 0u) << lines.front();
  bool saw_second = false;
  for (const std::string& line : lines) saw_second = saw_second || line.rfind("imgaudit: layers 1 of 2, ", 0) == 0;
  EXPECT_TRUE(saw_second) << lines.back();
}

TEST(ProgressLine, NoneWithQuietOrNoProgressOrOffATerminal) {
  SKIP_WITHOUT_TERMINAL();
  TempDir tmp;
  write_oci_layout(two_layers(), tmp / "layout");
  EXPECT_TRUE(drawn_lines(shown_on_a_terminal(tmp, "--no-cache -q oci:" + tmp / "layout")).empty());
  EXPECT_TRUE(drawn_lines(shown_on_a_terminal(tmp, "--no-cache --no-progress oci:" + tmp / "layout")).empty());
  // As every flag, from its variable too.
  std::string shown;
  run_on_a_terminal("IMGAUDIT_NO_PROGRESS=true '" + imgaudit_binary() + "' --no-cache --fail-on never oci:" +
                        tmp / "layout" + " >/dev/null",
                    &shown);
  EXPECT_TRUE(drawn_lines(shown).empty()) << shown;
  // Standard error a pipe: nothing but the report.
  CliResult piped = run_imgaudit("--no-cache --fail-on never oci:" + tmp / "layout");
  EXPECT_EQ(piped.err, "");
}
