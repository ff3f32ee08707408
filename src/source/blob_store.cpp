#include "source/blob_store.h"

namespace imgaudit {

std::string BlobStore::head(const std::string& path) const {
  std::unique_ptr<ByteStream> in = open(path);
  char buf[8];
  size_t got = 0;
  while (got < sizeof buf)
    if (size_t n = in->read(buf + got, sizeof buf - got); n > 0)
      got += n;
    else
      break;
  return std::string(buf, got);
}

}  // namespace imgaudit
