#pragma once
#include <stdexcept>
#include <string>

namespace imgaudit {

// An input the tool cannot read: the CLI prints what() as one line and exits 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace imgaudit
