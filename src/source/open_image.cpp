#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "source/image_ref.h"
#include "source/image_sources.h"
#include "util/error.h"

namespace imgaudit {

namespace {

std::string describe(const ImageRef& ref) {
  static const char* const prefixes[] = {"oci:", "oci-archive:", "docker-archive:", "rootfs:", "", ""};
  std::string s = prefixes[ref.kind] + ref.path;
  if (!ref.reference.empty()) s += ":" + ref.reference;
  return s;
}

std::unique_ptr<ImageSource> open_ref(ImageRef ref, const std::optional<Platform>& platform,
                                      const RegistryOpener& registry) {
  if (ref.kind == ImageRef::Registry) {
    if (!registry) throw InputError("not a file or folder, and registry pulls are not available here");
    return registry(ref.reference, platform);
  }
  struct stat st;
  if (stat(ref.path.c_str(), &st) != 0)
    throw InputError(errno == ENOENT ? "no such file or directory" : std::strerror(errno));
  bool is_dir = S_ISDIR(st.st_mode);
  std::string description = describe(ref);

  if (ref.kind == ImageRef::Detect) {
    if (is_dir) {
      struct stat layout;
      ref.kind = stat((ref.path + "/oci-layout").c_str(), &layout) == 0 ? ImageRef::Oci : ImageRef::Rootfs;
      description = describe(ref);
    } else {
      std::shared_ptr<TarStore> store;
      try {
        store = std::make_shared<TarStore>(ref.path);
      } catch (const InputError& e) {
        if (std::string(e.what()).rfind("not a tar archive", 0) == 0)
          throw InputError("not an image: no manifest.json or oci-layout (not a tar archive)");
        throw;
      }
      // Docker 25+ archives hold both: manifest.json names the tags.
      if (store->exists("manifest.json"))
        return open_docker_archive(store, {"docker-archive", "", {}, {}, ""}, "docker-archive:" + ref.path, "", platform);
      if (store->exists("oci-layout")) return open_oci_layout(store, "oci-archive", "oci-archive:" + ref.path, "", platform);
      throw InputError("not an image: no manifest.json or oci-layout");
    }
  }
  switch (ref.kind) {
    case ImageRef::Oci:
      if (!is_dir) throw InputError("not a directory");
      return open_oci_layout(open_dir_store(ref.path), "oci", description, ref.reference, platform);
    case ImageRef::Rootfs:
      if (!is_dir) throw InputError("not a directory");
      return open_rootfs(ref.path, description);
    case ImageRef::OciArchive:
    case ImageRef::DockerArchive: {
      if (is_dir) throw InputError("is a directory, not an archive");
      auto store = std::make_shared<TarStore>(ref.path);
      if (ref.kind == ImageRef::OciArchive) return open_oci_layout(store, "oci-archive", description, ref.reference, platform);
      return open_docker_archive(store, {"docker-archive", "", {}, {}, ""}, description, ref.reference, platform);
    }
    default:
      throw InputError("unreadable image reference");
  }
}

}  // namespace

std::unique_ptr<ImageSource> open_image(const std::string& image, const std::optional<Platform>& platform,
                                        const RegistryOpener& registry) {
  ImageRef ref = parse_image_ref(image);
  try {
    return open_ref(ref, platform, registry);
  } catch (const InputError& e) {
    throw InputError((ref.kind == ImageRef::Registry || ref.kind == ImageRef::Detect ? image : describe(ref)) + ": " +
                     e.what());
  }
}

}  // namespace imgaudit
