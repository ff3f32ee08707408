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
            "2 error(s) (3 findings, +2 consequences), 1 warning(s), 0 info\n"
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
            "error needed-lib-missing: Shared library not found by the image's loader: 2 findings, 3 files in 2\n"
            "      layers\n"
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
            "2 error(s) (3 findings, +2 consequences), 1 warning(s), 0 info\n");
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
            "      image's loader: 2 findings, 3 files in 2 layers\n"
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
            "2 error(s) (3 findings, +2 consequences), 1 warning(s), 0 info\n");
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
      if (display_width(line) <= width || starts_with(line, "2 error(s)")) return;  // the verdict is not wrapped
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
  const std::string verdict = "2 error(s) (3 findings, +2 consequences), 1 warning(s), 0 info\n";
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
  EXPECT_NE(t.find("error needed-lib-missing: Shared library not found by the image's loader: 2 findings, 3 files in 2\n"
                   "      layers\n"
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
  EXPECT_TRUE(ends_with(t, "\n2 error(s) (3 findings), 2 warning(s), 1 info, 2 ignored\n")) << t;
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

TEST(TextReport, ManyPathsOfOneFindingAreShownByFolder) {
  AuditReport r;
  std::vector<std::string> paths;
  for (int i = 0; i < 8; ++i) paths.push_back("/usr/bin/p" + std::to_string(i));
  paths.push_back("/opt/tool");
  r.findings.push_back(missing_libs(paths, 0, "COPY . /", {"libfoo.so.1"}));
  std::string t = text(r, 100, true);
  EXPECT_NE(t.find("  layer 0: COPY . /\n"
                   "    /usr/bin/ (8 files): p0, p1, p2, ... and 5 more (--format json for all)\n"
                   "    /opt/tool\n"
                   "  fix: "),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("/usr/bin/p3"), std::string::npos) << t;
}

TEST(TextReport, FoldersLeftOutAreCountedAndNamesFromTheImageEscaped) {
  AuditReport r;
  std::vector<std::string> paths;
  const std::string hostile_folder = "/opt/\x1b[31m\xff/";
  for (int i = 0; i < 7; ++i) paths.push_back(hostile_folder + "lib" + std::to_string(i) + "\x07.so");
  for (int folder = 0; folder < 6; ++folder)
    for (int i = 0; i <= folder; ++i) paths.push_back("/srv/d" + std::to_string(folder) + "/f" + std::to_string(i));
  r.findings.push_back(make_finding("exec-stack", Severity::Warning, paths, 1, "COPY . /", "Executable stack.", "Relink."));
  std::string t = text(r, 0, true);
  EXPECT_NE(t.find("    /opt/\\x1b[31m\\xff/ (7 files): lib0\\x07.so, lib1\\x07.so, lib2\\x07.so, ... and 4 more\n"
                   "    /srv/d5/ (6 files): f0, f1, f2, ... and 3 more\n"
                   "    /srv/d4/ (5 files): f0, f1, f2, ... and 2 more\n"
                   "    /srv/d3/ (4 files): f0, f1, f2, ... and 1 more\n"
                   "    and 6 more in 3 folders (--format json for all)\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find('\x1b'), std::string::npos);
  EXPECT_EQ(t.find('\x07'), std::string::npos);
}

// Findings of one rule in `layers` layers, each with `per_folder` files in each of 6 folders, and the
// consequences of each: two glibc libraries of its own.
AuditReport messy_report(int layers, int per_folder) {
  AuditReport r;
  for (int l = 0; l < layers; ++l) {
    std::vector<std::string> paths;
    for (int d = 0; d < 6; ++d)
      for (int i = 0; i < per_folder; ++i)
        paths.push_back("/opt/l" + std::to_string(l) + "/d" + std::to_string(d) + "/p" + std::to_string(i));
    Finding f = make_finding("libc-mismatch", Severity::Error, paths, l, "COPY l" + std::to_string(l), "built for glibc",
                             "Rebuild for musl.");
    r.findings.push_back(f);
    r.findings.push_back(missing_libs(paths, l, f.created_by, {"libm" + std::to_string(l) + ".so.6"}));
    r.findings.back().caused_by = "libc-mismatch";
    r.findings.push_back(missing_libs({"/usr/local/bin/t" + std::to_string(l)}, l, f.created_by,
                                      {"libx" + std::to_string(l) + ".so"}));
  }
  return r;
}

TEST(TextReport, ReportOfManyFindingsAndFilesStaysShortAndCountsExactly) {
  const TextOptions bounds;
  auto lines = [](const std::string& t) { return std::count(t.begin(), t.end(), '\n'); };
  const std::string small = text(messy_report(20, 10), 0);
  const std::string large = text(messy_report(20, 1000), 0);
  EXPECT_EQ(lines(small), lines(large)) << "the number of files changes no line count";
  EXPECT_LT(lines(large), 80) << large;
  EXPECT_EQ(lines(text(messy_report(200, 10), 0)), lines(large)) << "nor the number of findings";
  EXPECT_NE(large.find("error libc-mismatch: Binary built for another libc than the image's: 20 findings, 120000 files in "
                       "20 layers\n"), std::string::npos) << large;
  EXPECT_NE(large.find("    /opt/l0/d0/ (1000 files): p0, p1, p10, ... and 997 more\n"
                       "    /opt/l0/d1/ (1000 files): p0, p1, p10, ... and 997 more\n"),
            std::string::npos)
      << large;
  EXPECT_NE(large.find("  and " + std::to_string(20 - bounds.max_findings) + " more findings, " +
                       std::to_string((20 - bounds.max_findings) * 6000) + " files (--format json for all)\n"),
            std::string::npos)
      << large;
  EXPECT_NE(large.find("consequences of the above: libm0.so.6, libm1.so.6, libm2.so.6, libm3.so.6, libm4.so.6, "
                       "libm5.so.6, libm6.so.6, libm7.so.6 and 12 more (20 needed-lib-missing findings, in full in "
                       "--format json)\n"),
            std::string::npos)
      << large;
  EXPECT_TRUE(ends_with(large, "\n2 error(s) (40 findings, +20 consequences), 0 warning(s), 0 info\n")) << large;
}

// The verdict counts the blocks a reader sees (one header line each) and the findings their headers name.
TEST(TextReport, TheVerdictCountsWhatTheBlocksShow) {
  AuditReport r = sample_report();
  r.findings.push_back(r.findings[3]);  // build-tools-in-image again, lowered to info by a policy
  r.findings.back().severity = Severity::Info;
  r.findings.back().paths = {"/usr/bin/cc"};
  const std::string t = text(r, 0, /*quiet=*/true);
  size_t headers[3] = {0, 0, 0}, findings[3] = {0, 0, 0};
  for_each_line(t, [&](std::string_view line) {
    for (int sev = 0; sev < 3; ++sev) {
      if (!starts_with(line, std::string(to_string(static_cast<Severity>(sev))) + " ")) continue;
      ++headers[sev];
      size_t named = line.find(" findings");
      size_t count = named == std::string_view::npos ? 1 : std::stoul(std::string(line.substr(line.rfind(' ', named - 1) + 1)));
      findings[sev] += count;
    }
  });
  EXPECT_EQ(headers[2], 2u);
  EXPECT_EQ(findings[2], 3u);
  EXPECT_EQ(headers[1], 2u) << "build-tools-in-image's warning and info are two blocks";
  EXPECT_EQ(headers[0], 2u);
  EXPECT_TRUE(ends_with(t, "\n2 error(s) (3 findings), 2 warning(s), 2 info, 2 ignored\n")) << t;
}

TEST(TextReport, AdviceOnceATemplateAndTheFirstFewDistinctFixes) {
  AuditReport r;
  for (int i = 0; i < 3; ++i)
    r.findings.push_back(missing_libs({"/usr/bin/p" + std::to_string(i)}, 0, "COPY . /", {"lib" + std::to_string(i) + ".so"}));
  std::string t = text(r, 0, true);
  EXPECT_EQ(split(t, "  fix: ").size(), 2u) << "three findings of one template: one fix\n" << t;
  for (int i = 0; i < 5; ++i)
    r.findings.push_back(make_finding("needed-lib-missing", Severity::Error, {"/opt/q" + std::to_string(i)}, 1, "RUN make",
                                      "q", "Own advice " + std::to_string(i % 4) + "."));
  t = text(r, 0, true);
  TextOptions bounds;
  EXPECT_EQ(split(t, "  fix: ").size(), bounds.max_fixes + 1) << t;
  // One template's fix, then the four distinct texts of findings of no template: the first two of those.
  EXPECT_NE(t.find("  fix: Own advice 0.\n  fix: Own advice 1.\n  and 2 more fixes for the other findings (--format json "
                   "for all)\n"),
            std::string::npos)
      << t;
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
  EXPECT_TRUE(ends_with(t, "\n2 error(s) (4 findings, +1 consequence), 1 warning(s), 0 info\n")) << t;
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

