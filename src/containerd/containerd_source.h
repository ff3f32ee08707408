#pragma once
#include <memory>
#include <optional>
#include <string>

#include "containerd/containerd_client.h"
#include "source/source.h"

namespace imgaudit {

// An image of containerd's image store (containerd:NAME): its record from Images.Get in the namespace
// asked, then its index, manifests, config and layers from the content store, walked as an OCI layout is.
// NAME is looked up as given, then as docker normalises it ("alpine" is "docker.io/library/alpine:latest"),
// as nerdctl and the CRI name images. An index's platforms whose manifests containerd has not (it pulls
// one platform's blobs unless asked for all) are not offered (the walker's ManifestStore::has): --platform
// all audits those it has, and a platform asked that it has not says so. Unless `required`, a containerd that is not reachable or has no
// such image gives nullptr and says why in *miss; throws InputError otherwise.
std::unique_ptr<ImageSource> open_containerd_image(const std::string& name, const std::optional<Platform>& platform,
                                                   bool required, EngineMiss* miss, const ContainerdOptions& options);

}  // namespace imgaudit
