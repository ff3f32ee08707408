#pragma once
#include <memory>
#include <string>

#include "layer/gzip_stream.h"

// The MemberInflater of each decoder, behind new_member_inflater (gzip_stream.h).
namespace imgaudit {

std::unique_ptr<MemberInflater> new_zlib_member();
std::string zlib_version_text();

// Only in a build that found ISA-L (IMGAUDIT_HAVE_ISAL).
std::unique_ptr<MemberInflater> new_isal_member();
std::string isal_version_text();

}  // namespace imgaudit
