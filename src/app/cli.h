#pragma once

namespace imgaudit {

// Parses the command line, runs the audit and writes the report. Returns the
// exit status: 0 no finding at or above the threshold, 1 findings at or above
// it, 2 bad usage or unreadable input.
int run_cli(int argc, char** argv);

}  // namespace imgaudit
