#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "source/byte_streams.h"
#include "source/image_ref.h"
#include "source/image_sources.h"
#include "util/error.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::string describe(const ImageRef& ref) {
  auto path_and_reference = [&](const char* prefix) {
    return prefix + ref.path + (ref.reference.empty() ? "" : ":" + ref.reference);
  };
  switch (ref.kind) {
    case ImageRef::Oci: return path_and_reference("oci:");
    case ImageRef::OciArchive: return path_and_reference("oci-archive:");
    case ImageRef::DockerArchive: return path_and_reference("docker-archive:");
    case ImageRef::Rootfs: return "rootfs:" + ref.path;
    case ImageRef::Stdin: return "docker-archive:-";
    case ImageRef::DockerDaemon: return "docker-daemon:" + ref.reference;
    case ImageRef::Podman: return "podman:" + ref.reference;
    case ImageRef::Containerd: return "containerd:" + ref.reference;
    default: return ref.path.empty() ? ref.reference : ref.path;
  }
}

bool is_dir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// What a root filesystem has at its top, and an application's source folder has not.
bool looks_like_rootfs(const std::string& dir) {
  for (const char* top : {"etc", "usr", "bin", "lib"})
    if (is_dir(dir + "/" + top)) return true;
  return false;
}

const ImageIdentity kArchive{"docker-archive", "", {}, {}, ""};

// `description` "" names the stream by what it holds: docker-archive:PATH or oci-archive:PATH.
std::unique_ptr<ImageSource> open_stream(const std::string& path, const std::string& description,
                                         const std::string& reference, const std::optional<Platform>& platform,
                                         const ImageOpeners& openers) {
  FileStream in(path);
  return open_archive_stream(in, kArchive, path, description, reference, platform, openers.read_streamed_blob);
}

std::unique_ptr<ImageSource> open_engine(const std::string& engine, const ImageRef& ref,
                                         const std::optional<Platform>& platform, const ImageOpeners& openers) {
  if (!openers.engine) throw InputError("the Docker Engine, Podman and containerd are not available here");
  return openers.engine(engine, ref.reference, platform, true, openers.read_streamed_blob, nullptr);
}

// The places a bare name was looked for, in a few words each: "docker: not running; podman: no image app:dev".
std::string places_looked(const std::vector<std::pair<std::string, EngineMiss>>& missed) {
  std::vector<std::string> places;
  for (const auto& [place, miss] : missed) places.push_back(place + ": " + miss.brief);
  return join(places, "; ");
}

// Why a bare name was found nowhere, headed by the cause that matters most to the user: an engine's image of
// that name for another platform than --platform's, else the registry's answer (`registry_error`, "" when it
// was not asked), else the engines'; every place looked in follows in one line.
std::string not_found(const std::vector<std::pair<std::string, EngineMiss>>& missed, const std::string& registry_error) {
  for (const auto& [place, miss] : missed)
    if (miss.kind == EngineMiss::Kind::OtherPlatform) {
      std::string rest = places_looked(missed) + (registry_error.empty() ? "" : "; the registry: " + registry_error);
      return miss.why + " (looked in " + rest + ")";
    }
  if (!registry_error.empty())
    return missed.empty() ? registry_error : registry_error + " (looked in the registry after " + places_looked(missed) + ")";
  std::vector<std::string> whys;
  for (const auto& [place, miss] : missed) whys.push_back(place + ": " + miss.why);
  return "not found: " + join(whys, "; ");
}

// A bare name, in the local engines first, as trivy looks: `docker build -t
// redis . && imgaudit redis` audits what was built, not Docker Hub's redis.
std::unique_ptr<ImageSource> look_up(const ImageRef& ref, const std::optional<Platform>& platform,
                                     const ImageOpeners& openers, std::vector<std::string>* passed_over) {
  std::vector<std::pair<std::string, EngineMiss>> missed;
  auto said = [&] {
    std::vector<std::string> out;
    for (const auto& [place, miss] : missed) out.push_back(place + ": " + miss.why);
    return out;
  };
  for (const std::string& place : openers.lookup) {
    if (place == "remote") {
      if (!openers.registry) throw InputError(not_found(missed, "registry pulls are not available here"));
      try {
        auto source = openers.registry(ref.reference, platform);
        if (passed_over) *passed_over = said();
        return source;
      } catch (const InputError& e) {
        throw InputError(not_found(missed, e.what()));
      }
    }
    if (!openers.engine) continue;
    EngineMiss miss;
    if (auto source = openers.engine(place, ref.reference, platform, false, openers.read_streamed_blob, &miss)) {
      if (passed_over) *passed_over = said();
      return source;
    }
    missed.emplace_back(place, std::move(miss));
  }
  throw InputError(not_found(missed, ""));
}

