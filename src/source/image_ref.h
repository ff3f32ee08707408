#pragma once
#include <string>

namespace imgaudit {

// IMAGE as the CLI takes it, before anything is opened.
struct ImageRef {
  enum Kind { Oci, OciArchive, DockerArchive, Rootfs, Detect, Stdin, Registry, DockerDaemon, Podman, Containerd, Lookup } kind = Detect;
  std::string path;       // for the file and folder kinds
  std::string reference;  // tag (oci), name:tag (docker-archive), or the image name or ID
  bool bare_word = false; // Detect: named without ./, /, ../ or a trailing /, so maybe an image name
};

// "oci:PATH[:TAG]", "oci-archive:PATH[:TAG]", "docker-archive:PATH[:NAME:TAG]",
// "rootfs:PATH", "docker://REFERENCE", "docker-daemon:NAME", "podman:NAME", "containerd:NAME",
// "-" (an archive on standard input); an existing path or one that looks
// like a path is Detect; anything else is a name to look up (Lookup).
ImageRef parse_image_ref(const std::string& image);

}  // namespace imgaudit
