// The text report: one block per rule (its fix once, then its files, each with
// its own specifics), consequences folded under their cause, prose wrapped to
// the terminal with a hanging indent, the verdict at the top and the bottom.
#include <algorithm>
#include <set>
#include <tuple>

#include "report/finding_blocks.h"
#include "report/report.h"
#include "report/path_groups.h"
#include "report/text_layout.h"
#include "rules/catalog.h"
#include "util/human_size.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

struct Style {
  bool on;
  const char* sev(Severity s) const {
    if (!on) return "";
    return s == Severity::Error ? "\033[1;31m" : s == Severity::Warning ? "\033[1;33m" : "\033[1;36m";
  }
  const char* dim() const { return on ? "\033[2m" : ""; }
  const char* bold() const { return on ? "\033[1m" : ""; }
  const char* reset() const { return on ? "\033[0m" : ""; }
};

// Advice keeps the catalog's line breaks (runs-as-root's "RUN ...\nUSER app"), each line made safe.
std::string safe_lines(std::string_view s) {
  std::string out;
  for_each_line(s, [&](std::string_view line) {
    if (!out.empty()) out += '\n';
    out += printable(line);
  });
  return out;
}

class Printer {
 public:
  Printer(std::ostream& out, size_t width, const Style& st) : out_(out), width_(width), st_(st) {}

  // `lead` (already shown as `lead_styled`) at `indent`, then `text` wrapped; its
  // further lines start under the text after the lead (a hanging indent), or at
  // indent + 4 when that would leave too little room. `text` must be terminal-safe;
  // a '\n' in it starts a new line at the hanging indent.
  void wrapped(size_t indent, const std::string& lead, const std::string& lead_styled, const std::string& text,
               const char* on = "", const char* off = "", size_t hang = std::string::npos) const {
    if (hang == std::string::npos) {
      hang = indent + display_width(lead);
      if (width_ && hang > width_ / 3) hang = indent + 4;
    }
    size_t first = width_ ? room(indent + display_width(lead)) : 0;
    auto lines = wrap_words(text, first, width_ ? room(hang) : 0);
    for (size_t i = 0; i < lines.size(); ++i) {
      out_ << std::string(i == 0 ? indent : hang, ' ');
      if (i == 0) out_ << lead_styled;
      if (!lines[i].empty() || i == 0) out_ << on << lines[i] << off;
      out_ << '\n';
    }
  }
  void wrapped(size_t indent, const std::string& lead, const std::string& text) const {
    wrapped(indent, lead, lead, text);
  }
  void dim(size_t indent, const std::string& lead, const std::string& text) const {
    wrapped(indent, lead, st_.dim() + lead, text, st_.dim(), st_.reset());
  }
  size_t width() const { return width_; }
  size_t room(size_t used) const { return width_ > used + 10 ? width_ - used : 10; }
  std::ostream& out() const { return out_; }

 private:
  std::ostream& out_;
  size_t width_;
  const Style& st_;
};

void write_header(std::ostream& out, const AuditReport& r, const Style& st) {
  const auto& f = r.facts;
  out << st.bold() << printable(f.image.source) << st.reset() << '\n';
  const ImageIdentity& id = f.image.identity;
  if (id.transport == "docker" || id.transport == "podman")
    out << "  source    " << (id.transport == "docker" ? "the local Docker Engine" : "Podman") << " at "
        << printable(id.engine) << '\n';
  else if (id.transport == "registry")
    out << "  source    the registry\n";
  for (const std::string& miss : f.image.passed_over) out << "  not in    " << printable(miss) << '\n';
  if (!id.image_id.empty()) out << "  image ID  " << printable(id.image_id) << '\n';
  if (!id.repo_tags.empty()) out << "  tags      " << printable(join(id.repo_tags, ", ")) << '\n';
  if (!id.repo_digests.empty()) out << "  digests   " << printable(join(id.repo_digests, ", ")) << '\n';
  if (!f.image.manifest_digest.empty()) out << "  digest    " << printable(f.image.manifest_digest) << '\n';
  if (!f.image.platform.architecture.empty()) out << "  platform  " << printable(f.image.platform.str()) << '\n';
  std::string distro = f.distro.pretty_name.empty() ? f.distro.id : f.distro.pretty_name;
  out << "  distro    " << (distro.empty() ? "unknown" : printable(distro)) << '\n';
  out << "  libc      " << to_string(f.libc.family) << (f.libc.version.empty() ? "" : " " + printable(f.libc.version));
  for (auto& s : f.libc.shims) out << " (+" << printable(s) << ")";
  out << '\n';
  uint64_t compressed = 0, uncompressed = 0;
  for (auto& l : f.image.layers) compressed += l.compressed_size, uncompressed += l.uncompressed_size;
  if (!f.image.layers.empty())
    out << "  layers    " << f.image.layers.size() << " (" << human_size(compressed) << " compressed, "
        << human_size(uncompressed) << " uncompressed)\n";
  out << "  ELF files " << f.binaries.size() << '\n';
  out << '\n';
}

