// What the runtime executes when the container starts, resolved as runc (Entrypoint + Cmd, PATH lookup
// with Go's exec.LookPath, the working folder) and the kernel (execve's permission check, binfmt_script,
// its nesting limit) would, over the merged view of the image: nothing of the image runs.
#include "facts/start_facts.h"

#include <cstdio>

#include "facts/image_facts.h"
#include "facts/shell_words.h"
#include "util/limits.h"
#include "util/paths.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// What Docker puts in a container's environment when the image sets no PATH.
constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

std::string mode_text(uint32_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", mode & 07777);
  return buf;
}

class StartResolver {
 public:
  StartResolver(const ImageInfo& image, const FsView& view, const ImageUser& user)
      : view_(view), user_(user) {
    workdir_ = image.working_dir;
    auto path = image.env_value("PATH");
    path_dirs_ = split(path ? *path : kDefaultPath, ":");
    if (path_dirs_.size() > kMaxPathEntriesSearched) path_dirs_.resize(kMaxPathEntriesSearched);
  }

  StartCheck check(std::string what, std::vector<std::string> argv) {
    StartCheck c;
    execs_ = 0;
    c.what = std::move(what);
    c.argv = std::move(argv);
    // The steps keep the image's strings as they are: each report makes them safe to show.
    if (!exec_name(c, c.argv[0], false)) return c;
    if (auto script = shell_script_of(c.argv)) check_shell_words(c, *script);
    return c;
  }

 private:
  bool fail(StartCheck& c, StartProblem p, std::string path, std::string error, std::string step) {
    c.problem = p;
    c.problem_path = std::move(path);
    bool interpreter = p == StartProblem::InterpreterMissing || p == StartProblem::CrlfShebang;
    c.file_at_fault = interpreter && !c.last_script.empty() ? display_path(c.last_script) : c.problem_path;
    c.error = std::move(error);
    if (!step.empty()) c.steps.push_back(std::move(step));
    return false;
  }

  // The image path `given` names from the working folder (resolve() takes ".." after each symlink).
  std::string from_workdir(const std::string& given) const {
    if (!given.empty() && given[0] == '/') return given.substr(1);
    return workdir_.empty() || workdir_ == "/" ? given : (workdir_[0] == '/' ? workdir_.substr(1) : workdir_) + "/" + given;
  }

  // A file on PATH as Go's exec.LookPath (runc) and execvp find one: the first that is no folder and
  // that the user may execute. `skipped`: those passed over for want of an x bit, or symlinks that lead
  // nowhere.
  std::optional<std::string> look_path(const std::string& name, std::vector<std::string>& skipped) const {
    for (const auto& dir : path_dirs_) {
      std::string candidate = from_workdir((dir.empty() ? "." : dir) + "/" + name);
      const Node* n = view_.lookup(candidate);
      if (!n && symlink_at(candidate)) skipped.push_back(candidate);
      if (!n || n->type == EntryType::Dir) continue;
      if (may_execute(user_, n->mode, n->uid, n->gid)) return candidate;
      skipped.push_back(candidate);
    }
    return std::nullopt;
  }

  // argv[0] of an exec (or env's NAME, or a word a shell runs): on PATH when it has no '/'.
  bool exec_name(StartCheck& c, const std::string& name, bool by_shell) {
    if (name.find('/') != std::string::npos) return exec_file(c, from_workdir(name), 0, by_shell);
    std::vector<std::string> skipped;
    auto found = look_path(name, skipped);
    std::string step = "`" + name + "` on PATH";
    if (!found) {
      if (!skipped.empty() && symlink_at(skipped.front()))
        return fail(c, StartProblem::NotFound, name, by_shell ? "not found" : "executable file not found in $PATH",
                    step + ": " + dangling(skipped.front()));
      if (!skipped.empty()) {
        const Node* n = view_.lookup(skipped.front());
        c.layer = n->layer;
        return fail(c, StartProblem::NotExecutable, display_path(skipped.front()),
                    "executable file not found in $PATH", step + ": " + display_path(skipped.front()) + " is mode " +
                                                            mode_text(n->mode) + ", not executable for uid " +
                                                            std::to_string(user_.uid));
      }
      bool crlf = ends_with(name, "\r");
      return fail(c, crlf ? StartProblem::CrlfShebang : StartProblem::NotFound, name,
                  by_shell ? "not found" : "executable file not found in $PATH", step + ": absent");
    }
    c.steps.push_back(step);
    return exec_file(c, *found, 0, by_shell);
  }

  // The symlink `path` names (its folders followed, not its last component), or nullptr.
  const Node* symlink_at(const std::string& path) const {
    const Node* link = view_.find(view_.resolve(path, false).value_or(path));
    return link && link->type == EntryType::Symlink ? link : nullptr;
  }
  // The step for `path`, a symlink that leads nowhere.
  std::string dangling(const std::string& path) const {
    return display_path(path) + " → symlink to " + symlink_at(path)->link + ", which does not resolve";
  }

