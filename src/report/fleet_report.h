#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "report/report.h"

namespace imgaudit {

// One image of a run of many: the name it was given by, and its report or why it could not be read.
struct FleetEntry {
  std::string name;
  const AuditReport* report = nullptr;  // null when the image could not be read
  std::string error;
};

// An image's part of a report on several images, rendered while its facts are alive; what the
// document needs of it afterwards: its summary row and, for JUnit, its suite's counts.
struct FleetPart {
  std::string text;
  std::string name, digest, error;
  size_t errors = 0, warnings = 0, infos = 0;
  JunitSuite junit;  // counts only (the element is in text)
};
FleetPart fleet_part(const std::string& format, const FleetEntry& entry, const TextOptions& text);

// What the run did, for the summary: layers read from blobs, and layers one image took from another.
struct FleetStats {
  size_t images = 0, distinct = 0, layers_read = 0, layers_shared = 0;
};

// The whole document, the parts in the order the images were given:
// - text: each image's report under its name, then a table of all;
// - json: {"schema_version", "tool", "images": [each image's document with "name", or {"name", "error"}], "summary"};
// - sarif: one run an image (an unreadable one: a run whose invocation failed, saying why);
// - junit: one <testsuite> an image (an unreadable one: one test case in error);
// - codequality: the issues of every image, each description and fingerprint its image's own.
void write_fleet(std::ostream& out, const std::string& format, const std::vector<FleetPart>& parts,
                 const FleetStats& stats, const TextOptions& text);

}  // namespace imgaudit