// Ignores listed after the findings: unused ones, expired ones.
void write_ignores(std::ostream& out, const char* title, const nlohmann::json& ignores, bool expired) {
  if (!ignores.is_array() || ignores.empty()) return;
  out << title << '\n';
  for (auto& ig : ignores) {
    auto field = [&](const char* key) { return printable(ig.value(key, ""), 200); };
    out << "  " << field("id");
    if (!field("path").empty()) out << " path " << field("path");
    if (!field("image").empty()) out << " image " << field("image");
    if (!field("expires").empty()) out << (expired ? " expired after " : " until ") << field("expires");
    out << " (" << field("origin") << ": " << field("reason") << ")\n";
  }
  out << '\n';
}

// The values of `f` for its rule's text-report column, "libs": what each of its files lacks; empty when the
// rule has no column or the finding no such list.
std::vector<std::string> column_values(const Rule* rule, const Finding& f) {
  if (!rule || rule->text_column.empty()) return {};
  auto it = f.values.find(rule->text_column);
  if (it == f.values.end()) return {};
  if (const auto* items = it->second.list()) return *items;
  return it->second.empty() ? std::vector<std::string>{} : std::vector<std::string>{it->second.shown()};
}

// " (new)", " (2 new)" after a block's rule id when a baseline was given; "" otherwise.
std::string new_mark(const std::vector<const Finding*>& findings) {
  size_t added = 0;
  for (auto* f : findings) added += f->baseline == BaselineState::New;
  if (!added) return "";
  return added == findings.size() ? " (new)" : " (" + std::to_string(added) + " new)";
}

// What the baseline had that this report lacks: the first few, a line each.
void write_fixed(std::ostream& out, const AuditReport& r, size_t listed) {
  if (!r.baseline || r.baseline->fixed.empty()) return;
  out << "Fixed since " << printable(r.baseline->file) << ":\n";
  const auto& fixed = r.baseline->fixed;
  for (size_t i = 0; i < std::min(listed, fixed.size()); ++i) {
    out << "  " << to_string(fixed[i].severity) << ' ' << printable(fixed[i].id);
    if (!fixed[i].paths.empty()) out << ": " << printable(fixed[i].paths.front());
    if (fixed[i].paths.size() > 1) out << " and " << fixed[i].paths.size() - 1 << " more";
    out << '\n';
  }
  if (fixed.size() > listed) out << "  and " << fixed.size() - listed << " more (--format json for all)\n";
  out << '\n';
}

// The first line of a block: the finding's message, or for several the rule's title, how many findings
// (what the verdict counts) and how many files.
void write_block_header(const Printer& p, const Block& b, const Style& st) {
  const Severity sev = b.severity;
  const size_t files = files_of(b.findings);
  std::set<int> layers;
  for (auto* f : b.findings) layers.insert(f->layer);
  std::string text;
  if (b.findings.size() == 1) {
    text = printable(b.findings.front()->message);
  } else {
    text = (b.rule ? b.rule->title + ": " : std::string()) + plural(b.findings.size(), "finding", "findings");
    if (files)
      text += ", " + plural(files, "file", "files") +
              (layers.size() > 1 ? " in " + std::to_string(layers.size()) + " layers" : "");
  }
  const std::string mark = new_mark(b.findings);
  std::string lead = std::string(to_string(sev)) + " " + b.id + mark + ": ";
  std::string lead_styled = std::string(st.sev(sev)) + to_string(sev) + st.reset() + " " + st.bold() + b.id +
                            st.reset() + mark + ": ";
  p.wrapped(0, lead, lead_styled, text, "", "", 6);  // continued under the rule id: no column 0 inside a block
}

// A folder's line: the lead "/usr/bin/ (212 files): " and its names "a, b, c, ... and 209 more"; for a
// folder with one file, its path as the names and no lead.
std::pair<std::string, std::string> folder_line(const FolderGroup& g) {
  if (g.files == 1 && g.first.size() == 1) return {"", printable(g.folder + g.first.front())};
  std::vector<std::string> names;
  for (auto& name : g.first) names.push_back(printable(name));
  std::string listed = join(names, ", ");
  if (g.files > g.first.size()) listed += ", ... and " + std::to_string(g.files - g.first.size()) + " more";
  return {printable(g.folder) + " (" + plural(g.files, "file", "files") + "): ", listed};
}

