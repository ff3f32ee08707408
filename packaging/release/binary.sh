# build_binary: ARCH's self-contained imgaudit (cmake/static_link.cmake) into DIST as
# imgaudit-VERSION-linux-ARCH, and its Debian package. Sourced by release.sh after arch.sh, which sets
# TRIPLET, CROSS_CMAKE and QEMU for ARCH.

# The arm64 libyaml-cpp-dev cannot be installed beside the amd64 one (it is not Multi-Arch: same): the
# other architecture's archive comes from its package, unpacked into the work folder.
foreign_yaml_cpp_archive() {
  unpacked=$1/yaml-cpp
  if [ ! -f "$unpacked/usr/lib/$TRIPLET/libyaml-cpp.a" ]; then
    rm -rf "$unpacked" && mkdir -p "$unpacked"
    (cd "$unpacked" && apt-get download -q "libyaml-cpp-dev:$ARCH" >/dev/null && dpkg-deb -x ./*.deb .)
  fi
  echo "$unpacked/usr/lib/$TRIPLET/libyaml-cpp.a"
}

# The static tree of ARCH: Release, no tests, the libraries deps.sh built first on the search path.
configure_static_tree() {
  tree=$1
  yaml_cpp=""
  [ -z "$QEMU" ] || yaml_cpp="-DYAML_CPP_STATIC=$(foreign_yaml_cpp_archive "$tree")"
  # shellcheck disable=SC2086 # CROSS_CMAKE and yaml_cpp are one option each, or none
  cmake -S "$SOURCE_ROOT" -B "$tree/build" $CROSS_CMAKE $yaml_cpp -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_TESTING=OFF -DIMGAUDIT_STATIC=ON -DCMAKE_PREFIX_PATH="$tree/prefix" \
    -DIMGAUDIT_HOMEPAGE="${IMGAUDIT_SOURCE_URL:-}" >"$tree/configure.log" 2>&1 ||
    { tail -30 "$tree/configure.log" >&2; exit 1; }
}

build_binary() {
  tree=$WORK/$ARCH
  sh "$HERE/deps.sh" "$ARCH" "$tree/prefix" "$tree/deps"
  configure_static_tree "$tree"
  # What the binary and its package need; the image writer and the example only where they run (the native tree).
  targets="imgaudit imgaudit_gzipped_docs"
  [ -n "$QEMU" ] || targets="$targets imgaudit-mkimage example_image"
  # shellcheck disable=SC2086 # the targets are words
  cmake --build "$tree/build" -j"$(nproc)" --target $targets >"$tree/build.log" 2>&1 ||
    { grep -B5 -A20 -m3 'rror' "$tree/build.log" >&2; exit 1; }
  binary=$DIST/imgaudit-$VERSION-linux-$ARCH
  "${TRIPLET}-strip" -o "$binary" "$tree/build/imgaudit"
  # The file must run with nothing beside it: no interpreter, no shared library.
  if "${TRIPLET}-readelf" -lW "$binary" | grep -q INTERP || "${TRIPLET}-readelf" -dW "$binary" | grep -q NEEDED; then
    echo "release.sh: $binary is not self-contained" >&2; exit 1
  fi
  $QEMU "$binary" --version | head -1
  (cd "$tree/build" && cpack -G DEB -B "$tree/package" >"$tree/package.log" 2>&1) || { tail -20 "$tree/package.log" >&2; exit 1; }
  cp "$tree"/package/imgaudit_*_"$ARCH".deb "$DIST/"
}
