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

// Rules whose findings name, in their message, what each of their files lacks: shown as a second column.
// The Finding carries that only inside its message, so it is read back with the rule's message template.
const char* column_placeholder(const std::string& rule_id) { return rule_id == "needed-lib-missing" ? "libs" : nullptr; }

// The specifics of `f` read out of its message, nullopt when the message does not come from its template.
std::optional<std::map<std::string, std::string>> specifics(const Finding& f) {
  const Rule* rule = Catalog::builtin().find(f.id);
  if (!rule) return std::nullopt;
  return match_template(rule->message, f.message);
}

// The libraries a needed-lib-missing finding names; empty when its message does not say them in the catalog's words.
std::vector<std::string> column_values(const Finding& f) {
  const char* name = column_placeholder(f.id);
  if (!name) return {};
  auto vars = specifics(f);
  if (!vars || !vars->count(name) || vars->at(name).empty()) return {};
  return split(vars->at(name), ", ");
}

struct Block {
  std::string id;
  std::vector<const Finding*> findings;
  std::vector<const Finding*> consequences;  // findings caused by this rule's (Finding::caused_by), folded here
};

// The fix of a rule block, once: the findings' common advice; when their advices
// differ only in a placeholder's value, the catalog's template with the values they
// share and the general wording for the others; otherwise each distinct advice.
std::vector<std::string> block_advice(const Block& b) {
  std::vector<std::string> distinct;
  for (auto* f : b.findings)
    if (!f->advice.empty() && std::find(distinct.begin(), distinct.end(), f->advice) == distinct.end())
      distinct.push_back(f->advice);
  if (distinct.size() <= 1) return distinct;
  if (const Rule* rule = Catalog::builtin().find(b.id)) {
    for (auto& [key, tmpl] : rule->advice_templates) {
      std::vector<std::map<std::string, std::string>> all;
      for (auto& advice : distinct) {
        auto vars = match_template(tmpl, advice);
        if (!vars) break;
        all.push_back(*vars);
      }
      if (all.size() != distinct.size()) continue;
      std::map<std::string, std::string> shared = all.front();
      for (auto& vars : all)
        for (auto it = shared.begin(); it != shared.end();) {
          auto v = vars.find(it->first);
          it = v == vars.end() || v->second != it->second ? shared.erase(it) : std::next(it);
        }
      return {fill_template(tmpl, shared)};
    }
  }
  return distinct;
}

struct Counts {
  size_t shown[3] = {0, 0, 0};
  size_t folded[3] = {0, 0, 0};
};

std::string verdict(const Counts& c, const AuditReport& r) {
  auto part = [&](int sev, const char* name) {
    std::string s = std::to_string(c.shown[sev]) + name;
    if (c.folded[sev]) s += " (+" + plural(c.folded[sev], "consequence", "consequences") + ")";
    return s;
  };
  std::string s = part(2, " error(s)") + ", " + part(1, " warning(s)") + ", " + part(0, " info");
  if (!r.suppressed.empty()) s += ", " + std::to_string(r.suppressed.size()) + " ignored";
  return s;
}