  // The script `real` (node `n`), whose line kernels before 5.1 read otherwise, and what they would say.
  ShebangCut cut_line(const std::string& real, const Node& n, const Shebang& shebang) const {
    ShebangCut cut{real, n.layer, shebang, ""};
    const std::string& name = shebang.before_51->interpreter;
    if (name.empty()) cut.error_before_51 = "exec format error";
    else if (auto found = view_.resolve(from_workdir(name)); !found || !view_.find(*found))
      cut.error_before_51 = "no such file or directory";
    return cut;
  }
  bool exec_file(StartCheck& c, const std::string& path, int depth, bool by_shell);
  bool exec_script(StartCheck& c, const std::string& real, const Node& n, int depth, bool by_shell);
  bool exec_env_name(StartCheck& c, const std::string& argument);
  void check_shell_words(StartCheck& c, const std::string& script);

  const FsView& view_;
  const ImageUser& user_;
  std::string workdir_;
  std::vector<std::string> path_dirs_;
  int execs_ = 0;  // files executed so far for the command checked (kMaxStartExecs)
};

// One execve of `path` (an image path), and of the interpreters its "#!" line leads to; `depth` counts
// the scripts before it. A failure at depth 0 is the command's own, past it its interpreter's.
bool StartResolver::exec_file(StartCheck& c, const std::string& path, int depth, bool by_shell) {
  if (++execs_ > kMaxStartExecs)  // env naming itself loops for ever in a container too: the image does not tell
    return fail(c, StartProblem::Unknown, display_path(path), "",
                "more than " + std::to_string(kMaxStartExecs) + " programs executed on the way");
  auto real = view_.resolve(path);
  const Node* n = real ? view_.find(*real) : nullptr;
  if (n) c.layer = n->layer;
  if (!n) {
    std::string why = symlink_at(path) ? dangling(path) : display_path(path) + " absent";
    StartProblem p = depth == 0 ? StartProblem::NotFound
                     : ends_with(path, "\r") ? StartProblem::CrlfShebang : StartProblem::InterpreterMissing;
    return fail(c, p, display_path(path), by_shell ? "not found" : "no such file or directory", why);
  }
  c.steps.push_back(*real == path ? display_path(path) : display_path(path) + " → " + display_path(*real) + " (symlink)");
  if (n->type == EntryType::Dir)
    return fail(c, depth == 0 ? StartProblem::IsDirectory : StartProblem::NotExecutable, display_path(*real),
                depth == 0 ? "is a directory" : "permission denied", "a folder");
  if (n->type != EntryType::File)
    return fail(c, StartProblem::NotExecutable, display_path(*real), "permission denied", "not a regular file");
  if (!may_execute(user_, n->mode, n->uid, n->gid))
    return fail(c, StartProblem::NotExecutable, display_path(*real), "permission denied",
                "mode " + mode_text(n->mode) + ", owner " + std::to_string(n->uid) + ":" + std::to_string(n->gid) +
                    ": not executable for uid " + std::to_string(user_.uid));
  if (n->elf) {
    c.programs.push_back(*real);
    return true;
  }
  if (n->elf_error) return fail(c, StartProblem::Unknown, display_path(*real), "", "an ELF file not inspected");
  if (n->script_head) return exec_script(c, *real, *n, depth, by_shell);
  // A shell runs a file the kernel refuses (ENOEXEC) as a shell script.
  if (by_shell) return true;
  return fail(c, StartProblem::ExecFormat, display_path(*real), "exec format error", "neither ELF nor a #! script");
}

bool StartResolver::exec_script(StartCheck& c, const std::string& real, const Node& n, int depth, bool by_shell) {
  if (n.script_head->empty()) return fail(c, StartProblem::Unknown, display_path(real), "", "its #! line not kept");
  auto shebang = parse_shebang(*n.script_head);
  if (!shebang) {
    if (by_shell) return true;
    return fail(c, StartProblem::ExecFormat, display_path(real), "exec format error",
                "a #! line that names no interpreter the kernel reads");
  }
  c.last_script = real;
  c.steps.push_back(shebang->text());
  if (shebang->before_51 && !c.cut_before_51) c.cut_before_51 = cut_line(real, n, *shebang);
  if (depth >= kKernelScriptDepth)
    return fail(c, StartProblem::TooDeep, display_path(real), "too many levels of symbolic links",
                "scripts nested more than " + std::to_string(kKernelScriptDepth) + " deep");
  // The kernel opens the interpreter from the working folder when its name is relative.
  if (!exec_file(c, from_workdir(shebang->interpreter), depth + 1, by_shell)) return false;
  if (base_name(shebang->interpreter) == "env" && shebang->argument) return exec_env_name(c, *shebang->argument);
  return true;
}

