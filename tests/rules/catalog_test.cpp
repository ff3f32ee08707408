#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <nlohmann/json.hpp>

#include "rules/catalog.h"
#include "rules/finding_groups.h"
#include "util/sha256.h"
#include "util/strings.h"

using namespace imgaudit;

// The catalog's version and size are known without parsing it: the digest the build made of rules/*.json
// (a line of each file's name and a line of its bytes in hex, in name order), and one rule a file.
TEST(Catalog, VersionAndSizeAreThoseOfTheRuleFiles) {
  std::vector<std::filesystem::path> files;
  for (auto& e : std::filesystem::directory_iterator(std::string(IMGAUDIT_SOURCE_DIR) + "/rules"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::string lines;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), hex;
    for (unsigned char c : bytes) hex += "0123456789abcdef"[c >> 4], hex += "0123456789abcdef"[c & 15];
    lines += f.filename().string() + "\n" + hex + "\n";
  }
  EXPECT_EQ(Catalog::builtin_version(), Sha256::of(lines).substr(0, 7 + 12));
  EXPECT_EQ(Catalog::builtin_size(), files.size());
  EXPECT_EQ(Catalog::builtin().rules().size(), files.size());
}

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

// The one way templates are split: filling, naming placeholders, advice checks and SARIF message strings
// all read these pieces.
TEST(Catalog, SplitsTemplatesIntoLiteralTextAndPlaceholders) {
  const auto pieces = template_pieces("{{count} in ${ARCH} {Not A Name|x} {lib|a library}} {open");
  ASSERT_EQ(pieces.size(), 5u);
  EXPECT_EQ(pieces[0].text, "{");
  EXPECT_EQ(pieces[1].name, "count");
  EXPECT_EQ(pieces[1].text, "{count}");
  EXPECT_FALSE(pieces[1].general);
  EXPECT_EQ(pieces[2].text, " in ${ARCH} {Not A Name|x} ");
  EXPECT_EQ(pieces[2].name, "");
  EXPECT_EQ(pieces[3].name, "lib");
  EXPECT_EQ(pieces[3].general, "a library");
  EXPECT_EQ(pieces[4].text, "} {open");
  EXPECT_EQ(placeholder_names("{b} {a|x} {b|y}"), (std::vector<std::string>{"b", "a"}));
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
  groups.add("interpreter-missing", {FindingOrigin::Layer, 1}, "/lib64/ld-linux-x86-64.so.2", "usr/bin/app",
             {{"interpreter", "/lib64/ld-linux-x86-64.so.2"}, {"binary_libc", "glibc"}}, {"musl"});
  groups.add("needed-lib-missing", {FindingOrigin::Layer, 1}, "libssl.so.3", "usr/bin/tls",
             {{"libs", std::vector<std::string>{"libssl.so.3"}},
              {"first_lib", "libssl.so.3"},
              {"python_packages", std::vector<std::string>{}},
              {"packages", std::vector<std::string>{"libssl3"}},
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


// The values a finding keeps are typed, and what its message said is theirs: a list, a number, the image's
// own values its templates name, and which advice it took.
TEST(Catalog, FindingsKeepTheirValues) {
  ImageFacts facts;
  facts.distro.id = "alpine";
  facts.distro.version_id = "3.20.3";
  facts.libc.family = LibcKind::Musl;
  facts.image.layers.resize(3);
  facts.image.layers[2].created_by = "COPY app /usr/bin/";
  FindingGroups groups(facts);
  for (const char* path : {"usr/bin/a", "usr/bin/b"})
    groups.add("needed-lib-missing", {FindingOrigin::Layer, 2}, "x", path,
               {{"libs", std::vector<std::string>{"libssl.so.3", "libz.so.1"}}, {"first_lib", "libssl.so.3"},
                {"python_packages", std::vector<std::string>{"cryptography"}}});
  groups.add("runs-as-root", kFromConfig, "", "", {{"user", ""}});
  std::vector<Finding> out;
  groups.emit(out);
  ASSERT_EQ(out.size(), 2u);
  const Finding& libs = out[0].id == "needed-lib-missing" ? out[0] : out[1];
  const Finding& root = out[0].id == "needed-lib-missing" ? out[1] : out[0];
  EXPECT_EQ(libs.origin, FindingOrigin::Layer);
  EXPECT_EQ(libs.layer, 2);
  EXPECT_EQ(libs.values.at("count"), FindingValue::number(2));
  EXPECT_EQ(*libs.values.at("libs").list(), (std::vector<std::string>{"libssl.so.3", "libz.so.1"}));
  EXPECT_EQ(libs.advice_key, "default") << "no key given, and the rule has no advice of its own for alpine";
  EXPECT_EQ(libs.message,
            "2 file(s) need libssl.so.3, libz.so.1, which the image's loader cannot find: they fail with 'error while "
            "loading shared libraries: libssl.so.3'. Python package(s) cryptography fail to import (ImportError).");
  EXPECT_EQ(root.origin, FindingOrigin::Config);
  EXPECT_EQ(root.layer, -1);
  EXPECT_EQ(root.message, "The image runs as root (no USER in the Dockerfile): its processes have uid 0.");
  nlohmann::json j = libs;
  EXPECT_EQ(j["origin"], "layer");
  EXPECT_EQ(j["values"]["count"], 2);
  EXPECT_EQ(j["values"]["libs"], nlohmann::json({"libssl.so.3", "libz.so.1"}));
  EXPECT_EQ(nlohmann::json(root)["origin"], "config");
  EXPECT_EQ(nlohmann::json(root)["layer"], nullptr);
}

// Notes the catalog writes from a finding's values: chosen by a value's presence, singular for a list of
// one, left to the general wording when absent and without an "otherwise"; terms and separators.
TEST(Catalog, NotesTermsAndSeparatorsComeFromTheCatalog) {
  const Rule& missing = Catalog::builtin().rule("needed-lib-missing");
  const std::string& ldconfig = missing.advice_templates.at("ldconfig");
  auto conf = [&](std::vector<std::string> layers) {
    return render(missing, ldconfig, {{"conf_paths", std::vector<std::string>{"/usr/local/lib/libx.so"}},
                                      {"conf_layer_numbers", std::move(layers)}});
  };
  EXPECT_NE(conf({"3"}).find("run ldconfig in layer 3: RUN ldconfig"), std::string::npos) << conf({"3"});
  EXPECT_NE(conf({"2", "3"}).find("run ldconfig in layers 2, 3: RUN"), std::string::npos) << conf({"2", "3"});
  EXPECT_NE(conf({}).find("run ldconfig in the layer that adds them:"), std::string::npos) << conf({});

  const Rule& mismatch = Catalog::builtin().rule("libc-mismatch");
  FindingValues values{{"count", FindingValue::number(1)}, {"binary_libc", "glibc"}, {"image_libc", "musl"},
                       {"shims", std::vector<std::string>{}}};
  EXPECT_EQ(render(mismatch, mismatch.message, values), "1 file(s) built for glibc in a musl image.");
  values.insert_or_assign("shims", std::vector<std::string>{"gcompat"});
  EXPECT_EQ(render(mismatch, mismatch.message, values),
            "1 file(s) built for glibc in a musl image: a compatibility shim (gcompat) lets them start, but "
            "glibc-only behaviour will fail at run time.");

  const Rule& ca = Catalog::builtin().rule("ca-certificates-missing");
  EXPECT_EQ(shown_values(ca, {{"tls_users", std::vector<std::string>{"go-tls", "python-ssl", "other"}}}).at("tls_users"),
            "Go crypto/tls, Python ssl module, other")
      << "a term the catalog does not know is shown as it is";
  const Rule& start = Catalog::builtin().rule("entrypoint-not-found");
  EXPECT_EQ(shown_values(start, {{"chain", std::vector<std::string>{"a", "b"}}}).at("chain"), "a → b");
  const Rule& none = Catalog::builtin().rule("no-command");
  EXPECT_NE(render(none, none.message, {{"meant_to_run", FindingValue::flag(false)}}).find("(a base image may have none)"),
            std::string::npos);
}

// The text report's column and note of a rule are among its placeholders' names.
TEST(Catalog, TheTextReportsColumnAndNoteAreNamedInTheTemplates) {
  for (const Rule& r : Catalog::builtin().rules()) {
    if (!r.text_note.empty()) {
      EXPECT_TRUE(r.placeholders.count(r.text_note)) << r.id << ": " << r.text_note;
    }
    if (r.text_column.empty()) continue;
    auto names = placeholder_names(r.message);
    EXPECT_NE(std::find(names.begin(), names.end(), r.text_column), names.end()) << r.id << ": " << r.text_column;
  }
}

TEST(Catalog, ValuesReadBackFromJson) {
  for (const FindingValue& v : {FindingValue("x"), FindingValue(std::vector<std::string>{"a", "b"}),
                                FindingValue::number(7), FindingValue::flag(true)})
    EXPECT_EQ(finding_value_from_json(v.json()), v);
  EXPECT_EQ(finding_value_from_json(nlohmann::json::object()), std::nullopt);
  EXPECT_EQ(finding_value_from_json(nlohmann::json::array({1, 2})), std::nullopt);
  EXPECT_EQ(finding_value_from_json(nullptr), std::nullopt);
}
