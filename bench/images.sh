#!/bin/sh
# The bench's images, made by imgaudit-mkimage into WORK: this machine's /usr as several gzip layers, the
# same in zstd, one large gzip layer, its Python in two layers, and Alpine's minirootfs where
# ../shared/rootfs/ beside the project holds it. Sourced by run.sh and static.sh with here, build and work
# set; sets images to their names.
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)

layers() {  # $1: compression
  for d in /usr/bin /usr/sbin "/usr/lib/$multiarch" /usr/libexec /usr/share /usr/include /usr/lib/gcc /usr/local; do
    [ -d "$d" ] || continue
    printf '%s\n' "--layer" "$d::$1::COPY $d $d"
  done
}
mkimage() {  # $1: name, then the layers
  name=$1
  shift
  "$build/imgaudit-mkimage" --format oci -o "$work/$name" --tag bench "$@"
}
# shellcheck disable=SC2046 # one word a line
IFS='
'
mkimage usr-gzip $(layers gzip)
mkimage usr-zstd $(layers zstd)
mkimage lib-gzip --layer "/usr/lib/$multiarch::gzip::COPY lib /usr/lib/$multiarch"
unset IFS
images="usr-gzip usr-zstd lib-gzip"
# An application-sized image (python:3.12-slim is about 125 MB): this machine's Python, in two layers.
python_layers() {
  for d in /usr/lib/python3 "/usr/lib/python3.$(python3 -c 'import sys; print(sys.version_info[1])')"; do
    if [ -d "$d" ]; then printf '%s\n' "--layer" "$d::gzip::COPY $(basename "$d") $d"; fi
  done
}
IFS='
'
# shellcheck disable=SC2046 # one word a line
mkimage py-gzip $(python_layers)
unset IFS
images="$images py-gzip"
# Many small files, as a build or language image holds them (headers, the Python standard library, Perl,
# documentation, translations): the per-file costs show here, not the inflate. About 30,000 files here.
small_layers() {
  for d in /usr/include /usr/lib/python3 "/usr/lib/python3.$(python3 -c 'import sys; print(sys.version_info[1])')" \
           /usr/share/perl /usr/share/doc /usr/share/locale /usr/share/man; do
    if [ -d "$d" ]; then printf '%s\n' "--layer" "$d::gzip::COPY $(basename "$d") $d"; fi
  done
}
IFS='
'
# shellcheck disable=SC2046 # one word a line
mkimage small-files-gzip $(small_layers)
unset IFS
images="$images small-files-gzip"
# A small image, as most are: Alpine's minirootfs, where ../shared/rootfs/ beside the project holds it.
alpine=$(ls "$here/../../shared/rootfs/alpine-minirootfs-"*"-$(uname -m).tar.gz" 2>/dev/null | head -n 1 || true)
if [ -n "$alpine" ]; then
  mkimage alpine-gzip --layer-tar "$alpine::ADD minirootfs /"
  images="$images alpine-gzip"
fi
