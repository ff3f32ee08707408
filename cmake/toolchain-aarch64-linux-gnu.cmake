# Cross-building for arm64 with Debian's cross toolchain (crossbuild-essential-arm64) and the arm64
# libraries installed beside the machine's own (dpkg --add-architecture arm64): packaging/release.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Libraries and headers from the arm64 packages' multiarch folders, programs from the build machine.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
# Test programs built for arm64 run under Debian's qemu-user-static, named explicitly (no binfmt needed).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