// The files of a block, each with what it lacks beside it when the rule has a text-report column
// (needed-lib-missing's libraries), aligned over the whole block; a finding's many files by folder.
class FileLines {
 public:
  FileLines(const Printer& p, const Block& b, const TextOptions& o) : p_(p), b_(b), o_(o) {
    columns_ = b.rule && !b.rule->text_column.empty();
    for (auto* f : b.findings) {
      lacks_[f] = column_values(b.rule, *f);
      if (lacks_[f].empty() && !f->paths.empty()) columns_ = false;
    }
    if (!columns_) return;
    for (auto* f : b.findings)
      if (listed_one_a_line(*f))
        for (auto& path : f->paths) path_column_ = std::max(path_column_, display_width(printable(path)));
    if (p.width()) path_column_ = std::min(path_column_, p.width() > 8 ? (p.width() - 6) / 2 : size_t(1));
  }

  // Findings from another layer next: each says its specifics again.
  void next_origin() { said_ = nullptr; }

  // The finding's own message when the block's header cannot say it, its files, and its note.
  void write(const Finding& f) {
    // The specifics of this finding, unless the finding before said the same.
    if (!columns_ && b_.findings.size() > 1 && (!said_ || said_->message != f.message))
      p_.wrapped(4, "", "", printable(f.message), "", "", 6);
    said_ = &f;
    if (listed_one_a_line(f))
      for (auto& path : f.paths) write_path(f, printable(path));
    else
      write_folders(f);
    if (columns_ && !b_.rule->text_note.empty()) {
      auto shown_values_of = shown_values(*b_.rule, f.values);
      auto note = shown_values_of.find(b_.rule->text_note);
      if (note != shown_values_of.end() && !trim(note->second).empty())
        p_.wrapped(4, "", "", printable(trim(note->second)), "", "", 6);
    }
  }

 private:
  bool listed_one_a_line(const Finding& f) const { return f.paths.size() <= o_.max_paths; }

  // The first folders (the fullest first) with their first names; under what they lack with a column.
  void write_folders(const Finding& f) {
    size_t indent = 4;
    if (columns_ && b_.findings.size() > 1) {  // one finding's header says what it lacks
      p_.wrapped(4, "", "", printable(join(lacks_.at(&f), ", ")) + " (" + plural(f.paths.size(), "file", "files") + "):",
                 "", "", 6);
      indent = 6;
    }
    const auto groups = group_by_folder(f.paths, std::max<size_t>(o_.max_names, 1));
    const size_t shown = std::min(o_.max_folders, groups.size());
    size_t rest = f.paths.size();
    told_ = told_ || shown < groups.size();  // the line of the folders left out says it
    for (size_t i = 0; i < shown; ++i) {
      rest -= groups[i].files;
      auto [lead, names] = folder_line(groups[i]);
      if (!told_ && groups[i].files > groups[i].first.size()) names += " (--format json for all)", told_ = true;
      p_.wrapped(indent, lead, names);
    }
    if (shown < groups.size())
      p_.wrapped(indent, "", "and " + std::to_string(rest) + " more in " +
                                 plural(groups.size() - shown, "folder", "folders") + " (--format json for all)");
  }

  void write_path(const Finding& f, const std::string& path) const {
    if (!columns_) {
      p_.out() << "    " << path << '\n';
      return;
    }
    std::string libs = printable(join(lacks_.at(&f), ", "));
    size_t w = display_width(path);
    if (w <= path_column_) {
      std::string lead = path + std::string(path_column_ - w + 2, ' ');
      p_.wrapped(4, lead, lead, libs, "", "", 4 + path_column_ + 2);
    } else {  // too wide for the column: its libraries on the next line, in the column
      p_.out() << "    " << path << '\n';
      p_.wrapped(4 + path_column_ + 2, "", libs);
    }
  }

  const Printer& p_;
  const Block& b_;
  const TextOptions& o_;
  bool columns_ = false;
  std::map<const Finding*, std::vector<std::string>> lacks_;
  size_t path_column_ = 0;
  const Finding* said_ = nullptr;  // the finding written last under the current origin
  bool told_ = false;  // the block said where to find every file ("--format json for all")
};

