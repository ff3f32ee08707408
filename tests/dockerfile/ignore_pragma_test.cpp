// `# imgaudit ignore=ID[,ID] reason` comments: read with the instruction below them, refused where they
// would apply to nothing or say no reason.
#include <gtest/gtest.h>

#include "dockerfile/dockerfile.h"
#include "util/error.h"

namespace imgaudit {
namespace {

std::string app_dockerfile_error(const std::string& text) {
  try {
    parse_dockerfile(text, "app/Dockerfile");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(IgnorePragma, BelongsToTheInstructionDirectlyBelow) {
  Dockerfile df = parse_dockerfile(
      "# imgaudit ignore=runs-as-root the base's FROM line\n"                          // 1
      "FROM alpine:3.20\n"                                                             // 2
      "# imgaudit ignore=interpreter-missing,needed-lib-missing   glibc via gcompat  \n"  // 3
      "# a plain comment between\n"                                                    // 4
      "  #imgaudit ignore=exec-stack\tvendored blob\n"                                 // 5
      "COPY app /usr/local/bin/app\n"                                                  // 6
      "# imgaudit is run in CI; this is no pragma\n"                                   // 7
      "# imgaudit ignores nothing here either\n"                                       // 8
      "RUN apk add gcompat\n",                                                         // 9
      "app/Dockerfile");
  ASSERT_EQ(df.instructions.size(), 3u);
  const auto& from = df.instructions[0].ignore_pragmas;
  ASSERT_EQ(from.size(), 1u);
  EXPECT_EQ(from[0].line, 1);
  EXPECT_EQ(from[0].ids, std::vector<std::string>{"runs-as-root"});
  EXPECT_EQ(from[0].reason, "the base's FROM line");

  const auto& copy = df.instructions[1].ignore_pragmas;
  ASSERT_EQ(copy.size(), 2u);
  EXPECT_EQ(copy[0].line, 3);
  EXPECT_EQ(copy[0].ids, (std::vector<std::string>{"interpreter-missing", "needed-lib-missing"}));
  EXPECT_EQ(copy[0].reason, "glibc via gcompat");
  EXPECT_EQ(copy[1].line, 5);
  EXPECT_EQ(copy[1].ids, std::vector<std::string>{"exec-stack"});
  EXPECT_EQ(copy[1].reason, "vendored blob");
  EXPECT_TRUE(df.instructions[2].ignore_pragmas.empty());
}

TEST(IgnorePragma, WithoutAReasonOrMalformedIsAnErrorNamingFileAndLine) {
  EXPECT_EQ(app_dockerfile_error("FROM alpine\n# imgaudit ignore=exec-stack\nRUN make\n"),
            "app/Dockerfile:2: imgaudit ignore=exec-stack needs a reason after the rule ids: # imgaudit ignore=ID[,ID] reason");
  EXPECT_EQ(app_dockerfile_error("FROM alpine\n# imgaudit ignore=exec-stack   \nRUN make\n"),
            "app/Dockerfile:2: imgaudit ignore=exec-stack needs a reason after the rule ids: # imgaudit ignore=ID[,ID] reason");
  EXPECT_EQ(app_dockerfile_error("FROM alpine\n\n# imgaudit ignore exec-stack because\nRUN make\n"),
            "app/Dockerfile:3: malformed imgaudit pragma: expected # imgaudit ignore=ID[,ID] reason (rule ids separated by "
            "commas, no spaces)");
  EXPECT_EQ(app_dockerfile_error("FROM alpine\n# imgaudit ignore=exec-stack, runs-as-root why\nRUN make\n"),
            "app/Dockerfile:2: malformed imgaudit pragma: expected # imgaudit ignore=ID[,ID] reason (rule ids separated by "
            "commas, no spaces)");
  EXPECT_EQ(app_dockerfile_error("FROM alpine\n# imgaudit ignore= why\nRUN make\n"),
            "app/Dockerfile:2: malformed imgaudit pragma: expected # imgaudit ignore=ID[,ID] reason (rule ids separated by "
            "commas, no spaces)");
}

TEST(IgnorePragma, NotDirectlyAboveAnInstructionIsAnError) {
  EXPECT_EQ(app_dockerfile_error("FROM alpine\n# imgaudit ignore=exec-stack why\n\nRUN make\n"),
            "app/Dockerfile:2: the imgaudit ignore pragma is not directly above an instruction");
  EXPECT_EQ(app_dockerfile_error("FROM alpine\nRUN make\n# imgaudit ignore=exec-stack why\n"),
            "app/Dockerfile:3: the imgaudit ignore pragma is not directly above an instruction");
  EXPECT_EQ(app_dockerfile_error("FROM alpine\nRUN make \\\n# imgaudit ignore=exec-stack why\n  install\n"),
            "app/Dockerfile:3: the imgaudit ignore pragma is inside an instruction's continuation lines: put it above the "
            "instruction");
  // In a heredoc it is the script's text, not a comment of the Dockerfile.
  Dockerfile df = parse_dockerfile("FROM alpine\nRUN <<EOF\n# imgaudit ignore=exec-stack\nmake\nEOF\n", "app/Dockerfile");
  EXPECT_TRUE(df.instructions[1].ignore_pragmas.empty());
}

}  // namespace
}  // namespace imgaudit
