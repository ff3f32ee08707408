#pragma once
// What the kernel does with a container's command: the image unpacked into a folder and the command
// executed there in a chroot, as the config's user, the way runc does it (PATH lookup, then execve).
// Code of the image runs only here, in a test, inside that chroot, and is killed after a moment.
#include <string>
#include <vector>

#include "test_support.h"
#include "writer/image_writer.h"

namespace imgaudit::test {

struct ExecOutcome {
  int exec_errno = 0;    // what execve (or the PATH lookup: ENOENT) failed with; 0: the program started
  int exit_status = -1;  // when it started and ended within the wait: its exit status; -1 still running
  std::string output;    // what it wrote (stdout and stderr), when it ended
  bool started() const { return exec_errno == 0; }
};

// Why execution in a chroot cannot be tried here (not root), for GTEST_SKIP; "" when it can.
std::string why_no_chroot();

// The layers of `spec` unpacked, bottom-up, into tmp/NAME (owners and modes kept); returns the folder.
std::string unpack_image(const TempDir& tmp, const ImageSpec& spec, const std::string& name = "root");

// Executes `argv` in a chroot of `root`: from `workdir`, as uid/gid with `groups`, with `env`; a name
// without '/' is looked up on env's PATH as runc does (the first file the user may execute). Waits up to
// 3 s for the program to end, then kills it.
ExecOutcome execute_in_chroot(const std::string& root, const std::vector<std::string>& argv,
                              const std::vector<std::string>& env, const std::string& workdir, unsigned uid,
                              unsigned gid, const std::vector<unsigned>& groups = {});

}  // namespace imgaudit::test
