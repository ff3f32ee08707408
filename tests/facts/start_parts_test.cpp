// The parts of the start checks: binfmt_script's reading of "#!" lines, runc's reading of USER, the kernel's
// exec permission, and the commands a `sh -c` script runs.
#include <gtest/gtest.h>

#include "facts/shell_words.h"
#include "facts/start_facts.h"
#include "layer/layer_facts.h"
#include "util/limits.h"

namespace imgaudit {
namespace {

TEST(Shebang, InterpreterAndOneArgumentAsTheKernelSplitsThem) {
  auto s = parse_shebang(script_head("#!/bin/sh\necho hi\n"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->interpreter, "/bin/sh");
  EXPECT_FALSE(s->argument);

  s = parse_shebang(script_head("#! \t/usr/bin/env  python3 -u  \nprint(1)\n"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->interpreter, "/usr/bin/env");
  EXPECT_EQ(s->argument, "python3 -u");  // one argument, inner spaces kept, trailing ones trimmed
}

TEST(Shebang, ACarriageReturnIsPartOfTheName) {
  auto s = parse_shebang(script_head("#!/bin/sh\r\necho hi\r\n"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->interpreter, "/bin/sh\r");
  s = parse_shebang(script_head("#!/usr/bin/env bash\r\n"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->argument, "bash\r");
}

TEST(Shebang, NoInterpreterNamedIsExecFormat) {
  EXPECT_FALSE(parse_shebang(script_head("#!\n")));
  EXPECT_FALSE(parse_shebang(script_head("#! \t \n")));
  EXPECT_FALSE(parse_shebang(script_head("#/bin/sh\n")));
  EXPECT_FALSE(parse_shebang(script_head("")));
}

TEST(Shebang, AFileWithoutNewlineEndsItsLineWhereTheFileEnds) {
  auto s = parse_shebang(script_head("#!/bin/sh"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->interpreter, "/bin/sh");
}

TEST(Shebang, ANameLongerThanTheBufferIsRefusedAnArgumentIsCut) {
  std::string long_name = "#!/" + std::string(kShebangBufferBytes, 'a') + "\n";
  EXPECT_FALSE(parse_shebang(script_head(long_name)));
  std::string long_arg = "#!/bin/sh " + std::string(kShebangBufferBytes, 'x') + "\n";
  auto s = parse_shebang(script_head(long_arg));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->interpreter, "/bin/sh");
  ASSERT_TRUE(s->argument);
  EXPECT_EQ(s->argument->size(), kShebangBufferBytes - 1 - std::string("#!/bin/sh ").size());
  ASSERT_TRUE(s->before_51);
  EXPECT_EQ(s->before_51->interpreter, "/bin/sh");
  EXPECT_EQ(s->before_51->argument->size(), kShebangBufferBytesBefore51 - 1 - std::string("#!/bin/sh ").size());
}

// Kernels before 5.1 (fs/binfmt_script.c of 4.19): a 128-byte buffer whose last byte is zeroed, the line cut
// there without a word.
TEST(Shebang, KernelsBefore51ReadTheFirst127BytesOfTheLine) {
  const std::string fits = "#!/bin/sh " + std::string(127 - 10, 'x') + "\n";
  auto s = parse_shebang(script_head(fits));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->line_bytes, 127u);
  EXPECT_FALSE(s->before_51) << "127 bytes fit";

  const std::string name = "/opt/" + std::string(130, 'n') + "/python3";
  s = parse_shebang(script_head("#!" + name + "\n"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->interpreter, name);
  EXPECT_EQ(s->line_bytes, name.size() + 2);
  ASSERT_TRUE(s->before_51);
  EXPECT_EQ(s->before_51->interpreter, name.substr(0, 125));
  EXPECT_FALSE(s->before_51->argument);
  EXPECT_EQ(s->before_51->text(), "#!" + name.substr(0, 125));

  // The blanks before the cut are dropped, and the argument with them.
  s = parse_shebang(script_head("#!/bin/sh" + std::string(120, ' ') + "-e\n"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->argument, "-e");
  ASSERT_TRUE(s->before_51);
  EXPECT_EQ(s->before_51->interpreter, "/bin/sh");
  EXPECT_FALSE(s->before_51->argument);

  // Trailing blanks are no part of the line: the same for both.
  s = parse_shebang(script_head("#!/bin/sh" + std::string(200, ' ') + "\n"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->line_bytes, 9u);
  EXPECT_FALSE(s->before_51);

  // No name within the old buffer: those kernels said ENOEXEC.
  s = parse_shebang(script_head("#!" + std::string(130, ' ') + "/bin/sh\n"));
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->before_51);
  EXPECT_EQ(s->before_51->interpreter, "");
}

TEST(Shebang, ANulEndsTheName) {
  auto s = parse_shebang(script_head(std::string("#!/bin/sh\0junk\n", 15)));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->interpreter, "/bin/sh");
  EXPECT_FALSE(s->argument);
}

TEST(ScriptHead, KeepsTheFirstLineWithinTheBuffer) {
  EXPECT_EQ(script_head("#!/bin/sh\nrest\n"), "#!/bin/sh\n");
  EXPECT_EQ(script_head(std::string(1000, 'a')).size(), kShebangBufferBytes);
}

const std::string kPasswd =
    "root:x:0:0:root:/root:/bin/sh\n"
    "app:x:1000:1000::/home/app:/sbin/nologin\n"
    "broken line\n"
    "svc:x:notanumber:1::/:/bin/sh\n";
const std::string kGroup =
    "root:x:0:root\n"
    "app:x:1000:\n"
    "staff:x:50:app,other\n"
    "audio:x:63:other\n";

TEST(ImageUser, NamesComeFromPasswdNumbersNeedNoEntry) {
  auto u = resolve_user("app", &kPasswd, &kGroup);
  EXPECT_TRUE(u.known);
  EXPECT_EQ(u.uid, 1000u);
  EXPECT_EQ(u.gid, 1000u);
  EXPECT_EQ(u.groups, std::vector<uint64_t>{50});  // staff lists app

  u = resolve_user("4242", &kPasswd, &kGroup);
  EXPECT_TRUE(u.known);
  EXPECT_EQ(u.uid, 4242u);
  EXPECT_EQ(u.gid, 0u);

  u = resolve_user("", &kPasswd, &kGroup);
  EXPECT_TRUE(u.known);
  EXPECT_EQ(u.uid, 0u);
}

TEST(ImageUser, AnUnknownNameIsRunsError) {
  auto u = resolve_user("nobody-here", &kPasswd, &kGroup);
  EXPECT_FALSE(u.known);
  EXPECT_EQ(u.error, "unable to find user nobody-here: no matching entries in passwd file");
  u = resolve_user("svc", &kPasswd, &kGroup);  // its line has no numeric uid: runc skips it
  EXPECT_FALSE(u.known);
  u = resolve_user("app", nullptr, nullptr);  // no /etc/passwd at all
  EXPECT_FALSE(u.known);
  u = resolve_user("1000:nogroup", &kPasswd, &kGroup);
  EXPECT_FALSE(u.known);
  EXPECT_TRUE(u.unknown_is_group);
  EXPECT_EQ(u.error, "unable to find group nogroup: no matching entries in group file");
}

TEST(ImageUser, AnExplicitGroupReplacesTheSupplementaryOnes) {
  auto u = resolve_user("app:audio", &kPasswd, &kGroup);
  EXPECT_TRUE(u.known);
  EXPECT_EQ(u.gid, 63u);
  EXPECT_TRUE(u.groups.empty());
  u = resolve_user("1000:77", &kPasswd, &kGroup);
  EXPECT_EQ(u.gid, 77u);
}

TEST(ExecPermission, OwnerGroupOthersAndRoot) {
  ImageUser root;
  EXPECT_TRUE(may_execute(root, 0001, 5, 5));
  EXPECT_FALSE(may_execute(root, 0644, 0, 0));
  ImageUser app = resolve_user("app", &kPasswd, &kGroup);
  EXPECT_TRUE(may_execute(app, 0700, 1000, 0));
  EXPECT_FALSE(may_execute(app, 0077, 1000, 1000));  // the owner's bits decide for the owner
  EXPECT_TRUE(may_execute(app, 0750, 0, 50));         // staff, a supplementary group
  EXPECT_FALSE(may_execute(app, 0750, 0, 63));
  EXPECT_TRUE(may_execute(app, 0755, 0, 63));
}

TEST(ShellWords, TheCommandsThatSurelyRun) {
  using V = std::vector<std::string>;
  EXPECT_EQ(commands_a_shell_runs("curl -f http://localhost/ || exit 1"), V{"curl"});
  EXPECT_EQ(commands_a_shell_runs("FOO=1 exec nginx -g 'daemon off;'"), V{"nginx"});
  EXPECT_EQ(commands_a_shell_runs("set -e; python3 -m app 2>&1 | tee /tmp/log"), (V{"python3", "tee"}));
  EXPECT_EQ(commands_a_shell_runs("test -x /x && /usr/bin/app >/dev/null"), V{"/usr/bin/app"});
  EXPECT_EQ(commands_a_shell_runs("exec -- gunicorn app:app"), V{"gunicorn"});
}

TEST(ShellWords, StopsWhereItCannotBeSure) {
  using V = std::vector<std::string>;
  EXPECT_EQ(commands_a_shell_runs("if [ -f x ]; then app; fi"), V{});
  EXPECT_EQ(commands_a_shell_runs("$CMD --serve"), V{});
  EXPECT_EQ(commands_a_shell_runs("\"quoted\" arg"), V{});
  EXPECT_EQ(commands_a_shell_runs("cd /srv && ./run.sh"), V{});
  EXPECT_EQ(commands_a_shell_runs("command -v curl && curl x"), V{"curl"});
  EXPECT_EQ(commands_a_shell_runs("f() { app; }; f"), V{});
  EXPECT_EQ(commands_a_shell_runs("a || b"), V{"a"});
  EXPECT_EQ(commands_a_shell_runs("cat <<EOF\nx\nEOF"), V{"cat"});
  EXPECT_EQ(commands_a_shell_runs("echo $(date)"), V{});  // the substitution stops it: echo is a builtin
}

TEST(ShellWords, ShellScriptOfAnArgv) {
  EXPECT_EQ(shell_script_of({"/bin/sh", "-c", "echo hi"}), "echo hi");
  EXPECT_EQ(shell_script_of({"bash", "-ec", "x"}), "x");
  EXPECT_FALSE(shell_script_of({"/bin/sh", "/entrypoint.sh"}));
  EXPECT_FALSE(shell_script_of({"python3", "-c", "print(1)"}));
  // A long option is no cluster of short ones: "--norc" holds a 'c' and is not -c (its script would be "-c").
  EXPECT_FALSE(shell_script_of({"bash", "--norc", "-c", "x"}));
}

}  // namespace
}  // namespace imgaudit
