# What building for ARCH (amd64 or arm64) means on a Debian 12 machine of either architecture: the
# compilers (Debian's cross toolchain for the other one), the multiarch library folder, CMake's toolchain
# file and ISA-L's name for the CPU. Sourced by deps.sh and release.sh with ARCH and SOURCE_ROOT set.
case "$ARCH" in
  amd64) TRIPLET=x86_64-linux-gnu ISAL_HOST_CPU=x86_64 QEMU=qemu-x86_64-static ;;
  arm64) TRIPLET=aarch64-linux-gnu ISAL_HOST_CPU=aarch64 QEMU=qemu-aarch64-static ;;
  *) echo "release: architecture $ARCH: amd64 or arm64" >&2; exit 2 ;;
esac
MULTIARCH_LIB=/usr/lib/$TRIPLET
if [ "$ARCH" = "$(dpkg --print-architecture)" ]; then
  CROSS_CC=gcc CROSS_AR=ar CROSS_CMAKE="" QEMU=""
else
  CROSS_CC=$TRIPLET-gcc CROSS_AR=$TRIPLET-ar
  CROSS_CMAKE="-DCMAKE_TOOLCHAIN_FILE=$SOURCE_ROOT/cmake/toolchain-$TRIPLET.cmake"
fi
