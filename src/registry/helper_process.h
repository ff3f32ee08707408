#pragma once
#include <string>
#include <vector>

namespace imgaudit {

struct ProcessResult {
  int exit_status = -1;  // -1 when it could not start or was killed
  std::string out;       // standard output (its standard error is discarded)
  bool not_found = false;
  bool timed_out = false;     // killed at the deadline
  bool output_ended = false;  // and it had closed its output by then
};

// Runs argv[0] (looked up on PATH) with `input` on its standard input,
// killing it when it has not printed its output and exited after
// timeout_seconds. Never throws for the program's failures. A helper that exits without reading its input
// makes the write fail, never kills this process by SIGPIPE, whether or not it ignores the signal.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input, long timeout_seconds);

}  // namespace imgaudit
