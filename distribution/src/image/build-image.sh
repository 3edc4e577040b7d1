#!/bin/sh
# build-image.sh VERSION DIST_HOME TARGET CLASSPATH: builds the distribution's OCI image,
# TARGET/insika-router-VERSION-image.tar (an OCI image layout in a tar: podman load -i, or
# skopeo copy oci-archive:...), from scratch, without pulling anything.
#
# Run by the distribution's Maven build at package, after the tarball; JAVA_HOME is the build's
# JDK. Steps: rootfs.sh assembles the root file system (jlinked runtime, the unpacked
# distribution, sh and the three tools bin/insika-router runs, their C libraries); AotTraining
# (from CLASSPATH, the distribution's test classpath) trains lib/insika-router.aot again with the
# image's own runtime, because a cache is valid only for the JVM that built it; GNU tar packs
# the file system into one layer owned by root; umoci makes the OCI image around it and writes
# its configuration (the same user, ports, entrypoint and environment as the Dockerfile beside
# this script: ImageTest compares them).
#
# Without umoci, or with a JDK that cannot jlink, the image is skipped with a warning and the
# build goes on: the tarball is complete without it, and the README's build needs a JDK only.
# ImageTest then fails and says what to install (tools/ci-deps.sh installs umoci).
set -eu

[ $# -eq 4 ] || { echo "usage: build-image.sh VERSION DIST_HOME TARGET CLASSPATH" >&2; exit 2; }
version=$1
dist=$2
target=$(cd "$3" && pwd)
classpath=$4
here=$(cd "$(dirname "$0")" && pwd)
image=$target/insika-router-$version-image.tar
ref=insika-router:$version

skip() {
    echo "[WARNING] container image: not built, $*; the tarball is complete without it"
    exit 0
}

rm -f "$image"
command -v umoci >/dev/null 2>&1 || skip "umoci is not installed (Debian: apt-get install umoci)"
java_major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JAVA_HOME/release")
[ -d "$JAVA_HOME/jmods" ] || [ "${java_major:-0}" -ge 24 ] \
    || skip "$JAVA_HOME has no jmods/ to jlink from (on Debian: apt-get install openjdk-$java_major-jmods)"

work=$target/image
rm -rf "$work"
mkdir -p "$work"
rootfs=$work/rootfs
"$here/rootfs.sh" "$rootfs" "$dist"

"$JAVA_HOME/bin/java" -cp "$classpath" \
    -Dinsika.tarball="$target/insika-router-$version.tar.gz" -Dinsika.version="$version" \
    io.insika.router.distribution.AotTraining "$rootfs/opt/insika-router" "$rootfs/opt/java" "$work/aot-training"

# One layer: every file root's and read-only to the router's user, in name order.
(cd "$rootfs" && tar --create --file "$work/layer.tar" --sort=name --owner=0 --group=0 --numeric-owner .)

oci=$work/oci
umoci init --layout "$oci"
umoci new --image "$oci:$ref"
umoci raw add-layer --image "$oci:$ref" --history.created_by "distribution/src/image/rootfs.sh" "$work/layer.tar"
umoci config --image "$oci:$ref" --history.created_by "distribution/src/image/build-image.sh" \
    --config.user 10001:10001 \
    --config.workingdir /opt/insika-router \
    --config.entrypoint /opt/insika-router/bin/insika-router \
    --config.env PATH=/opt/java/bin:/bin \
    --config.env JAVA_HOME=/opt/java \
    --config.exposedports 9090/tcp \
    --config.exposedports 9091/tcp \
    --config.stopsignal SIGTERM \
    --config.label org.opencontainers.image.title=insika-router \
    --config.label org.opencontainers.image.version="$version" \
    --config.label org.opencontainers.image.licenses=MIT \
    --config.label io.insika.router.health.ready=http://127.0.0.1:9091/observe/health/ready \
    --config.label io.insika.router.health.live=http://127.0.0.1:9091/observe/health/live
umoci gc --layout "$oci"
(cd "$oci" && tar --create --file "$image" --sort=name --owner=0 --group=0 --numeric-owner oci-layout index.json blobs)
rm -rf "$work"
echo "container image: $image ($ref, $(($(wc -c < "$image") / 1048576)) MiB)"
