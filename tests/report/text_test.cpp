// write_text: one block per rule, consequences folded under their cause, wrapping, the verdict at both ends.
#include <gtest/gtest.h>

#include <sstream>

#include "report/text_layout.h"
#include "report_fixture.h"
#include "rules/catalog.h"
#include "util/strings.h"

using namespace imgaudit;
using namespace imgaudit::test;

namespace {

std::string text(const AuditReport& r, size_t width, bool quiet = false, bool color = false) {
  TextOptions o;
  o.width = width;
  o.quiet = quiet;
  o.color = color;
  std::ostringstream out;
  write_text(out, r, o);
  return out.str();
}

// A needed-lib-missing finding as the rules write it: its values, and the catalog's message and lookup
// advice rendered from them.
Finding missing_libs(std::vector<std::string> paths, int layer, std::string created_by, std::vector<std::string> libs) {
  const Rule& rule = Catalog::builtin().rule("needed-lib-missing");
  FindingValues values = missing_lib_values(libs);
  values.emplace("count", FindingValue::number(int64_t(paths.size())));
  Finding f = make_finding("needed-lib-missing", Severity::Error, std::move(paths), layer, std::move(created_by),
                           render(rule, rule.message, values), render(rule, rule.advice_templates.at("lookup"), values));
  f.values = std::move(values);
  f.advice_key = "lookup";
  return f;
}

// A glibc program copied into Alpine with gcompat: libc-mismatch, and the glibc libraries it lacks (two
// needed-lib-missing findings of the same programs: consequences); a program of the image lacking libraries
// (in two layers, one path with an ESC in it); runs-as-root, whose advice has a line break.
AuditReport small_report() {
  AuditReport r;
  r.facts.image.source = "registry.example/team/app:1.4";
  r.facts.distro.pretty_name = "Alpine Linux v3.20";
  r.facts.libc.family = LibcKind::Musl;
  Finding mismatch = make_finding(
      "libc-mismatch", Severity::Error, {"/usr/bin/app", "/usr/bin/helper"}, 1, "COPY bin/ /usr/bin/",
      "2 file(s) built for glibc in a musl image: a compatibility shim (gcompat) lets them start, but glibc-only "
      "behaviour will fail at run time.",
      "Rebuild for musl in a build stage on the same base (FROM alpine:3.20 AS build ... COPY --from=build), link "
      "statically.");
  mismatch.dockerfile = DockerfileLine{"Dockerfile", 7, 7, "COPY bin/ /usr/bin/"};
  r.findings.push_back(mismatch);
  r.findings.push_back(missing_libs({"/usr/bin/app"}, 1, "COPY bin/ /usr/bin/", {"libstdc++.so.6", "libgcc_s.so.1"}));
  r.findings.back().caused_by = "libc-mismatch";
  r.findings.push_back(missing_libs({"/usr/bin/helper"}, 1, "COPY bin/ /usr/bin/", {"libstdc++.so.6"}));
  r.findings.back().caused_by = "libc-mismatch";
  r.findings.push_back(missing_libs({"/opt/\x1b[31mevil", "/usr/lib/libapp.so"}, 2, "RUN make",
                                    {"libssl.so.3", "libz.so.1"}));
  r.findings.push_back(missing_libs({"/usr/local/bin/tool"}, 3, "COPY tool /usr/local/bin/", {"libcurl.so.4"}));
  r.findings.push_back(make_finding("runs-as-root", Severity::Warning, {}, -1, "",
                                    "The image runs as root: its processes have uid 0.",
                                    "RUN addgroup -S app && adduser -S -G app -H -D app\nUSER app"));
  return r;
}

// The lines of `t` that are inside a rule block and start at column 0 although they are not its first line.
std::vector<std::string> column_zero_inside_blocks(const std::string& t) {
  std::vector<std::string> bad;
  bool in_block = false;
  for_each_line(t, [&](std::string_view line) {
    if (line.empty()) {
      in_block = false;
      return;
    }
    bool header = starts_with(line, "error ") || starts_with(line, "warning ") || starts_with(line, "info ");
    if (header && !in_block) {
      in_block = true;
      return;
    }
    if (in_block && line[0] != ' ') bad.emplace_back(line);
  });
  return bad;
}

}  // namespace

