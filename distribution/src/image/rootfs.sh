#!/bin/sh
# rootfs.sh ROOTFS DIST_HOME: assembles the container image's root file system in ROOTFS (which
# must not exist yet) from the unpacked distribution in DIST_HOME and the JDK in JAVA_HOME.
# Run by build-image.sh (the Maven build) and by the Dockerfile's build stage, so that both
# images hold the same files:
#
#   /opt/insika-router   the distribution, laid out as in the tarball (without the tarball's AOT
#                        cache: that one was trained by the build's JDK, not by /opt/java)
#   /opt/java            a Java runtime jlinked from JAVA_HOME with the modules listed in ./modules
#   /bin/sh ls cksum readlink
#                        what bin/insika-router runs (dash and coreutils, copied from this machine)
#   /lib*, /usr/lib*     the C libraries those and the JVM link against, found with ldd
#   /etc/passwd, group   root and the user the router runs as (UID below)
#   /usr/share/doc/PKG/copyright
#                        the copyright file of each package those files come from; the image's
#                        /opt/insika-router/NOTICE ends with the list of them: file, package,
#                        version (dpkg's), and the runtime's vendor and version
#
# No package manager, no other shell tools, no HTTP client: nothing the router does not run.
set -eu

# The image's user: not root, and a uid no host account is likely to have.
UID_NAME=insika
UID_NUMBER=10001

die() {
    echo "rootfs.sh: $*" >&2
    exit 1
}

[ $# -eq 2 ] || die "usage: rootfs.sh ROOTFS DIST_HOME"
rootfs=$1
dist=$2
here=$(cd "$(dirname "$0")" && pwd)
[ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/jlink" ] || die "JAVA_HOME must name a JDK with bin/jlink"
[ -x "$dist/bin/insika-router" ] || die "$dist is not an unpacked distribution (no bin/insika-router)"
[ ! -e "$rootfs" ] || die "$rootfs exists already"
umask 022
mkdir -p "$rootfs"
rootfs=$(cd "$rootfs" && pwd)

# The runtime. jlink's release file keeps JAVA_VERSION only; bin/insika-router reads
# JAVA_RUNTIME_VERSION to tell whether lib/insika-router.aot was built by this runtime, so it is
# carried over from the JDK's.
modules=$(grep -v -e '^#' -e '^[[:space:]]*$' "$here/modules" | paste -sd, -)
runtime_version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$JAVA_HOME/release")
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
    ${runtime_version:+--release-info "add:JAVA_RUNTIME_VERSION=\"$runtime_version\""} \
    --output "$rootfs/opt/java"

cp -R "$dist" "$rootfs/opt/insika-router"
rm -f "$rootfs/opt/insika-router/lib/insika-router.aot" "$rootfs/opt/insika-router/lib/insika-router.aot.id"

mkdir -p "$rootfs/bin"
cp "$(command -v dash)" "$rootfs/bin/sh"
for tool in ls cksum readlink; do
    cp "$(command -v "$tool")" "$rootfs/bin/$tool"
done

# Every shared library the tools and the runtime's executables and libraries need, at the path the
# dynamic loader looks for it (ldd's answer), as a plain file. Lines are "name => /path (addr)"
# for libraries and "/path (addr)" for the loader itself; the runtime's own (libjli.so, and
# libjvm.so's "not found") are in /opt/java already.
find "$rootfs/bin" "$rootfs/opt/java" -type f \( -perm -u+x -o -name '*.so' \) \
    | while IFS= read -r elf; do ldd "$elf" 2>/dev/null || true; done \
    | sed -n -e 's/^.*=> \(\/[^ ]*\) (0x.*$/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) (0x.*$/\1/p' \
    | sort -u \
    | while IFS= read -r lib; do
        case $lib in
            "$rootfs"/*) ;;
            *) cp -L --parents "$lib" "$rootfs" ;;
        esac
    done
[ -n "$(find "$rootfs" -name 'libc.so*' -print -quit)" ] || die "ldd found no C library to copy"

# What the image holds beyond the distribution, for its NOTICE: each file copied from this machine
# with the package it belongs to and that package's version and copyright file (dpkg knows a file
# by its path before merged /usr, so both spellings are asked).
package_of() {
    for path in "$1" "${1#/usr}" "/usr$1"; do
        dpkg-query -S "$path" 2>/dev/null | sed -n '1s/^\([^:,]*\).*/\1/p' | grep . && return 0
    done
    return 1
}
notice=$rootfs/opt/insika-router/NOTICE
{
    printf '\nIn this image, outside /opt/insika-router, from the machine that built it:\n\n'
    printf '%s  %s\n' "/opt/java" "$(sed -n 's/^IMPLEMENTOR="\(.*\)"$/\1/p' "$JAVA_HOME/release") Java runtime $runtime_version, jlinked: GPL-2.0-only WITH Classpath-exception-2.0; its modules' notices in /opt/java/legal"
    (cd "$rootfs" && find bin lib* usr/lib* -type f 2>/dev/null | sort) | while IFS= read -r file; do
        case $file in
            bin/sh) source=$(command -v dash) ;;
            bin/*) source=$(command -v "${file#bin/}") ;;
            *) source=/$file ;;
        esac
        if command -v dpkg-query >/dev/null 2>&1 && package=$(package_of "$source"); then
            version=$(dpkg-query -W -f '${Version}' "$package" 2>/dev/null | head -n 1)
            copyright=/usr/share/doc/$package/copyright
            if [ -f "$copyright" ] && [ ! -e "$rootfs$copyright" ]; then
                mkdir -p "$rootfs/usr/share/doc/$package"
                cp "$copyright" "$rootfs$copyright"
            fi
            printf '/%s  %s %s: %s\n' "$file" "$package" "$version" "$copyright"
        else
            printf '/%s  package unknown (no dpkg here)\n' "$file"
        fi
    done
} >> "$notice"

mkdir -p "$rootfs/etc" "$rootfs/proc" "$rootfs/sys" "$rootfs/dev" "$rootfs/tmp"
chmod 1777 "$rootfs/tmp"
cat > "$rootfs/etc/passwd" <<EOF
root:x:0:0:root:/root:/sbin/nologin
$UID_NAME:x:$UID_NUMBER:$UID_NUMBER:insika-router:/nonexistent:/sbin/nologin
EOF
cat > "$rootfs/etc/group" <<EOF
root:x:0:
$UID_NAME:x:$UID_NUMBER:
EOF
