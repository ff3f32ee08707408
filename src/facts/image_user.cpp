// config.User as runc makes it a uid, a gid and supplementary groups (libcontainer/user, GetExecUser), and
// the exec permission the kernel grants that user.
#include <charconv>

#include "facts/start_facts.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// runc's range for ids given as numbers.
constexpr uint64_t kMaxId = 2147483647;

struct Account {
  std::string name;
  uint64_t id = 0, gid = 0;
  std::vector<std::string> members;  // /etc/group's fourth field
};

// A decimal number as Go's strconv.Atoi reads one (an optional sign is not an id), or nullopt.
std::optional<uint64_t> as_number(std::string_view s) {
  uint64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// passwd lines (name:x:uid:gid:...) or group lines (name:x:gid:members), as runc parses them: lines with
// too few fields or ids that are no numbers are skipped.
std::vector<Account> parse_accounts(const std::string* text, bool group) {
  std::vector<Account> out;
  if (!text) return out;
  for_each_line(*text, [&](std::string_view raw) {
    std::string_view line = trim(raw);
    if (line.empty() || line[0] == '#') return;
    auto f = split(line, ":");
    if (f.size() < (group ? 3u : 4u)) return;
    auto id = as_number(f[2]);
    auto gid = group ? id : as_number(f[3]);
    if (!id || !gid) return;
    Account a{f[0], *id, *gid, {}};
    if (group && f.size() > 3)
      for (auto& m : split(f[3], ",")) a.members.push_back(std::string(trim(m)));
    out.push_back(std::move(a));
  });
  return out;
}

}  // namespace

ImageUser resolve_user(const std::string& spec, const std::string* passwd, const std::string* group) {
  ImageUser u;
  u.spec = spec;
  auto colon = spec.find(':');
  std::string user_arg = spec.substr(0, colon);
  std::string group_arg = colon == std::string::npos ? "" : spec.substr(colon + 1);
  auto refuse = [&](const std::string& name, bool is_group) {
    u.known = false;
    u.unknown_name = name;
    u.unknown_is_group = is_group;
    u.error = is_group ? "unable to find group " + name + ": no matching entries in group file"
                       : "unable to find user " + name + ": no matching entries in passwd file";
    return u;
  };

  auto users = parse_accounts(passwd, false);
  auto uid_arg = as_number(user_arg);
  const Account* matched = nullptr;
  for (auto& a : users)  // the first match wins
    if (user_arg.empty() ? a.id == 0 : (uid_arg ? a.id == *uid_arg : a.name == user_arg)) {
      matched = &a;
      break;
    }
  if (matched) {
    u.uid = matched->id;
    u.gid = matched->gid;
  } else if (!user_arg.empty()) {
    if (!uid_arg) return refuse(user_arg, false);
    if (*uid_arg > kMaxId) return refuse(user_arg, false);
    u.uid = *uid_arg;
  }
  if (group_arg.empty() && !matched) return u;

  auto groups = parse_accounts(group, true);
  if (!group_arg.empty()) {
    auto gid_arg = as_number(group_arg);
    for (auto& g : groups)
      if (gid_arg ? g.id == *gid_arg : g.name == group_arg) {
        u.gid = g.id;
        return u;
      }
    if (!gid_arg || *gid_arg > kMaxId) return refuse(group_arg, true);
    u.gid = *gid_arg;
    return u;
  }
  for (auto& g : groups)  // supplementary groups come with a user named in passwd and no explicit group
    for (auto& m : g.members)
      if (m == matched->name) u.groups.push_back(g.id);
  return u;
}

bool may_execute(const ImageUser& user, uint32_t mode, uint64_t uid, uint64_t gid) {
  if (user.uid == 0) return (mode & 0111) != 0;
  if (user.uid == uid) return (mode & 0100) != 0;
  bool in_group = user.gid == gid;
  for (auto g : user.groups) in_group = in_group || g == gid;
  return (mode & (in_group ? 0010 : 0001)) != 0;
}

}  // namespace imgaudit
