#include <gtest/gtest.h>

#include <set>

#include "rules/catalog.h"
#include "rules/finding_groups.h"
#include "util/strings.h"

using namespace imgaudit;

TEST(Catalog, HoldsTheCoreRulesWithEveryField) {
  const auto& c = Catalog::builtin();
  for (auto id : {"interpreter-missing", "needed-lib-missing", "libc-mismatch", "glibc-too-old", "arch-mismatch"}) {
    const Rule* r = c.find(id);
    ASSERT_NE(r, nullptr) << id;
    EXPECT_EQ(r->severity, Severity::Error) << id;
    EXPECT_FALSE(r->title.empty()) << id;
    EXPECT_GT(r->explanation.size(), 80u) << id;
    EXPECT_NE(r->message.find("{count}"), std::string::npos) << id;
    EXPECT_TRUE(r->advice.count("default")) << id;
    EXPECT_FALSE(r->references.empty()) << id;
  }
  std::set<std::string> ids;
  for (auto& r : c.rules()) EXPECT_TRUE(ids.insert(r.id).second) << "duplicate id " << r.id;
  EXPECT_EQ(c.find("no-such-rule"), nullptr);
  EXPECT_THROW(c.rule("no-such-rule"), std::out_of_range);
}

TEST(Catalog, FillsTemplates) {
  EXPECT_EQ(fill_template("{count} file(s) need {libs}", {{"count", "3"}, {"libs", "libfoo.so"}}),
            "3 file(s) need libfoo.so");
  EXPECT_EQ(fill_template("download the ${TARGETARCH} artifact", {{"count", "1"}}), "download the ${TARGETARCH} artifact");
  EXPECT_EQ(fill_template("unclosed {brace", {}), "unclosed {brace");
}

TEST(Catalog, FillsPlaceholdersWithTheirGeneralWording) {
  const std::string text = "base the final stage on an image that has {interpreter|the interpreter it names}.";
  EXPECT_EQ(fill_template(text, {{"interpreter", "/lib64/ld-linux-x86-64.so.2"}}),
            "base the final stage on an image that has /lib64/ld-linux-x86-64.so.2.");
  EXPECT_EQ(general_text(text), "base the final stage on an image that has the interpreter it names.");
  EXPECT_EQ(fill_template(text, {{"count", "2"}}), general_text(text));
  EXPECT_EQ(general_text("{count} file(s)"), "{count} file(s)");  // no general wording: left as it is
  EXPECT_EQ(general_text("download the ${TARGETARCH} artifact"), "download the ${TARGETARCH} artifact");
  EXPECT_EQ(general_text("{Not A Name|x}"), "{Not A Name|x}");
}

// What `imgaudit explain`, `imgaudit rules`, the SARIF rules and the man page show of a rule: no
// placeholder left unfilled, no brace at all.
TEST(Catalog, TextsOutsideAFindingHaveNoPlaceholders) {
  for (const Rule& r : Catalog::builtin().rules()) {
    EXPECT_EQ(r.title.find_first_of("{}"), std::string::npos) << r.id << ": " << r.title;
    EXPECT_EQ(r.explanation.find_first_of("{}"), std::string::npos) << r.id << ": " << r.explanation;
    for (auto& ref : r.references) EXPECT_EQ(ref.find_first_of("{}"), std::string::npos) << r.id;
    ASSERT_EQ(r.advice.size(), r.advice_templates.size()) << r.id;
    for (auto& [key, advice] : r.advice) {
      EXPECT_EQ(advice.find_first_of("{}"), std::string::npos) << r.id << " " << key << ": " << advice;
      EXPECT_EQ(advice, general_text(r.advice_templates.at(key))) << r.id << " " << key;
    }
  }
  const Rule& interp = Catalog::builtin().rule("interpreter-missing");
  EXPECT_NE(interp.explanation.find("(/lib64/ld-linux-x86-64.so.2 for glibc on x86_64, /lib/ld-musl-x86_64.so.1 for musl)"),
            std::string::npos)
      << interp.explanation;
  EXPECT_EQ(interp.explanation.find("/lib/ld-linux"), std::string::npos);
  EXPECT_EQ(interp.advice.at("default"),
            "Build the program in a stage with the same libc as the final image, link it statically, or base the "
            "final stage on an image that has the interpreter it names.");
  EXPECT_EQ(Catalog::builtin().rule("needed-lib-missing").advice.at("default"),
            "Install the package that provides the missing libraries in the final stage, or copy the libraries next "
            "to the program and give it a RUNPATH of $ORIGIN (-Wl,-rpath,'$ORIGIN/../lib'), or link them statically.");
}

// A finding keeps its specifics: the interpreter, the program's libc and the image's base.
TEST(Catalog, FindingsFillInTheirSpecifics) {
  ImageFacts facts;
  facts.distro.id = "alpine";
  facts.distro.version_id = "3.20.3";
  facts.libc.family = LibcKind::Musl;
  facts.image.platform = Platform{"linux", "amd64", ""};
  FindingGroups groups(facts);
  groups.add("interpreter-missing", 1, "/lib64/ld-linux-x86-64.so.2", "usr/bin/app",
             {{"interpreter", "/lib64/ld-linux-x86-64.so.2"}, {"binary_libc", "glibc"}}, {"musl"});
  groups.add("needed-lib-missing", 1, "libssl.so.3", "usr/bin/tls",
             {{"libs", "libssl.so.3"},
              {"first_lib", "libssl.so.3"},
              {"python_note", ""},
              {"packages", "libssl3"},
              {"install", "RUN apk add --no-cache libssl3"}},
             {"packages"});
  std::vector<Finding> out;
  groups.emit(out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].message,
            "1 program(s) ask for the ELF interpreter /lib64/ld-linux-x86-64.so.2, which is not in the image: running "
            "them fails with 'no such file or directory'.");
  EXPECT_TRUE(starts_with(out[0].advice,
                          "The program was built for glibc and the image has musl. Build it on the same base in a "
                          "build stage (FROM alpine:3.20 AS build, then COPY --from=build), link it statically"))
      << out[0].advice;
  EXPECT_TRUE(starts_with(out[1].advice, "Install libssl3 in the final stage: RUN apk add --no-cache libssl3. If a library"))
      << out[1].advice;
  for (auto& f : out) {
    EXPECT_EQ(f.message.find_first_of("{}"), std::string::npos) << f.message;
    EXPECT_EQ(f.advice.find_first_of("{}"), std::string::npos) << f.advice;
  }
}

