#include "layer/fs_view.h"

#include <deque>

#include "util/paths.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {


Node dir_node(int layer) {
  Node n;
  n.type = EntryType::Dir;
  n.mode = 0755;
  n.layer = layer;
  return n;
}

const Node& root_node() {
  static const Node root = dir_node(0);
  return root;
}

std::string child_path(const std::string& dir, std::string_view name) {
  return dir.empty() ? std::string(name) : dir + "/" + std::string(name);
}

template <class Map, class T>
const T* find_in(const Map& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

}  // namespace

// Whether `path` is `dir` or lies under it.
bool FsView::under(const std::string& path, const std::string& dir) {
  return dir.empty() || (starts_with(path, dir) && (path.size() == dir.size() || path[dir.size()] == '/'));
}

void FsView::erase_subtree(const std::string& dir, bool keep_dir) {
  if (under(placed_parent_, dir)) placed_parent_.clear();
  if (dir.empty()) {
    nodes_.clear();
    return;
  }
  if (!keep_dir) nodes_.erase(dir);
  // Every key under "dir/" sorts in ["dir/", "dir0"): '0' follows '/'.
  std::string lo = dir + "/", hi = dir + "0";
  nodes_.erase(nodes_.lower_bound(lo), nodes_.lower_bound(hi));
}

// Makes every ancestor of `path` a directory (implied parents replace
// non-directories), writing through symlinked parents as a runtime's
// extraction does. Returns where `path` lands.
std::string FsView::place(const std::string& path, int layer) {
  std::string parent = parent_dir(path);
  if (parent.empty()) return path;
  // A layer lists a folder's files one after another: their folder is resolved once.
  if (parent == placed_parent_) return path;
  if (auto real = resolve(parent)) {
    const Node* n = find(*real);
    if (n && n->type == EntryType::Dir) {
      if (*real == parent) placed_parent_ = parent;
      return child_path(*real, base_name(path));
    }
  }
  size_t i = 0;
  while ((i = path.find('/', i)) != std::string::npos) {
    std::string dir = path.substr(0, i++);
    auto it = nodes_.find(dir);
    if (it != nodes_.end() && it->second.type == EntryType::Dir) continue;
    erase_subtree(dir, false);
    nodes_[dir] = dir_node(layer);
  }
  placed_parent_ = parent;  // every folder on the way is now one, at its own path
  return path;
}

// Only a directory has nodes under it: place() makes every node's parent one. A folder on placed_parent_'s
// path stays one unless replaced, whose erase_subtree forgets placed_parent_.
void FsView::set(const std::string& path, Node node) {
  auto it = nodes_.lower_bound(path);
  if (it == nodes_.end() || it->first != path) {
    nodes_.emplace_hint(it, path, std::move(node));
    return;
  }
  // A directory over a directory merges; anything else over a directory hides what was in it.
  if (it->second.type == EntryType::Dir && node.type != EntryType::Dir) erase_subtree(path, true);
  it->second = std::move(node);
}

void FsView::apply(const LayerFacts& layer, int index) {
  for (const OverLimit& o : layer.over_limit) left_out_.push_back({index, o});
  if (layer.over_limit_unlisted) left_out_unlisted_[index] += layer.over_limit_unlisted;
  for (const auto& dir : layer.opaque_dirs) erase_subtree(dir, true);
  for (const auto& path : layer.whiteouts) erase_subtree(path, false);
  for (const auto& dir : layer.opaque_dirs) {
    const Node* n = find(dir);
    if (!n || n->type != EntryType::Dir) put(dir, dir_node(index));
  }

  for (const auto& e : layer.entries) {
    Node node;
    if (e.type == EntryType::Hardlink) {
      auto target = resolve(e.link, false);
      const Node* t = target ? find(*target) : nullptr;
      if (!t || t->type == EntryType::Dir) continue;  // the runtime could not link it either
      node = *t;
    } else {
      node.type = e.type;
      node.mode = e.mode;
      node.uid = e.uid;
      node.gid = e.gid;
      node.size = e.size;
      node.link = e.link;
      if (auto elf = layer.elves.find(e.path); elf != layer.elves.end()) node.elf = elf->second;
      node.text = find_in<decltype(layer.texts), std::string>(layer.texts, e.path);
      node.blob = find_in<decltype(layer.blobs), std::string>(layer.blobs, e.path);
      node.elf_error = find_in<decltype(layer.elf_errors), ElfError>(layer.elf_errors, e.path);
      node.script_head = find_in<decltype(layer.script_heads), std::string>(layer.script_heads, e.path);
    }
    node.layer = index;
    set(place(e.path, index), node);
  }
}

void FsView::put(const std::string& path, Node node) {
  if (path.empty()) return;
  set(place(path, node.layer), node);
}

const Node* FsView::find(const std::string& path) const {
  if (path.empty()) return &root_node();
  auto it = nodes_.find(path);
  return it == nodes_.end() ? nullptr : &it->second;
}

std::optional<std::string> FsView::resolve(const std::string& path, bool follow_last) const {
  std::deque<std::string> todo;
  auto push_front = [&todo](std::string_view p) {
    std::deque<std::string> parts;
    size_t i = 0;
    while (i <= p.size()) {
      size_t j = p.find('/', i);
      if (j == std::string_view::npos) j = p.size();
      if (j > i) parts.emplace_back(p.substr(i, j - i));
      i = j + 1;
    }
    todo.insert(todo.begin(), parts.begin(), parts.end());
  };
  push_front(path);

  std::string cur;
  int links = 0;
  while (!todo.empty()) {
    std::string c = std::move(todo.front());
    todo.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      cur = parent_dir(cur);
      continue;
    }
    const Node* dir = find(cur);
    if (!dir || dir->type != EntryType::Dir) return std::nullopt;
    std::string next = child_path(cur, c);
    const Node* n = find(next);
    if (!n) return std::nullopt;
    if (n->type == EntryType::Symlink && (follow_last || !todo.empty())) {
      if (++links > kMaxSymlinkHops) return std::nullopt;
      if (!n->link.empty() && n->link[0] == '/') cur.clear();
      push_front(n->link);
      continue;
    }
    cur = std::move(next);
  }
  return cur;
}

const Node* FsView::lookup(const std::string& path) const {
  auto real = resolve(path);
  return real ? find(*real) : nullptr;
}

std::vector<std::string> FsView::list_dir(const std::string& dir) const {
  std::vector<std::string> names;
  auto real = resolve(dir);
  if (!real) return names;
  const Node* n = find(*real);
  if (!n || n->type != EntryType::Dir) return names;
  std::string prefix = real->empty() ? std::string() : *real + "/";
  auto it = nodes_.lower_bound(prefix);
  while (it != nodes_.end() && starts_with(it->first, prefix)) {
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    size_t slash = rest.find('/');
    if (slash == std::string_view::npos) {
      if (!rest.empty()) names.emplace_back(rest);
      ++it;
    } else {
      // A grandchild: skip the rest of that child's subtree, ["name/", "name0").
      it = nodes_.lower_bound(prefix + std::string(rest.substr(0, slash)) + "0");
    }
  }
  return names;
}

}  // namespace imgaudit
