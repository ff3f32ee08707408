# write_image: imgaudit's multi-arch image (linux/amd64 and linux/arm64), written by the project's own
# writer (imgaudit-mkimage, no Docker): each platform holds its static binary at /usr/bin/imgaudit and the CA
# bundle of this machine's ca-certificates package, nothing else; user 65532; OCI annotations. As an OCI
# layout (DIST/image-layout) and an OCI archive (DIST/imgaudit-VERSION-oci.tar).
# Sourced by release.sh once both binaries are built.

write_image() {
  stage=$WORK/image
  rm -rf "$stage" && mkdir -p "$stage/certs/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$stage/certs/etc/ssl/certs/"
  for arch in amd64 arm64; do
    mkdir -p "$stage/$arch/usr/bin"
    cp "$DIST/imgaudit-$VERSION-linux-$arch" "$stage/$arch/usr/bin/imgaudit"
  done
  mkimage=$WORK/$(dpkg --print-architecture)/build/imgaudit-mkimage
  created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
  set -- --tag "$VERSION" --canonical-modes --user 65532:65532 --entrypoint /usr/bin/imgaudit \
    --layer "$stage/certs::gzip::COPY ca-certificates.crt /etc/ssl/certs/" \
    --platform-layer "linux/amd64=$stage/amd64::gzip::COPY imgaudit /usr/bin/imgaudit" \
    --platform-layer "linux/arm64=$stage/arm64::gzip::COPY imgaudit /usr/bin/imgaudit" \
    --annotation "org.opencontainers.image.version=$VERSION" \
    --annotation "org.opencontainers.image.revision=$(git -C "$SOURCE_ROOT" rev-parse HEAD 2>/dev/null || echo unknown)" \
    --annotation "org.opencontainers.image.licenses=Apache-2.0" \
    --annotation "org.opencontainers.image.created=$created" \
    --annotation "org.opencontainers.image.title=imgaudit" \
    --annotation "org.opencontainers.image.description=Finds what will break or run slowly in a container image"
  [ -z "${IMGAUDIT_SOURCE_URL:-}" ] || set -- "$@" --annotation "org.opencontainers.image.source=$IMGAUDIT_SOURCE_URL"
  rm -rf "$DIST/image-layout" "$DIST/imgaudit-$VERSION-oci.tar"
  "$mkimage" --format oci -o "$DIST/image-layout" "$@"
  "$mkimage" --format oci-archive -o "$DIST/imgaudit-$VERSION-oci.tar" "$@"
}
