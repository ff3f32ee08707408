// The platform images are chosen for when none is asked: the architecture this program is built for.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "elf/architectures.h"
#include "source/manifest_walker.h"
#include "test_support.h"

namespace imgaudit::test {
namespace {

TEST(HostPlatform, IsTheOciNameOfThisProgramsOwnElfHeader) {
  std::optional<ElfIdentity> own = elf_identity(read_file("/proc/self/exe").substr(0, 64));
  ASSERT_TRUE(own);
  const Architecture* row = architecture_named(own->machine);
  ASSERT_NE(row, nullptr) << own->machine;
  Platform host = host_platform();
  EXPECT_EQ(host.os, "linux");
  EXPECT_EQ(host.architecture, *row->oci_arch ? row->oci_arch : "unknown");
  EXPECT_EQ(host.variant, "");
}

// Of an index listing every architecture of the table, the host's image is taken without asking.
TEST(HostPlatform, PicksTheHostsImageOfAnIndexOfEveryArchitecture) {
  std::vector<Platform> platforms;
  for (const Architecture& a : architectures())
    if (*a.oci_arch) platforms.push_back({"linux", a.oci_arch, a.oci_variant});
  Platform host = host_platform();
  if (host.architecture == "unknown") GTEST_SKIP() << "this program's architecture has no OCI name";
  size_t chosen = choose_platform(platforms, std::nullopt);
  EXPECT_EQ(platforms[chosen].architecture, host.architecture);
}

}  // namespace
}  // namespace imgaudit::test
