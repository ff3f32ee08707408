#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "report/packed_text.h"
#include "report/platform_differences.h"
#include "report/report.h"

namespace imgaudit {

// One image of a run of many: the name it was given by, and its report or why it could not be read.
struct FleetEntry {
  std::string name;
  std::string platform;  // "linux/arm64" when the image is one platform of several (--platform all)
  const AuditReport* report = nullptr;  // null when the image could not be read
  std::string error;
};

// An image's part of a report on several images, rendered while its facts are alive; what the
// document needs of it afterwards: its summary row and, for JUnit, its suite's counts.
struct FleetPart {
  PackedText text;  // the image's report in the format, waiting for the others
  std::string name, platform, digest, error;
  std::vector<Finding> findings;  // with a platform: what differs between a name's platforms is said from them
  nlohmann::json sarif_run;       // sarif: the run, its results tagged with the platform (text is empty)
  size_t errors = 0, warnings = 0, infos = 0;
  JunitSuite junit;  // counts only (the element is in text)
};
FleetPart fleet_part(const std::string& format, const FleetEntry& entry, const TextOptions& text);

// "alpine:3.20 (linux/arm64)" for one platform of several, else the name.
std::string shown_name(const std::string& name, const std::string& platform);

// The parts [begin, end) of one name: a group of its platforms (--platform all), or one image.
struct NameSpan {
  size_t begin, end;
  bool group() const { return end - begin > 1; }
};
std::vector<NameSpan> name_spans(const std::vector<FleetPart>& parts);
// The findings of each platform of a group, for what differs between them.
std::vector<PlatformFindings> platform_findings(const std::vector<FleetPart>& parts, NameSpan span);

// What the run did, for the summary: layers read from blobs, layers one image took from another, and
// layers whose facts came from the cache (the folder, or the Redis shards share).
struct FleetStats {
  size_t images = 0, distinct = 0, layers_read = 0, layers_shared = 0, layers_cached = 0;
};

// The whole document, the parts in the order the images were given (a name's platforms, with
// --platform all, one after another in the index's order, and called a group here):
// - text: each image's report under its name (and platform), what differs between a group's
//   platforms after it, then a table of all;
// - json: {"schema_version", "tool", "images": [each image's document with "name", or {"name", "error"}, or
//   for a group {"name", "platforms": [each platform's document with "platform"], "differences"}], "summary"};
// - sarif: one run for all (GitHub takes at most 20 a file), each result tagged with its image (and its
//   platform), an unreadable image an invocation that failed, saying why;
// - junit: one <testsuite> an image (an unreadable one: one test case in error);
// - codequality: the issues of every image, each description and fingerprint its image's own;
// - markdown: write_markdown_fleet;
// - html: write_html_fleet.
// markdown (report/markdown_fleet.cpp): a table of every image's counts, then each image's section (cut to
// kMaxMarkdownImageChars) while the whole stays within kMaxMarkdownChars, and how many were left out.
void write_markdown_fleet(std::ostream& out, const std::vector<FleetPart>& parts, const FleetStats& stats);
// html (report/html_fleet.cpp): one page, a table of every image's counts linking to its section, each image's
// section, and after a group's sections what differs between its platforms.
void write_html_fleet(std::ostream& out, const std::vector<FleetPart>& parts, const FleetStats& stats);
// The id of an image's section in a page of several: "image-" and 12 hex digits of its name and platform.
std::string html_image_id(const std::string& name, const std::string& platform);

void write_fleet(std::ostream& out, const std::string& format, const std::vector<FleetPart>& parts,
                 const FleetStats& stats, const TextOptions& text);

// The report on the platforms of one name alone (the parts one group): as write_fleet's group, with
// schema_version, tool and summary at the top in json; one run in sarif; in text, the summary
// table after the differences.
void write_platforms(std::ostream& out, const std::string& format, const std::vector<FleetPart>& parts,
                     const FleetStats& stats, const TextOptions& text);

}  // namespace imgaudit