TEST(TextReport, GroupsFoldsAndCountsAtWidth100) {
  EXPECT_EQ(text(small_report(), 100),
            "registry.example/team/app:1.4\n"
            "  distro    Alpine Linux v3.20\n"
            "  libc      musl\n"
            "  ELF files 0\n"
            "\n"
            "3 error(s) (+2 consequences), 1 warning(s), 0 info\n"
            "\n"
            "error libc-mismatch: 2 file(s) built for glibc in a musl image: a compatibility shim (gcompat) lets\n"
            "      them start, but glibc-only behaviour will fail at run time.\n"
            "  layer 1: COPY bin/ /usr/bin/\n"
            "  Dockerfile:7: COPY bin/ /usr/bin/\n"
            "    /usr/bin/app\n"
            "    /usr/bin/helper\n"
            "  and 2 missing libraries of the same programs, consequences of the above: libstdc++.so.6,\n"
            "    libgcc_s.so.1 (2 needed-lib-missing findings, in full in --format json)\n"
            "  fix: Rebuild for musl in a build stage on the same base (FROM alpine:3.20 AS build ... COPY\n"
            "       --from=build), link statically.\n"
            "  more: imgaudit explain libc-mismatch,\n"
            "        https://wiki.musl-libc.org/functional-differences-from-glibc.html\n"
            "\n"
            "error needed-lib-missing: Shared library not found by the image's loader: 3 files in 2 layers\n"
            "  layer 2: RUN make\n"
            "    /opt/\\x1b[31mevil    libssl.so.3, libz.so.1\n"
            "    /usr/lib/libapp.so   libssl.so.3, libz.so.1\n"
            "  layer 3: COPY tool /usr/local/bin/\n"
            "    /usr/local/bin/tool  libcurl.so.4\n"
            "  fix: Install the package that provides the library in the final stage; find it with: apk search\n"
            "       so:NAME or apt-file search NAME. If a library comes from your build, COPY it from the build\n"
            "       stage and link with -Wl,-rpath,'$ORIGIN/../lib'.\n"
            "  more: imgaudit explain needed-lib-missing, https://man7.org/linux/man-pages/man8/ld.so.8.html\n"
            "\n"
            "warning runs-as-root: The image runs as root: its processes have uid 0.\n"
            "  fix: RUN addgroup -S app && adduser -S -G app -H -D app\n"
            "       USER app\n"
            "  more: imgaudit explain runs-as-root, https://docs.docker.com/reference/dockerfile/#user\n"
            "\n"
            "3 error(s) (+2 consequences), 1 warning(s), 0 info\n");
}

TEST(TextReport, WrapsWithAHangingIndentAtWidth60) {
  EXPECT_EQ(text(small_report(), 60, /*quiet=*/true),
            "error libc-mismatch: 2 file(s) built for glibc in a musl\n"
            "      image: a compatibility shim (gcompat) lets them start,\n"
            "      but glibc-only behaviour will fail at run time.\n"
            "  layer 1: COPY bin/ /usr/bin/\n"
            "  Dockerfile:7: COPY bin/ /usr/bin/\n"
            "    /usr/bin/app\n"
            "    /usr/bin/helper\n"
            "  and 2 missing libraries of the same programs, consequences\n"
            "    of the above: libstdc++.so.6, libgcc_s.so.1 (2\n"
            "    needed-lib-missing findings, in full in --format json)\n"
            "  fix: Rebuild for musl in a build stage on the same base\n"
            "       (FROM alpine:3.20 AS build ... COPY --from=build),\n"
            "       link statically.\n"
            "  more: imgaudit explain libc-mismatch,\n"
            "        https://wiki.musl-libc.org/functional-differences-from-glibc.html\n"
            "\n"
            "error needed-lib-missing: Shared library not found by the\n"
            "      image's loader: 3 files in 2 layers\n"
            "  layer 2: RUN make\n"
            "    /opt/\\x1b[31mevil    libssl.so.3, libz.so.1\n"
            "    /usr/lib/libapp.so   libssl.so.3, libz.so.1\n"
            "  layer 3: COPY tool /usr/local/bin/\n"
            "    /usr/local/bin/tool  libcurl.so.4\n"
            "  fix: Install the package that provides the library in the\n"
            "       final stage; find it with: apk search so:NAME or\n"
            "       apt-file search NAME. If a library comes from your\n"
            "       build, COPY it from the build stage and link with\n"
            "       -Wl,-rpath,'$ORIGIN/../lib'.\n"
            "  more: imgaudit explain needed-lib-missing,\n"
            "        https://man7.org/linux/man-pages/man8/ld.so.8.html\n"
            "\n"
            "warning runs-as-root: The image runs as root: its processes\n"
            "      have uid 0.\n"
            "  fix: RUN addgroup -S app && adduser -S -G app -H -D app\n"
            "       USER app\n"
            "  more: imgaudit explain runs-as-root,\n"
            "        https://docs.docker.com/reference/dockerfile/#user\n"
            "\n"
            "3 error(s) (+2 consequences), 1 warning(s), 0 info\n");
}

