#include <csignal>

#include "app/cli.h"

int main(int argc, char** argv) {
  // Once, before any thread starts: a write to a pipe whose reader has gone (a credential helper's input, a
  // FIFO named by -o) fails with EPIPE, which the writer reports, instead of killing imgaudit. Standard
  // output keeps the signal's ending (report_file.h: end_if_stdout_reader_gone).
  std::signal(SIGPIPE, SIG_IGN);
  return imgaudit::run_cli(argc, argv);
}
