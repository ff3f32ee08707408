#include "report/html_text.h"

#include "util/strings.h"

namespace imgaudit {

std::string html_text(std::string_view s) {
  std::string out;
  for (char c : printable(s)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace imgaudit
