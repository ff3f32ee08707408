// Reports built by hand for the writer tests, and Python's XML parser as an independent reader.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/report.h"
#include "test_support.h"

namespace imgaudit::test {

// A file name an image can carry: ESC and BEL (terminal controls), "]]>" (ends a CDATA section), markup
// characters, a newline that would fake a line of its own, a byte that is not UTF-8 and a C1 control (CSI).
inline const std::string kHostilePath =
    "/opt/\x1b[31mevil\x07]]><x a=\"1\" b='2'>&amp;\n  /usr/bin/spoof\xff\xc2\x9b";
// How the JUnit report shows it: controls and stray bytes as \xNN, the rest as it is.
inline const std::string kHostilePathShown =
    "/opt/\\x1b[31mevil\\x07]]><x a=\"1\" b='2'>&amp;\\x0a  /usr/bin/spoof\\xff\\xc2\\x9b";

inline Finding make_finding(std::string id, Severity severity, std::vector<std::string> paths, int layer,
                            std::string created_by, std::string message, std::string advice) {
  Finding f;
  f.id = std::move(id);
  f.severity = severity;
  f.paths = std::move(paths);
  f.layer = layer;
  if (layer >= 0) f.layer_digest = "sha256:" + std::string(63, '0') + std::to_string(layer);
  f.created_by = std::move(created_by);
  f.message = std::move(message);
  f.advice = std::move(advice);
  return f;
}

// The values the rules give a needed-lib-missing finding of `libs` on Alpine (without its count, which
// FindingGroups makes from the paths).
inline FindingValues missing_lib_values(const std::vector<std::string>& libs) {
  return {{"libs", libs},
          {"first_lib", libs.front()},
          {"python_packages", std::vector<std::string>{}},
          {"unknown", libs},
          {"lookup", "apk search so:" + libs.front()}};
}

// Six findings of five rules and two ignored ones:
//   [0] interpreter-missing  error    layer 1, two paths, attributed to ./build/Dockerfile:7
//   [1] needed-lib-missing   error    layer 2, the hostile path and another one
//   [2] needed-lib-missing   error    layer 3 (a second finding of one rule)
//   [3] build-tools-in-image warning  layer 2, no Dockerfile line
//   [4] runs-as-root         warning  config-level: no path, no layer
//   [5] tzdata-missing       info     (severity lowered by the policy), no path, no layer
//   ignored: exec-stack (its only finding) and one path of needed-lib-missing.
inline AuditReport sample_report() {
  AuditReport r;
  r.facts.image.source = "registry.example/team/app:1.4";
  r.facts.image.manifest_digest = "sha256:" + std::string(64, 'a');

  Finding interp = make_finding(
      "interpreter-missing", Severity::Error, {"/usr/bin/app", "/usr/bin/helper"}, 1, "COPY bin/ /usr/bin/",
      "2 program(s) ask for the ELF interpreter /lib64/ld-linux-x86-64.so.2, which is not in the image.",
      "Build them for musl (e.g. in an alpine stage), or base the image on a glibc distribution.");
  interp.dockerfile = DockerfileLine{"./build/Dockerfile", 7, 8, "COPY bin/ /usr/bin/"};
  r.findings.push_back(interp);
  r.findings.push_back(make_finding("needed-lib-missing", Severity::Error, {kHostilePath, "/usr/lib/libapp.so"}, 2,
                                    "RUN echo \x1b]0;pwned\x07 && make",
                                    "2 file(s) need libssl.so.3 & \"libz.so.1\" <'soname'>, which the image's "
                                    "loader cannot find.",
                                    "Install the packages that provide them."));
  r.findings.push_back(make_finding("needed-lib-missing", Severity::Error, {"/usr/local/bin/tool"}, 3,
                                    "COPY tool /usr/local/bin/",
                                    "1 file(s) need libcurl.so.4, which the image's loader cannot find.",
                                    "Install the packages that provide them."));
  r.findings.push_back(make_finding("build-tools-in-image", Severity::Warning, {"/usr/bin/gcc"}, 2,
                                    "RUN apk add build-base", "build-base (87 MB) came into the final image.",
                                    "Move the build into a build stage."));
  r.findings.push_back(make_finding("runs-as-root", Severity::Warning, {}, -1, "",
                                    "The image runs as root: its processes have uid 0.",
                                    "RUN addgroup -S app && adduser -S -G app -H -D app\nUSER app"));
  r.findings.push_back(make_finding("tzdata-missing", Severity::Info, {}, -1, "",
                                    "The image has no time zone files in /usr/share/zoneinfo.",
                                    "RUN apk add --no-cache tzdata"));

  r.suppressed.emplace_back(make_finding("exec-stack", Severity::Warning, {"/opt/vendor/blob.so"}, 2, "ADD vendor /opt",
                                         "1 file(s) ask for an executable stack (PT_GNU_STACK RWE).", "Relink."),
                            "vendor blob, tracked in OPS-12");
  r.suppressed.emplace_back(make_finding("needed-lib-missing", Severity::Error, {"/usr/lib/debug/probe"}, 2, "RUN make",
                                         "1 file(s) need libprobe.so, which the image's loader cannot find.",
                                         "Install the packages that provide them."),
                            "debug helper, never run");
  r.warnings.push_back("skipped a hard link to outside the image: /etc/\x1bshadow");
  return r;
}

// `xml` read back by Python's xml.etree (expat): the element tree as JSON, each element as
// {"tag", "attrib", "text", "children"}; {"error": "..."} when the parser refuses the document.
inline nlohmann::json parse_xml_with_python(const std::string& xml) {
  TempDir tmp;
  write_file(tmp / "report.xml", xml);
  std::string out;
  int rc = run("python3 -c '"
               "import json, sys\n"
               "import xml.etree.ElementTree as ET\n"
               "def tree(e):\n"
               "    return {\"tag\": e.tag, \"attrib\": e.attrib, \"text\": e.text or \"\",\n"
               "            \"children\": [tree(c) for c in e]}\n"
               "try:\n"
               "    root = ET.parse(sys.argv[1]).getroot()\n"
               "except ET.ParseError as err:\n"
               "    print(json.dumps({\"error\": str(err)}))\n"
               "    sys.exit(0)\n"
               "print(json.dumps(tree(root)))\n"
               "' '" + tmp / "report.xml" + "' 2>&1",
               &out);
  if (rc != 0) return {{"error", "python3 failed: " + out}};
  return nlohmann::json::parse(out);
}

// The children of `element` with this tag.
inline std::vector<nlohmann::json> children(const nlohmann::json& element, const std::string& tag) {
  std::vector<nlohmann::json> out;
  for (const auto& c : element.at("children"))
    if (c.at("tag") == tag) out.push_back(c);
  return out;
}

}  // namespace imgaudit::test