void write_block(const Printer& p, const Block& b, const TextOptions& o, const Style& st) {
  std::ostream& out = p.out();
  const Rule* rule = Catalog::builtin().find(b.id);
  Severity sev = b.findings.front()->severity;
  for (auto* f : b.findings) sev = std::max(sev, f->severity);
  size_t files = 0;
  std::set<int> layers;
  for (auto* f : b.findings) files += f->paths.size(), layers.insert(f->layer);
  const bool single = b.findings.size() == 1;

  // The header: the finding's message, or for several the rule's title and how many files.
  std::string text;
  if (single) {
    text = printable(b.findings.front()->message);
  } else {
    text = rule ? rule->title + ":" : std::string();
    if (files)
      text += " " + plural(files, "file", "files") +
              (layers.size() > 1 ? " in " + std::to_string(layers.size()) + " layers" : "");
    else
      text += " " + std::to_string(b.findings.size()) + " findings";
    text = std::string(trim(text));
  }
  std::string lead = std::string(to_string(sev)) + " " + b.id + ": ";
  std::string lead_styled = std::string(st.sev(sev)) + to_string(sev) + st.reset() + " " + st.bold() + b.id +
                            st.reset() + ": ";
  p.wrapped(0, lead, lead_styled, text, "", "", 6);  // continued under the rule id: no column 0 inside a block

  // Files of the rule with a second column: file -> what it lacks, aligned over the whole block.
  bool columns = column_placeholder(b.id) != nullptr;
  std::map<const Finding*, std::vector<std::string>> lacks;
  for (auto* f : b.findings) {
    lacks[f] = column_values(*f);
    if (lacks[f].empty() && !f->paths.empty()) columns = false;
  }
  size_t path_column = 0;
  if (columns) {
    for (auto* f : b.findings)
      for (size_t i = 0; i < std::min(o.max_paths, f->paths.size()); ++i)
        path_column = std::max(path_column, display_width(printable(f->paths[i])));
    if (p.width()) path_column = std::min(path_column, p.width() > 8 ? (p.width() - 6) / 2 : size_t(1));
  }

  // Findings by where they came from: one layer line (and Dockerfile line) for each.
  using Origin = std::tuple<int, std::string, std::string, int, std::string>;
  std::vector<std::pair<Origin, std::vector<const Finding*>>> origins;
  for (auto* f : b.findings) {
    Origin key{f->layer, f->created_by, f->dockerfile ? f->dockerfile->file : "", f->dockerfile ? f->dockerfile->start_line : 0,
               f->dockerfile ? f->dockerfile->instruction : ""};
    auto it = std::find_if(origins.begin(), origins.end(), [&](auto& o2) { return o2.first == key; });
    if (it == origins.end()) origins.push_back({key, {}}), it = origins.end() - 1;
    it->second.push_back(f);
  }
  for (auto& [origin, findings] : origins) {
    const Finding& first = *findings.front();
    if (first.layer >= 0) p.dim(2, "layer " + std::to_string(first.layer) + ": ", printable(first.created_by));
    if (first.dockerfile)
      p.dim(2, printable(first.dockerfile->file) + ":" + std::to_string(first.dockerfile->start_line) + ": ",
            printable(first.dockerfile->instruction));
    for (auto* f : findings) {
      std::string python_note;
      if (columns) {
        if (auto vars = specifics(*f); vars && vars->count("python_note")) python_note = printable(trim(vars->at("python_note")));
      } else if (!single) {
        p.wrapped(4, "", "", printable(f->message), "", "", 6);  // the specifics of this finding are only in its message
      }
      size_t shown = std::min(o.max_paths, f->paths.size());
      for (size_t i = 0; i < shown; ++i) {
        std::string path = printable(f->paths[i]);
        if (!columns) {
          out << "    " << path << '\n';
          continue;
        }
        std::string libs = printable(join(lacks[f], ", "));
        size_t w = display_width(path);
        if (w <= path_column) {
          std::string lead = path + std::string(path_column - w + 2, ' ');
          p.wrapped(4, lead, lead, libs, "", "", 4 + path_column + 2);
        } else {  // too wide for the column: its libraries on the next line, in the column
          out << "    " << path << '\n';
          p.wrapped(4 + path_column + 2, "", libs);
        }
      }
      if (f->paths.size() > shown) out << "    and " << f->paths.size() - shown << " more\n";
      if (!python_note.empty()) p.wrapped(4, "", "", python_note, "", "", 6);
    }
  }

  // Findings that follow from the above (a shimmed glibc program's missing glibc libraries): counted, not repeated.
  if (!b.consequences.empty()) {
    std::vector<std::string> libs;
    bool known = true;
    for (auto* c : b.consequences) {
      auto l = column_values(*c);
      if (l.empty()) known = false;
      for (auto& lib : l)
        if (std::find(libs.begin(), libs.end(), lib) == libs.end()) libs.push_back(lib);
    }
    std::string findings = plural(b.consequences.size(), "needed-lib-missing finding", "needed-lib-missing findings");
    std::string note =
        known ? "and " + plural(libs.size(), "missing library", "missing libraries") +
                    " of the same programs, consequences of the above: " + printable(join(libs, ", ")) + " (" + findings +
                    ", in full in --format json)"
              : "and " + findings + " of the same programs, consequences of the above (in full in --format json)";
    p.wrapped(2, "", "", note, st.dim(), st.reset(), 4);
  }

  for (auto& advice : block_advice(b)) p.wrapped(2, "fix: ", safe_lines(advice));
  std::string more = "imgaudit explain " + b.id;
  if (rule && !rule->references.empty()) more += ", " + rule->references.front();
  p.dim(2, "more: ", more);
  out << '\n';
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
    blocks.push_back({id, {}, {}});
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

  if (!o.quiet && !r.findings.empty()) out << verdict(counts, r) << "\n\n";
  for (auto& b : blocks) write_block(p, b, o, st);

  if (!o.quiet) {
    for (auto& w : r.warnings) out << "note: " << printable(w) << '\n';
    if (!r.warnings.empty()) out << '\n';
    write_ignores(out, "Unused ignores, they matched no finding:", r.unused_ignores, false);
    write_ignores(out, "Expired ignores, no longer applied:", r.expired_ignores, true);
  }
  // Quiet keeps the summary, so a CI log ends with the counts, but says nothing of a clean image.
  if (!o.quiet || !r.findings.empty() || !r.suppressed.empty()) out << verdict(counts, r) << '\n';
}

}  // namespace imgaudit
