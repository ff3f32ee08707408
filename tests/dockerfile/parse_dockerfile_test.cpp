// The Dockerfile parser: continuations, the escape directive, heredocs, JSON form, stages, errors.
#include <gtest/gtest.h>

#include "dockerfile/dockerfile.h"
#include "test_support.h"
#include "util/error.h"

namespace imgaudit {
namespace {

std::string parse_error(const std::string& text) {
  try {
    parse_dockerfile(text, "Dockerfile");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ParseDockerfile, ContinuationsSkipCommentsAndBlankLines) {
  Dockerfile df = parse_dockerfile(
      "FROM alpine:3.20\n"
      "RUN apk add \\\n"
      "    # the tools\n"
      "    curl \\   \n"
      "\n"
      "    jq\n"
      "  # trailing comment\n"
      "ENV A=1\n",
      "Dockerfile");
  ASSERT_EQ(df.instructions.size(), 3u);
  const Instruction& run = df.instructions[1];
  EXPECT_EQ(run.keyword, "RUN");
  EXPECT_EQ(run.first_line, 2);
  EXPECT_EQ(run.last_line, 6);
  EXPECT_EQ(collapse_whitespace(run.args), "apk add curl jq");
  EXPECT_EQ(run.text(), "RUN apk add curl jq");
  EXPECT_EQ(df.instructions[2].first_line, 8);
  EXPECT_EQ(df.instructions[2].last_line, 8);
}

TEST(ParseDockerfile, EscapeDirectiveChangesTheContinuationCharacter) {
  Dockerfile df = parse_dockerfile(
      "# escape=`\n"
      "FROM windows/servercore\n"
      "RUN dir `\n"
      "    c:\\\n"
      "COPY a.txt c:\\app\\\n",
      "Dockerfile");
  EXPECT_EQ(df.escape, '`');
  ASSERT_EQ(df.instructions.size(), 3u);
  EXPECT_EQ(df.instructions[1].first_line, 3);
  EXPECT_EQ(df.instructions[1].last_line, 4);
  EXPECT_EQ(df.instructions[1].text(), "RUN dir c:\\");
  EXPECT_EQ(df.instructions[2].first_line, 5);
  EXPECT_EQ(df.instructions[2].args, "a.txt c:\\app\\");
}

TEST(ParseDockerfile, DirectivesOnlyOpenTheFile) {
  Dockerfile df = parse_dockerfile("# a comment\n# escape=`\nFROM alpine\nRUN a \\\n b\n", "Dockerfile");
  EXPECT_EQ(df.escape, '\\');
  EXPECT_EQ(df.instructions[1].last_line, 5);
  EXPECT_NE(parse_error("# escape=x\nFROM alpine\n").find("Dockerfile:1: escape must be"), std::string::npos);
}

TEST(ParseDockerfile, HeredocsBelongToTheirInstruction) {
  Dockerfile df = parse_dockerfile(
      "FROM alpine\n"
      "RUN <<EOF\n"
      "apk add curl\n"
      "FROM is not an instruction here\n"
      "EOF\n"
      "COPY <<-\"CONF\" /etc/app.conf\n"
      "\tkey=value\n"
      "\tCONF\n"
      "RUN cat <<<word && echo done\n"
      "USER app\n",
      "Dockerfile");
  ASSERT_EQ(df.instructions.size(), 5u);
  const Instruction& run = df.instructions[1];
  EXPECT_EQ(run.first_line, 2);
  EXPECT_EQ(run.last_line, 5);
  EXPECT_EQ(run.heredocs, std::vector<std::string>{"apk add curl\nFROM is not an instruction here\n"});
  const Instruction& copy = df.instructions[2];
  EXPECT_EQ(copy.first_line, 6);
  EXPECT_EQ(copy.last_line, 8);
  EXPECT_EQ(copy.heredocs, std::vector<std::string>{"key=value\n"});
  EXPECT_TRUE(df.instructions[3].heredocs.empty());  // a here-string is no heredoc
  EXPECT_EQ(df.instructions[3].last_line, 9);
  EXPECT_EQ(df.instructions[4].keyword, "USER");
  EXPECT_EQ(df.instructions[4].first_line, 10);
  EXPECT_EQ(df.stages.size(), 1u);
}

TEST(ParseDockerfile, TwoHeredocsOnOneLine) {
  Dockerfile df = parse_dockerfile("FROM alpine\nCOPY <<A <<B /dst/\na\nA\nb\nB\nUSER x\n", "Dockerfile");
  EXPECT_EQ(df.instructions[1].heredocs, (std::vector<std::string>{"a\n", "b\n"}));
  EXPECT_EQ(df.instructions[1].last_line, 6);
  EXPECT_EQ(df.instructions[2].first_line, 7);
}

TEST(ParseDockerfile, JsonAndShellForms) {
  Dockerfile df = parse_dockerfile(
      "FROM alpine\n"
      "CMD [\"app\", \"--serve\", \"8080\"]\n"
      "ENTRYPOINT [\"app\", 1]\n"
      "RUN [\"sh\", \\\n  \"-c\", \"make\"]\n",
      "Dockerfile");
  ASSERT_TRUE(df.instructions[1].exec_form);
  EXPECT_EQ(*df.instructions[1].exec_form, (std::vector<std::string>{"app", "--serve", "8080"}));
  EXPECT_FALSE(df.instructions[2].exec_form);  // not all strings: the shell form, as the builders read it
  ASSERT_TRUE(df.instructions[3].exec_form);
  EXPECT_EQ(*df.instructions[3].exec_form, (std::vector<std::string>{"sh", "-c", "make"}));
}

TEST(ParseDockerfile, StagesFlagsAndArgsBeforeFrom) {
  Dockerfile df = parse_dockerfile(
      "ARG GO=1.22\n"
      "FROM --platform=$BUILDPLATFORM golang:${GO} AS Build\n"
      "RUN --mount=type=cache,target=/root/.cache go build -o /out/app\n"
      "from alpine:3.20\n"
      "copy --from=build --chown=app:app /out/app /app\n",
      "Dockerfile");
  ASSERT_EQ(df.stages.size(), 2u);
  EXPECT_EQ(df.stages[0].name, "build");
  EXPECT_EQ(df.stages[0].base, "golang:${GO}");
  EXPECT_EQ(df.stages[0].from, 1u);
  EXPECT_EQ(df.stages[1].name, "");
  EXPECT_EQ(df.stages[1].base, "alpine:3.20");
  EXPECT_EQ(df.instructions[0].stage, -1);
  EXPECT_EQ(df.instructions[1].flag("platform"), "$BUILDPLATFORM");
  EXPECT_EQ(df.instructions[2].stage, 0);
  EXPECT_EQ(df.instructions[2].flag("mount"), "type=cache,target=/root/.cache");
  EXPECT_EQ(df.instructions[2].args, "go build -o /out/app");
  const Instruction& copy = df.instructions[4];
  EXPECT_EQ(copy.keyword, "COPY");
  EXPECT_EQ(copy.stage, 1);
  EXPECT_EQ(copy.flag("from"), "build");
  EXPECT_EQ(copy.flag("chown"), "app:app");
  EXPECT_FALSE(copy.flag("link"));
  EXPECT_EQ(copy.text(), "COPY --from=build --chown=app:app /out/app /app");
}

TEST(ParseDockerfile, EnvNames) {
  Dockerfile df = parse_dockerfile(
      "FROM alpine\nENV TZ=\"Asia/Ho Chi Minh\" A=1 B='x y' C=a\\ b\nENV LEGACY some value\n", "Dockerfile");
  EXPECT_EQ(env_names(df.instructions[1]), (std::set<std::string>{"A", "B", "C", "TZ"}));
  EXPECT_EQ(env_names(df.instructions[2]), std::set<std::string>{"LEGACY"});
}

TEST(ParseDockerfile, MalformedInputSaysWhereAndWhy) {
  EXPECT_EQ(parse_error("FROM alpine\nRUNN make\n"), "Dockerfile:2: unknown instruction: RUNN");
  EXPECT_EQ(parse_error("# hello\nRUN make\nFROM alpine\n"),
            "Dockerfile:2: RUN before the first FROM: only ARG may come before it");
  EXPECT_EQ(parse_error("ARG X=1\n# nothing else\n"), "Dockerfile: no FROM instruction: not a Dockerfile");
  EXPECT_EQ(parse_error(""), "Dockerfile: no FROM instruction: not a Dockerfile");
  EXPECT_EQ(parse_error("FROM alpine\nRUN <<EOF\necho\n"), "Dockerfile:2: heredoc <<EOF is never closed");
  EXPECT_EQ(parse_error("FROM alpine as\n"), "Dockerfile:1: FROM takes an image and an optional `AS name`, not: alpine as");
  EXPECT_EQ(parse_error("FROM alpine\nCOPY onlyone\n"), "Dockerfile:2: COPY needs a source and a destination");
  EXPECT_EQ(parse_error("FROM alpine\nUSER\n"), "Dockerfile:2: USER needs arguments");
  EXPECT_EQ(parse_error("FROM \v\f\v\n"), "Dockerfile:1: FROM needs arguments");  // found by fuzz.dockerfile
}

TEST(ReadDockerfile, UnreadableFilesAreOneLineErrors) {
  test::TempDir tmp;
  try {
    read_dockerfile(tmp / "missing");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read Dockerfile " + tmp / "missing" + ": No such file or directory");
  }
  try {
    read_dockerfile(tmp.path());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read Dockerfile " + tmp.path() + ": is a folder");
  }
  test::write_file(tmp / "Dockerfile", "FROM alpine\r\nRUN echo hi\r\n");
  Dockerfile df = read_dockerfile(tmp / "Dockerfile");
  EXPECT_EQ(df.path, tmp / "Dockerfile");
  EXPECT_EQ(df.instructions[1].args, "echo hi");
}

}  // namespace
}  // namespace imgaudit