TEST(TextReport, NoLineInsideABlockStartsAtColumnZero) {
  for (size_t width : {0, 20, 40, 60, 100}) {
    EXPECT_EQ(column_zero_inside_blocks(text(small_report(), width)), std::vector<std::string>{}) << width;
    EXPECT_EQ(column_zero_inside_blocks(text(sample_report(), width)), std::vector<std::string>{}) << width;
  }
}

TEST(TextReport, NoLineIsWiderThanTheTerminalUnlessOneWordIs) {
  for (size_t width : {40, 60, 100}) {
    std::string t = text(small_report(), width);
    for_each_line(t, [&](std::string_view line) {
      if (display_width(line) <= width || starts_with(line, "3 error(s)")) return;  // the verdict is not wrapped
      // Too wide only when it holds a single word (a path, a URL) after its indent and lead.
      auto words = split(std::string(trim(line)), " ");
      std::string_view last = words.back();
      EXPECT_TRUE(display_width(line) - last.size() <= width && (starts_with(last, "http") || starts_with(last, "/") ||
                                                                   starts_with(last, "-Wl,")))
          << width << ": " << line;
    });
  }
}

TEST(TextReport, VerdictAtTheTopAndTheBottomButOnlyTheBottomWhenQuiet) {
  const std::string verdict = "3 error(s) (+2 consequences), 1 warning(s), 0 info\n";
  std::string full = text(small_report(), 100);
  size_t top = full.find(verdict);
  ASSERT_NE(top, std::string::npos);
  EXPECT_LT(top, full.find("error libc-mismatch"));
  EXPECT_TRUE(ends_with(full, "\n" + verdict));
  EXPECT_NE(full.find(verdict, top + 1), std::string::npos);

  std::string quiet = text(small_report(), 100, /*quiet=*/true);
  EXPECT_EQ(quiet.find(verdict), quiet.size() - verdict.size()) << quiet;
  EXPECT_TRUE(starts_with(quiet, "error libc-mismatch:")) << quiet;

  AuditReport clean;
  clean.facts.image.source = "oci:clean";
  EXPECT_TRUE(ends_with(text(clean, 100), "  ELF files 0\n\n0 error(s), 0 warning(s), 0 info\n")) << "once, for a clean image";
  EXPECT_EQ(text(clean, 100, /*quiet=*/true), "");
}

TEST(TextReport, EveryBlockEndsWithItsExplainCommandAndFirstReference) {
  std::string t = text(sample_report(), 0);
  for (const char* id : {"interpreter-missing", "needed-lib-missing", "build-tools-in-image", "runs-as-root",
                         "tzdata-missing"}) {
    const Rule& rule = Catalog::builtin().rule(id);
    std::string more = "  more: imgaudit explain " + std::string(id) +
                       (rule.references.empty() ? "" : ", " + rule.references.front()) + "\n\n";
    EXPECT_NE(t.find(more), std::string::npos) << more << t;
  }
}

TEST(TextReport, MessagesNotInTheCatalogsWordsAreEachShownOnceUnderTheirLayer) {
  // sample_report's needed-lib-missing messages are not the catalog's: no libraries column, each message once,
  // and the fix (the same for both findings) once.
  std::string t = text(sample_report(), 100, /*quiet=*/true);
  EXPECT_NE(t.find("error needed-lib-missing: Shared library not found by the image's loader: 3 files in 2 layers\n"
                   "  layer 2: RUN echo \\x1b]0;pwned\\x07 && make\n"
                   "    2 file(s) need libssl.so.3 & \"libz.so.1\" <'soname'>, which the image's loader cannot find.\n"
                   "    /opt/\\x1b[31mevil\\x07]]><x a=\"1\" b='2'>&amp;\\x0a  /usr/bin/spoof\\xff\\xc2\\x9b\n"
                   "    /usr/lib/libapp.so\n"
                   "  layer 3: COPY tool /usr/local/bin/\n"
                   "    1 file(s) need libcurl.so.4, which the image's loader cannot find.\n"
                   "    /usr/local/bin/tool\n"
                   "  fix: Install the packages that provide them.\n"
                   "  more: imgaudit explain needed-lib-missing, https://man7.org/linux/man-pages/man8/ld.so.8.html\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("error interpreter-missing: 2 program(s) ask for the ELF interpreter /lib64/ld-linux-x86-64.so.2,\n"
                   "      which is not in the image.\n"
                   "  layer 1: COPY bin/ /usr/bin/\n"
                   "  ./build/Dockerfile:7: COPY bin/ /usr/bin/\n"),
            std::string::npos)
      << t;
  EXPECT_TRUE(ends_with(t, "\n3 error(s), 2 warning(s), 1 info, 2 ignored\n")) << t;
}

