#include "source/image_ref.h"

#include <sys/stat.h>

#include "util/strings.h"

namespace imgaudit {

namespace {

bool path_exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

bool looks_like_path(const std::string& s) {
  return starts_with(s, "/") || starts_with(s, "./") || starts_with(s, "../") || s == "." || s == ".." ||
         ends_with(s, ".tar") || ends_with(s, ".tar.gz") || ends_with(s, ".tgz");
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
  if (image == "-") {
    ref.kind = ImageRef::Stdin;
    ref.path = "/dev/stdin";
    return ref;
  }
  struct Named {
    const char* prefix;
    ImageRef::Kind kind;
  };
  static const Named named[] = {{"docker://", ImageRef::Registry},
                                {"docker-daemon:", ImageRef::DockerDaemon},
                                {"podman:", ImageRef::Podman},
                                {"containerd:", ImageRef::Containerd}};
  for (const Named& n : named) {
    if (!starts_with(image, n.prefix)) continue;
    ref.kind = n.kind;
    ref.reference = image.substr(std::string(n.prefix).size());
    return ref;
  }
  for (const Transport& t : transports) {
    if (!starts_with(image, t.prefix)) continue;
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
    ref.bare_word = !starts_with(image, "/") && !starts_with(image, "./") && !starts_with(image, "../") &&
                    image != "." && image != ".." && !ends_with(image, "/");
    return ref;
  }
  ref.kind = ImageRef::Lookup;
  ref.reference = image;
  return ref;
}

}  // namespace imgaudit
