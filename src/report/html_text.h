// Text from an image made safe for HTML: what a page shows is what the image holds, and no element,
// attribute or script is made from it.
#pragma once
#include <string>
#include <string_view>

namespace imgaudit {

// `s` as HTML text or a quoted attribute's value: control characters and bytes that are not UTF-8 as "\xNN"
// (printable()), then "&", "<", ">", '"' and "'" as character references.
std::string html_text(std::string_view s);

}  // namespace imgaudit
