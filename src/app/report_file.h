#pragma once
#include <memory>
#include <ostream>
#include <string>

namespace imgaudit {

// Where a report may be written, checked before the audit starts so that a wrong path fails at once:
// a regular file that opens for writing (not truncated yet), a new file in a writable folder, or a
// terminal, pipe or device (/dev/stdout, a FIFO, >(jq .)). A symbolic link is followed only to such a
// special file: a link to a regular file or to nothing is refused, because a link planted in a checkout
// (report.json -> ~/.bashrc) would otherwise make the CI job overwrite its target. Throws InputError.
void check_report_path(const std::string& file);

// When standard output is a pipe whose reader has gone (imgaudit IMAGE | head), ends the process by
// SIGPIPE, quietly, as a filter ends: main ignores the signal for every other pipe. Returns otherwise.
void end_if_stdout_reader_gone();

// A report file opened for writing, as check_report_path allows, truncated only once it is open. A named
// pipe that nobody reads is refused at once, not waited for. Throws InputError "FILE: cannot write the
// report: ...".
class ReportFile {
 public:
  explicit ReportFile(const std::string& file);
  ~ReportFile();
  ReportFile(const ReportFile&) = delete;
  ReportFile& operator=(const ReportFile&) = delete;
  std::ostream& stream() { return *stream_; }

 private:
  struct Buffer;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

}  // namespace imgaudit
