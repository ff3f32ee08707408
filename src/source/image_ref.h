#pragma once
#include <string>

namespace imgaudit {

// IMAGE as the CLI takes it, before anything is opened.
struct ImageRef {
  enum Kind { Oci, OciArchive, DockerArchive, Rootfs, Detect, Registry } kind = Detect;
  std::string path;       // for everything but Registry
  std::string reference;  // tag (oci), name:tag (docker-archive), or the registry reference
};

// "oci:PATH[:TAG]", "oci-archive:PATH[:TAG]", "docker-archive:PATH[:NAME:TAG]",
// "rootfs:PATH", "docker://REFERENCE"; an existing path or one that looks
// like a path is Detect; anything else is a registry reference.
ImageRef parse_image_ref(const std::string& image);

}  // namespace imgaudit
