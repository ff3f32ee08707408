# The Debian 12 source packages the release builds itself, pinned: the version and the sha256 of each
# file of the package (the .dsc lists the others' checksums too; dpkg-source checks them again).
# Sourced by deps.sh and read by sbom.py's caller (release.sh).
CURL_VERSION=7.88.1-10+deb12u15
CURL_POOL=c/curl
CURL_DSC=curl_7.88.1-10+deb12u15.dsc
CURL_DSC_SHA256=2744f12e3aef161c0361743fa1b318296b122e566e47f381e4a63320fbcc23f4
CURL_ORIG=curl_7.88.1.orig.tar.gz
CURL_ORIG_SHA256=cdb38b72e36bc5d33d5b8810f8018ece1baa29a8f215b4495e495ded82bbf3c7
CURL_ORIG_ASC_SHA256=7a5a55d7123149a1b357f298cf895bd0a601e3a2807005ef6c95f3752803485f
CURL_DEBIAN=curl_7.88.1-10+deb12u15.debian.tar.xz
CURL_DEBIAN_SHA256=961b78bc48492c5693e4decb352ddd176f343260a8956f48b2887874048ef23b

ISAL_VERSION=2.30.0-5
ISAL_POOL=libi/libisal
ISAL_DSC=libisal_2.30.0-5.dsc
ISAL_DSC_SHA256=f0376ddb24f0126641161054002a251ba48b52c2e28fe29cc7b5106e9f0938a8
ISAL_ORIG=libisal_2.30.0.orig.tar.xz
ISAL_ORIG_SHA256=f363f1be3d657d5676cef5253ee2233e60116e2fa9c9de86881185bf81e0e4b8
ISAL_DEBIAN=libisal_2.30.0-5.debian.tar.xz
ISAL_DEBIAN_SHA256=7774a820dd205a8a1b3525e4c0edd9e20c3481ea90432255817cc9e10f1cbf83