TEST(TextReport, ImageControlledStringsReachTheTerminalEscaped) {
  for (bool color : {false, true}) {
    std::string t = text(sample_report(), 100, false, color);
    EXPECT_NE(t.find("/opt/\\x1b[31mevil\\x07"), std::string::npos) << t;
    EXPECT_NE(t.find("RUN echo \\x1b]0;pwned\\x07 && make"), std::string::npos) << t;
    EXPECT_NE(t.find("note: skipped a hard link to outside the image: /etc/\\x1bshadow\n"), std::string::npos) << t;
    EXPECT_EQ(t.find('\x07'), std::string::npos);
    EXPECT_EQ(t.find("\xc2\x9b"), std::string::npos) << "a C1 control written in UTF-8";
    EXPECT_EQ(t.find('\xff'), std::string::npos);
    EXPECT_EQ(t.find("\n  /usr/bin/spoof"), std::string::npos) << "a newline in a path makes no line of its own";
    if (!color) {
      EXPECT_EQ(t.find('\x1b'), std::string::npos);
    } else {  // every ESC starts one of the report's own SGR sequences
      for (size_t at = t.find('\x1b'); at != std::string::npos; at = t.find('\x1b', at + 1))
        EXPECT_EQ(t.compare(at, 2, "\x1b["), 0) << t.substr(at, 20);
    }
  }
  std::string colored = text(small_report(), 100, true, true);
  EXPECT_TRUE(starts_with(colored, "\x1b[1;31merror\x1b[0m \x1b[1mlibc-mismatch\x1b[0m: 2 file(s)")) << colored;
}

TEST(TextReport, ManyPathsOfOneFindingEndWithAndNMore) {
  AuditReport r;
  std::vector<std::string> paths;
  for (int i = 0; i < 8; ++i) paths.push_back("/usr/bin/p" + std::to_string(i));
  r.findings.push_back(missing_libs(paths, 0, "COPY . /", {"libfoo.so.1"}));
  std::string t = text(r, 100, true);
  EXPECT_NE(t.find("    /usr/bin/p4  libfoo.so.1\n    and 3 more\n"), std::string::npos) << t;
  EXPECT_EQ(t.find("/usr/bin/p5"), std::string::npos) << t;
}

TEST(TextReport, APathWiderThanItsColumnPutsItsLibrariesOnTheNextLine) {
  AuditReport r;
  const std::string long_path = "/opt/" + std::string(40, 'x') + "/bin/tool";
  r.findings.push_back(missing_libs({long_path, "/usr/bin/a"}, 0, "COPY . /", {"libfoo.so.1"}));
  std::string t = text(r, 60, true);
  EXPECT_NE(t.find("    " + long_path + "\n" + std::string(4 + 27 + 2, ' ') + "libfoo.so.1\n"
                   "    /usr/bin/a" + std::string(27 - 10 + 2, ' ') + "libfoo.so.1\n"),
            std::string::npos)
      << t;
}

TEST(TextReport, OnlyFindingsThatFollowFromAnotherAreFolded) {
  AuditReport r = small_report();
  r.findings[2].caused_by.clear();  // /usr/bin/helper's libraries stand on their own
  r.findings[2].paths.push_back("/usr/bin/other");
  r.findings[2].message = fill_template(Catalog::builtin().rule("needed-lib-missing").message,
                                        {{"count", "2"}, {"libs", "libstdc++.so.6"}, {"first_lib", "libstdc++.so.6"},
                                         {"python_note", ""}});
  std::string t = text(r, 100, true);
  EXPECT_NE(t.find("  and 2 missing libraries of the same programs, consequences of the above: libstdc++.so.6,\n"
                   "    libgcc_s.so.1 (1 needed-lib-missing finding, in full in --format json)\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("    /usr/bin/helper      libstdc++.so.6\n    /usr/bin/other       libstdc++.so.6\n"), std::string::npos)
      << t;
  EXPECT_TRUE(ends_with(t, "\n4 error(s) (+1 consequence), 1 warning(s), 0 info\n")) << t;
}

TEST(TextLayout, WrapWordsKeepsLongWordsWhole) {
  EXPECT_EQ(wrap_words("aa bb cc dd", 5, 5), (std::vector<std::string>{"aa bb", "cc dd"}));
  EXPECT_EQ(wrap_words("see /a/very/long/path/name here", 8, 10),
            (std::vector<std::string>{"see", "/a/very/long/path/name", "here"}));
  EXPECT_EQ(wrap_words("one\ntwo  three", 0, 0), (std::vector<std::string>{"one", "two three"}));
  EXPECT_EQ(wrap_words("", 10, 10), (std::vector<std::string>{""}));
  EXPECT_EQ(wrap_words("h\xc3\xa9h\xc3\xa9 ab", 7, 7), (std::vector<std::string>{"h\xc3\xa9h\xc3\xa9 ab"}))
      << "columns, not bytes";
}