// `#!/usr/bin/env NAME`: env execs NAME from PATH (`env -S "NAME ARGS"` splits it first). An argument
// that is an option or an assignment is not followed.
bool StartResolver::exec_env_name(StartCheck& c, const std::string& argument) {
  std::string name = argument;
  if (starts_with(argument, "-S")) {
    name.clear();
    for (auto& word : split_words(argument.substr(2)))
      if (word.find('=') == std::string::npos && !starts_with(word, "-")) {
        name = word;
        break;
      }
  }
  if (name.empty() || starts_with(name, "-") || name.find('=') != std::string::npos) return true;
  if (exec_name(c, name, false)) return true;
  if (c.problem == StartProblem::NotFound) c.problem = StartProblem::InterpreterMissing;
  c.file_at_fault = display_path(c.last_script);
  if (c.problem == StartProblem::InterpreterMissing || c.problem == StartProblem::CrlfShebang ||
      c.problem == StartProblem::NotExecutable)
    c.error = "env: '" + name + "': " +
              (c.problem == StartProblem::NotExecutable ? "Permission denied" : "No such file or directory");
  return false;
}

// The commands a `sh -c` script runs first, each looked up as the shell would (shell_words.h).
void StartResolver::check_shell_words(StartCheck& c, const std::string& script) {
  auto words = commands_a_shell_runs(script);
  if (words.size() > kMaxShellCommandsChecked) words.resize(kMaxShellCommandsChecked);
  for (const auto& word : words) {
    StartCheck inner;
    if (exec_name(inner, word, true)) {
      c.programs.insert(c.programs.end(), inner.programs.begin(), inner.programs.end());
      if (!c.cut_before_51) c.cut_before_51 = std::move(inner.cut_before_51);
      continue;
    }
    if (inner.problem == StartProblem::Unknown) continue;
    c.steps.push_back("the shell runs `" + word + "`");
    c.steps.insert(c.steps.end(), inner.steps.begin(), inner.steps.end());
    c.problem = inner.problem;
    c.problem_path = inner.problem_path;
    c.file_at_fault = inner.file_at_fault;
    c.error = inner.problem == StartProblem::NotFound ? "sh: " + word + ": not found" : inner.error;
    c.layer = inner.layer;
    return;
  }
}

// Whether the image was set up to run rather than to be built on: it exposes ports or has a healthcheck,
// or its history has a USER, ENV or EXPOSE instruction (Docker's "#(nop) " form or BuildKit's). A base such
// as distroless sets a User and an Env without instructions of the kind, and has no command by design.
bool meant_to_run(const ImageInfo& image) {
  if (!image.exposed_ports.empty() || !image.healthcheck.empty()) return true;
  for (const auto& entry : image.history) {
    auto it = entry.find("created_by");
    if (it == entry.end() || !it->is_string()) continue;
    std::string_view step = it->get_ref<const std::string&>();
    if (auto nop = step.find("#(nop)"); nop != std::string_view::npos) step = trim(step.substr(nop + 6));
    for (const char* keyword : {"USER ", "ENV ", "EXPOSE "})
      if (starts_with(step, keyword)) return true;
  }
  return false;
}

// The healthcheck's argv as Docker runs it: CMD as given, CMD-SHELL through config.Shell (sh -c).
std::optional<std::vector<std::string>> healthcheck_argv(const ImageInfo& image) {
  const auto& test = image.healthcheck;
  if (test.empty() || test[0] == "NONE") return std::nullopt;
  if (test[0] == "CMD" && test.size() > 1) return std::vector<std::string>(test.begin() + 1, test.end());
  if (test[0] == "CMD-SHELL" && test.size() > 1) {
    std::vector<std::string> argv = image.shell.empty() ? std::vector<std::string>{"/bin/sh", "-c"} : image.shell;
    argv.push_back(test[1]);
    return argv;
  }
  return std::nullopt;
}

}  // namespace

const char* to_string(StartProblem p) {
  switch (p) {
    case StartProblem::None: return "none";
    case StartProblem::NotFound: return "not-found";
    case StartProblem::NotExecutable: return "not-executable";
    case StartProblem::IsDirectory: return "is-directory";
    case StartProblem::InterpreterMissing: return "interpreter-missing";
    case StartProblem::CrlfShebang: return "crlf-shebang";
    case StartProblem::ExecFormat: return "exec-format";
    case StartProblem::TooDeep: return "too-deep";
    case StartProblem::Unknown: return "unknown";
  }
  return "unknown";
}

StartFacts resolve_start(const ImageInfo& image, const FsView& view) {
  StartFacts s;
  if (image.from_folder) return s;
  s.checked = true;
  auto text = [&](const char* path) {
    const Node* n = view.lookup(path);
    return n && n->type == EntryType::File ? n->text : nullptr;
  };
  s.user = resolve_user(image.user, text("etc/passwd"), text("etc/group"));
  s.meant_to_run = meant_to_run(image);
  if (!s.user.known) return s;  // runc stops there: nothing is executed
  StartResolver resolver(image, view, s.user);
  std::vector<std::string> argv = image.entrypoint;
  argv.insert(argv.end(), image.cmd.begin(), image.cmd.end());
  if (!argv.empty()) s.command = resolver.check("command", argv);
  if (auto health = healthcheck_argv(image)) s.healthcheck = resolver.check("healthcheck", *health);
  return s;
}

}  // namespace imgaudit