std::unique_ptr<ImageSource> open_ref(ImageRef ref, const std::optional<Platform>& platform,
                                      const ImageOpeners& openers, std::vector<std::string>* passed_over) {
  switch (ref.kind) {
    case ImageRef::Registry:
      if (!openers.registry) throw InputError("registry pulls are not available here");
      return openers.registry(ref.reference, platform);
    case ImageRef::DockerDaemon: return open_engine("docker", ref, platform, openers);
    case ImageRef::Podman: return open_engine("podman", ref, platform, openers);
    case ImageRef::Containerd: return open_engine("containerd", ref, platform, openers);
    case ImageRef::Lookup: return look_up(ref, platform, openers, passed_over);
    case ImageRef::Stdin:
      if (isatty(STDIN_FILENO))
        throw InputError("standard input is a terminal: pipe an archive into it (docker save IMAGE | imgaudit -)");
      return open_stream(ref.path, describe(ref), "", platform, openers);
    default: break;
  }
  struct stat st;
  if (stat(ref.path.c_str(), &st) != 0)
    throw InputError(errno == ENOENT ? "no such file or directory" : std::strerror(errno));
  bool dir = S_ISDIR(st.st_mode);
  // A pipe or a device (`docker save app | imgaudit docker-archive:/dev/stdin`) can be read only once.
  bool stream = !dir && !S_ISREG(st.st_mode);

  if (ref.kind == ImageRef::Detect) {
    if (dir) {
      struct stat layout;
      bool is_layout = stat((ref.path + "/oci-layout").c_str(), &layout) == 0;
      if (!is_layout && ref.bare_word && !looks_like_rootfs(ref.path))
        throw InputError("a folder that is neither an OCI layout nor a root filesystem (no etc/, usr/, bin/ or lib/ "
                         "at its top), so not audited; for the folder say rootfs:" + ref.path + ", for an image of "
                         "that name docker-daemon:" + ref.path + " or docker://" + ref.path);
      ref.kind = is_layout ? ImageRef::Oci : ImageRef::Rootfs;
    } else if (stream) {
      return open_stream(ref.path, "", "", platform, openers);
    } else {
      std::shared_ptr<TarStore> store;
      try {
        store = std::make_shared<TarStore>(ref.path);
      } catch (const NotATarArchive&) {
        throw InputError("not an image: no manifest.json or oci-layout (not a tar archive)");
      }
      // Docker 25+ archives hold both: manifest.json names the tags.
      if (store->exists("manifest.json"))
        return open_docker_archive(store, kArchive, "docker-archive:" + ref.path, "", platform);
      if (store->exists("oci-layout")) return open_oci_layout(store, "oci-archive", "oci-archive:" + ref.path, "", platform);
      throw InputError("not an image: no manifest.json or oci-layout");
    }
  }
  std::string description = describe(ref);
  switch (ref.kind) {
    case ImageRef::Oci:
      if (!dir) throw InputError("not a directory");
      return open_oci_layout(open_dir_store(ref.path), "oci", description, ref.reference, platform);
    case ImageRef::Rootfs:
      if (!dir) throw InputError("not a directory");
      return open_rootfs(ref.path, description);
    case ImageRef::OciArchive:
    case ImageRef::DockerArchive: {
      if (dir) throw InputError("is a directory, not an archive");
      if (stream) return open_stream(ref.path, description, ref.reference, platform, openers);
      auto store = std::make_shared<TarStore>(ref.path);
      if (ref.kind == ImageRef::OciArchive) return open_oci_layout(store, "oci-archive", description, ref.reference, platform);
      return open_docker_archive(store, kArchive, description, ref.reference, platform);
    }
    default:
      throw InputError("unreadable image reference");
  }
}

}  // namespace

std::unique_ptr<ImageSource> open_image(const std::string& image, const std::optional<Platform>& platform,
                                        const ImageOpeners& openers, std::vector<std::string>* passed_over) {
  ImageRef ref = parse_image_ref(image);
  try {
    return open_ref(ref, platform, openers, passed_over);
  } catch (const InputError& e) {
    bool named = ref.kind == ImageRef::Registry || ref.kind == ImageRef::Detect || ref.kind == ImageRef::Lookup;
    std::string what = named ? image : describe(ref);
    // Engine errors, and a file's own when the image is the path, already name the image.
    if (e.subject() == what) throw;
    throw InputError::about(what, e.what());
  }
}

}  // namespace imgaudit
