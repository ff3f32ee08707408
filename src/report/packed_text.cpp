#include "report/packed_text.h"

#include <zlib.h>

#include <new>
#include <stdexcept>

namespace imgaudit {

PackedText::PackedText(std::string_view text) : size_(text.size()) {
  if (text.empty()) return;
  uLongf packed = compressBound(uLong(text.size()));
  packed_.resize(packed);
  int status = compress2(reinterpret_cast<Bytef*>(packed_.data()), &packed,
                         reinterpret_cast<const Bytef*>(text.data()), uLong(text.size()), Z_BEST_SPEED);
  if (status == Z_MEM_ERROR) throw std::bad_alloc();
  if (status != Z_OK) throw std::logic_error("zlib could not pack a report part: " + std::to_string(status));
  packed_.resize(packed);
  packed_.shrink_to_fit();
}

std::string PackedText::str() const {
  std::string text(size_, '\0');
  if (size_ == 0) return text;
  uLongf size = uLongf(size_);
  int status = uncompress(reinterpret_cast<Bytef*>(text.data()), &size,
                          reinterpret_cast<const Bytef*>(packed_.data()), uLong(packed_.size()));
  if (status == Z_MEM_ERROR) throw std::bad_alloc();
  // Only this class wrote those bytes: anything else is a bug, never input.
  if (status != Z_OK || size != size_) throw std::logic_error("a packed report part does not unpack: " + std::to_string(status));
  return text;
}

}  // namespace imgaudit
