#include "source/image_ref.h"

#include <sys/stat.h>

namespace imgaudit {

namespace {

bool path_exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

bool looks_like_path(const std::string& s) {
  auto starts = [&](const char* p) { return s.rfind(p, 0) == 0; };
  auto ends = [&](const char* p) {
    std::string e(p);
    return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
  };
  return starts("/") || starts("./") || starts("../") || s == "." || s == ".." || ends(".tar") || ends(".tar.gz") ||
         ends(".tgz");
}

// PATH[:REF]: the longest existing prefix before a ':' is the path; when
// none exists the first ':' splits (the error then names the path).
void split_path_and_reference(const std::string& rest, ImageRef& ref) {
  ref.path = rest;
  if (path_exists(rest)) return;
  for (size_t colon = rest.rfind(':'); colon != std::string::npos && colon > 0; colon = rest.rfind(':', colon - 1)) {
    if (path_exists(rest.substr(0, colon))) {
      ref.path = rest.substr(0, colon);
      ref.reference = rest.substr(colon + 1);
      return;
    }
  }
  if (size_t colon = rest.find(':'); colon != std::string::npos) {
    ref.path = rest.substr(0, colon);
    ref.reference = rest.substr(colon + 1);
  }
}

}  // namespace

ImageRef parse_image_ref(const std::string& image) {
  struct Transport {
    const char* prefix;
    ImageRef::Kind kind;
  };
  static const Transport transports[] = {{"oci:", ImageRef::Oci},
                                         {"oci-archive:", ImageRef::OciArchive},
                                         {"docker-archive:", ImageRef::DockerArchive},
                                         {"rootfs:", ImageRef::Rootfs}};
  ImageRef ref;
  if (image.rfind("docker://", 0) == 0) {
    ref.kind = ImageRef::Registry;
    ref.reference = image.substr(9);
    return ref;
  }
  for (const Transport& t : transports) {
    if (image.rfind(t.prefix, 0) != 0) continue;
    ref.kind = t.kind;
    std::string rest = image.substr(std::string(t.prefix).size());
    if (t.kind == ImageRef::Rootfs)
      ref.path = rest;
    else
      split_path_and_reference(rest, ref);
    return ref;
  }
  if (path_exists(image) || looks_like_path(image)) {
    ref.kind = ImageRef::Detect;
    ref.path = image;
    return ref;
  }
  ref.kind = ImageRef::Registry;
  ref.reference = image;
  return ref;
}

}  // namespace imgaudit
