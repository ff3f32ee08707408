#pragma once
#include <stdexcept>
#include <string>

namespace imgaudit {

// An input the tool cannot read: the CLI prints what() as one line and exits 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;

  // "SUBJECT: why", remembering SUBJECT (an image, a file): a caller about to name the same subject
  // sees that the error names it already.
  static InputError about(const std::string& subject, const std::string& why) {
    InputError e(subject + ": " + why);
    e.subject_ = subject;
    return e;
  }
  // What the text starts by naming; "" unless made by about().
  const std::string& subject() const { return subject_; }

 private:
  std::string subject_;
};

}  // namespace imgaudit
