// The text report: one block per rule (its fix once, then its files, each with
// its own specifics), consequences folded under their cause, prose wrapped to
// the terminal with a hanging indent, the verdict at the top and the bottom.
#include <algorithm>
#include <set>
#include <tuple>

#include "report/report.h"
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

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct Block {
  std::string id;
  const Rule* rule = nullptr;  // null for an id the catalog does not know (a report of another catalog)
  std::vector<const Finding*> findings;
  std::vector<const Finding*> consequences;  // findings caused by this rule's (Finding::caused_by), folded here
};

// The values of `f` for its rule's text-report column, "libs": what each of its files lacks; empty when the
// rule has no column or the finding no such list.
std::vector<std::string> column_values(const Rule* rule, const Finding& f) {
  if (!rule || rule->text_column.empty()) return {};
  auto it = f.values.find(rule->text_column);
  if (it == f.values.end()) return {};
  if (const auto* items = it->second.list()) return *items;
  return it->second.empty() ? std::vector<std::string>{} : std::vector<std::string>{it->second.shown()};
}

// The value `name` of every finding of `b`, where they all have one and it is the same.
FindingValues shared_values(const Block& b) {
  FindingValues shared = b.findings.front()->values;
  for (auto* f : b.findings)
    for (auto it = shared.begin(); it != shared.end();) {
      auto v = f->values.find(it->first);
      it = v == f->values.end() || v->second != it->second ? shared.erase(it) : std::next(it);
    }
  return shared;
}

// The fix of a rule block, once: the findings' common advice; when their advices come from one template
// with different values, that template with the values they share and the general wording for the
// others; otherwise each distinct advice.
std::vector<std::string> block_advice(const Block& b) {
  std::vector<std::string> distinct;
  for (auto* f : b.findings)
    if (!f->advice.empty() && std::find(distinct.begin(), distinct.end(), f->advice) == distinct.end())
      distinct.push_back(f->advice);
  if (distinct.size() <= 1 || !b.rule) return distinct;
  const std::string& key = b.findings.front()->advice_key;
  auto tmpl = b.rule->advice_templates.find(key);
  for (auto* f : b.findings)
    if (f->advice_key != key || f->advice.empty()) return distinct;
  if (tmpl == b.rule->advice_templates.end()) return distinct;
  return {render(*b.rule, tmpl->second, shared_values(b))};
}

// "against base.json: 2 new, 5 unchanged, 1 fixed", over the findings shown and folded alike.
std::string baseline_counts(const AuditReport& r) {
  const std::string against = "against " + printable(r.baseline->file) + ": ";
  if (!r.baseline->image_found) return against + "no report of this image there, every finding new";
  const size_t added = new_findings(r.findings);
  return against + std::to_string(added) + " new, " + std::to_string(r.findings.size() - added) + " unchanged, " +
         std::to_string(r.baseline->fixed.size()) + " fixed";
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

struct Counts {
  size_t shown[3] = {0, 0, 0};
  size_t folded[3] = {0, 0, 0};
};

// The counts of what is shown: below the display floor (--min-severity) a severity is not counted at all,
// rather than counted as none.
std::string verdict(const Counts& c, const AuditReport& r, Severity floor) {
  auto part = [&](int sev, const char* name) {
    std::string s = std::to_string(c.shown[sev]) + name;
    if (c.folded[sev]) s += " (+" + plural(c.folded[sev], "consequence", "consequences") + ")";
    return s;
  };
  std::string s = part(2, " error(s)");
  if (floor <= Severity::Warning) s += ", " + part(1, " warning(s)");
  if (floor <= Severity::Info) s += ", " + part(0, " info");
  if (!r.suppressed.empty()) s += ", " + std::to_string(r.suppressed.size()) + " ignored";
  if (r.baseline) s += "; " + baseline_counts(r);
  return s;
}

// The first line of a block: the finding's message, or for several the rule's title and how many files.
void write_block_header(const Printer& p, const Block& b, const Style& st) {
  Severity sev = b.findings.front()->severity;
  size_t files = 0;
  std::set<int> layers;
  for (auto* f : b.findings) sev = std::max(sev, f->severity), files += f->paths.size(), layers.insert(f->layer);
  std::string text;
  if (b.findings.size() == 1) {
    text = printable(b.findings.front()->message);
  } else {
    text = b.rule ? b.rule->title + ":" : std::string();
    if (files)
      text += " " + plural(files, "file", "files") +
              (layers.size() > 1 ? " in " + std::to_string(layers.size()) + " layers" : "");
    else
      text += " " + std::to_string(b.findings.size()) + " findings";
    text = std::string(trim(text));
  }
  const std::string mark = new_mark(b.findings);
  std::string lead = std::string(to_string(sev)) + " " + b.id + mark + ": ";
  std::string lead_styled = std::string(st.sev(sev)) + to_string(sev) + st.reset() + " " + st.bold() + b.id +
                            st.reset() + mark + ": ";
  p.wrapped(0, lead, lead_styled, text, "", "", 6);  // continued under the rule id: no column 0 inside a block
}

// The files of a block, each with what it lacks beside it when the rule has a text-report column
// (needed-lib-missing's libraries), aligned over the whole block.
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
      for (size_t i = 0; i < std::min(o.max_paths, f->paths.size()); ++i)
        path_column_ = std::max(path_column_, display_width(printable(f->paths[i])));
    if (p.width()) path_column_ = std::min(path_column_, p.width() > 8 ? (p.width() - 6) / 2 : size_t(1));
  }

  // The finding's own message when the block's header cannot say it, its files, and its note.
  void write(const Finding& f) const {
    if (!columns_ && b_.findings.size() > 1)
      p_.wrapped(4, "", "", printable(f.message), "", "", 6);  // the specifics of this finding
    size_t shown = std::min(o_.max_paths, f.paths.size());
    for (size_t i = 0; i < shown; ++i) write_path(f, printable(f.paths[i]));
    if (f.paths.size() > shown) p_.out() << "    and " << f.paths.size() - shown << " more\n";
    if (columns_ && !b_.rule->text_note.empty()) {
      auto shown_values_of = shown_values(*b_.rule, f.values);
      auto note = shown_values_of.find(b_.rule->text_note);
      if (note != shown_values_of.end() && !trim(note->second).empty())
        p_.wrapped(4, "", "", printable(trim(note->second)), "", "", 6);
    }
  }

 private:
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
};