// Findings by where they came from: one layer line (and Dockerfile line) for each, then their files; the
// first few findings, then how many more.
void write_origins(const Printer& p, const Block& b, const TextOptions& o) {
  using Origin = std::tuple<int, std::string, std::string, int, std::string>;
  std::vector<std::pair<Origin, std::vector<const Finding*>>> origins;
  for (auto* f : b.findings) {
    Origin key{f->layer, f->created_by, f->dockerfile ? f->dockerfile->file : "", f->dockerfile ? f->dockerfile->start_line : 0,
               f->dockerfile ? f->dockerfile->instruction : ""};
    auto it = std::find_if(origins.begin(), origins.end(), [&](auto& o2) { return o2.first == key; });
    if (it == origins.end()) origins.push_back({key, {}}), it = origins.end() - 1;
    it->second.push_back(f);
  }
  FileLines files(p, b, o);
  size_t shown = 0, shown_files = 0;
  for (auto& [origin, findings] : origins) {
    if (shown == o.max_findings) break;
    const Finding& first = *findings.front();
    files.next_origin();
    if (first.layer >= 0) p.dim(2, "layer " + std::to_string(first.layer) + ": ", printable(first.created_by));
    if (first.dockerfile)
      p.dim(2, printable(first.dockerfile->file) + ":" + std::to_string(first.dockerfile->start_line) + ": ",
            printable(first.dockerfile->instruction));
    for (size_t i = 0; i < findings.size() && shown < o.max_findings; ++i, ++shown) {
      files.write(*findings[i]);
      shown_files += findings[i]->paths.size();
    }
  }
  if (shown == b.findings.size()) return;
  const size_t more_files = files_of(b.findings) - shown_files;
  p.wrapped(2, "", "and " + plural(b.findings.size() - shown, "more finding", "more findings") +
                       (more_files ? ", " + plural(more_files, "file", "files") : "") + " (--format json for all)");
}

// Findings that follow from the block's (a shimmed glibc program's missing glibc libraries): counted, not
// repeated; the first few libraries named.
void write_consequences(const Printer& p, const Block& b, const TextOptions& o, const Style& st) {
  if (b.consequences.empty()) return;
  const std::string& id = b.consequences.front()->id;
  const Rule* rule = Catalog::builtin().find(id);
  std::vector<std::string> libs;
  bool known = true;
  for (auto* c : b.consequences) {
    auto l = column_values(rule, *c);
    if (l.empty()) known = false;
    for (auto& lib : l)
      if (std::find(libs.begin(), libs.end(), lib) == libs.end()) libs.push_back(lib);
  }
  const size_t named = std::min(libs.size(), o.max_folded_libs);
  std::string listed = join(std::vector<std::string>(libs.begin(), libs.begin() + named), ", ");
  if (named < libs.size()) listed += " and " + std::to_string(libs.size() - named) + " more";
  std::string findings = plural(b.consequences.size(), (id + " finding").c_str(), (id + " findings").c_str());
  std::string note =
      known ? "and " + plural(libs.size(), "missing library", "missing libraries") +
                  " of the same programs, consequences of the above: " + printable(listed) + " (" + findings +
                  ", in full in --format json)"
            : "and " + findings + " of the same programs, consequences of the above (in full in --format json)";
  p.wrapped(2, "", "", note, st.dim(), st.reset(), 4);
}

// The block's fixes, each once, the first few.
void write_fixes(const Printer& p, const Block& b, const TextOptions& o) {
  const auto fixes = block_advice(b);
  for (size_t i = 0; i < std::min(fixes.size(), o.max_fixes); ++i) p.wrapped(2, "fix: ", safe_lines(fixes[i]));
  if (fixes.size() > o.max_fixes)
    p.wrapped(2, "", "and " + plural(fixes.size() - o.max_fixes, "more fix", "more fixes") +
                         " for the other findings (--format json for all)");
}

void write_block(const Printer& p, const Block& b, const TextOptions& o, const Style& st) {
  write_block_header(p, b, st);
  write_origins(p, b, o);
  write_consequences(p, b, o, st);
  write_fixes(p, b, o);
  std::string more = "imgaudit explain " + b.id;
  if (b.rule && !b.rule->references.empty()) more += ", " + b.rule->references.front();
  p.dim(2, "more: ", more);
  p.out() << '\n';
}

}  // namespace

void write_text(std::ostream& out, const AuditReport& r, const TextOptions& o) {
  Style st{o.color};
  Printer p(out, o.width, st);
  if (!o.quiet) write_header(out, r, st);

  Counts counts;
  const std::vector<Block> blocks = make_blocks(r, counts);

  if (!o.quiet && !r.findings.empty()) out << verdict(counts, r, o.floor) << "\n\n";
  for (auto& b : blocks) write_block(p, b, o, st);

  if (!o.quiet) {
    for (auto& w : r.warnings) out << "note: " << printable(w) << '\n';
    if (!r.warnings.empty()) out << '\n';
    write_ignores(out, "Unused ignores, they matched no finding:", r.unused_ignores, false);
    write_ignores(out, "Expired ignores, no longer applied:", r.expired_ignores, true);
    write_fixed(out, r, o.max_fixed);
  }
  // Quiet keeps the summary, so a CI log ends with the counts, but says nothing of an image with no finding
  // shown (none at or above the display floor, or only ignored ones).
  if (!o.quiet || !r.findings.empty()) out << verdict(counts, r, o.floor) << '\n';
}

}  // namespace imgaudit
