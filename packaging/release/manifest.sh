# write_sbom and write_checksums: what DIST holds, described. Sourced by release.sh after the binaries are
# built (ARCHES, WORK, DIST, VERSION and SOURCE_ROOT set).

# The Debian packages whose archives ARCH's link took members from, as sbom.py's --deb takes them: the link
# map (cmake/static_link.cmake) names each archive, dpkg -S its package. The two deps.sh built are --built.
linked_debian_packages() {
  tree=$WORK/$1
  grep -o '^/[^ ()]*\.a' "$tree/build/imgaudit.map" | sort -u | while read -r archive; do
    case "$archive" in
      "$tree/prefix/"*) ;;
      # the other architecture's libyaml-cpp-dev, unpacked (binary.sh): its runtime package is of the
      # same build and is installed
      "$tree/yaml-cpp/"*) echo "--deb libyaml-cpp0.7:$1" ;;
      *) package=$(dpkg -S "$archive" | cut -d: -f1-2 | sed 's/: .*//; s/:$//')
         case "$package" in
           *:*) echo "--deb $package" ;;
           *) echo "--deb $package@$1" ;;  # Architecture: all (a cross compiler's own libraries)
         esac ;;
    esac
  done
}

write_sbom() {
  . "$SOURCE_ROOT/packaging/release/sources.sh"
  set --
  for arch in $ARCHES; do
    set -- "$@" --binary "$DIST/imgaudit-$VERSION-linux-$arch:$arch"
    # shellcheck disable=SC2046 # one option and its value a line
    set -- "$@" $(linked_debian_packages "$arch")
  done
  first=$(echo "$ARCHES" | cut -d' ' -f1)
  mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
  # where the source is published: the release workflow says (github.server_url/github.repository)
  [ -z "${IMGAUDIT_SOURCE_URL:-}" ] || set -- "$@" --source-url "$IMGAUDIT_SOURCE_URL"
  python3 "$SOURCE_ROOT/packaging/release/sbom.py" --name imgaudit --version "$VERSION" --license Apache-2.0 \
    "$@" \
    --deb nlohmann-json3-dev --deb libcli11-dev \
    --built "curl=$CURL_VERSION:$mirror/pool/main/$CURL_POOL/$CURL_DSC:$CURL_DSC_SHA256:$WORK/$first/deps/curl/debian/copyright" \
    --built "libisal=$ISAL_VERSION:$mirror/pool/main/$ISAL_POOL/$ISAL_DSC:$ISAL_DSC_SHA256:$WORK/$first/deps/isal/debian/copyright" \
    -o "$DIST/imgaudit-$VERSION.spdx.json"
}

# SHA256SUMS in sha256sum's format, of every file DIST holds at its top (the OCI layout folder is in its archive).
write_checksums() {
  (cd "$DIST" && find . -maxdepth 1 -type f ! -name 'SHA256SUMS*' -printf '%f\n' | LC_ALL=C sort |
    xargs sha256sum >SHA256SUMS.part && mv SHA256SUMS.part SHA256SUMS)
}