// Findings by where they came from: one layer line (and Dockerfile line) for each, then their files.
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
  for (auto& [origin, findings] : origins) {
    const Finding& first = *findings.front();
    if (first.layer >= 0) p.dim(2, "layer " + std::to_string(first.layer) + ": ", printable(first.created_by));
    if (first.dockerfile)
      p.dim(2, printable(first.dockerfile->file) + ":" + std::to_string(first.dockerfile->start_line) + ": ",
            printable(first.dockerfile->instruction));
    for (auto* f : findings) files.write(*f);
  }
}

// Findings that follow from the block's (a shimmed glibc program's missing glibc libraries): counted, not
// repeated.
void write_consequences(const Printer& p, const Block& b, const Style& st) {
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
  std::string findings = plural(b.consequences.size(), (id + " finding").c_str(), (id + " findings").c_str());
  std::string note =
      known ? "and " + plural(libs.size(), "missing library", "missing libraries") +
                  " of the same programs, consequences of the above: " + printable(join(libs, ", ")) + " (" + findings +
                  ", in full in --format json)"
            : "and " + findings + " of the same programs, consequences of the above (in full in --format json)";
  p.wrapped(2, "", "", note, st.dim(), st.reset(), 4);
}

void write_block(const Printer& p, const Block& b, const TextOptions& o, const Style& st) {
  write_block_header(p, b, st);
  write_origins(p, b, o);
  write_consequences(p, b, st);
  for (auto& advice : block_advice(b)) p.wrapped(2, "fix: ", safe_lines(advice));
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

  std::vector<Block> blocks;
  auto block_for = [&](const std::string& id) -> Block& {
    for (auto& b : blocks)
      if (b.id == id) return b;
    blocks.push_back({id, Catalog::builtin().find(id), {}, {}});
    return blocks.back();
  };
  // Consequences (Finding::caused_by) go under their cause's block, when the report has that cause.
  std::set<std::string> ids;
  for (auto& f : r.findings) ids.insert(f.id);
  std::vector<const Finding*> folded;
  Counts counts;
  for (auto& f : r.findings) {
    if (!f.caused_by.empty() && ids.count(f.caused_by)) {
      folded.push_back(&f);
      ++counts.folded[static_cast<int>(f.severity)];
    } else {
      block_for(f.id).findings.push_back(&f);
      ++counts.shown[static_cast<int>(f.severity)];
    }
  }
  for (auto* f : folded) block_for(f->caused_by).consequences.push_back(f);

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
