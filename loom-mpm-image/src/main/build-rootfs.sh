#!/usr/bin/env bash
# The image's base layer, built here instead of pulled (no registry is reachable from the build):
# a runtime jlink'ed from the build's JDK with the modules loom-mpm.jar needs, the shared
# libraries its binaries load (the C library of the build machine: the image has no distribution
# under it), and the account it runs as.
#   build-rootfs.sh JAVA_HOME OUT_DIR MODULES
set -euo pipefail
jdk=$1 out=$2 modules=$3
rm -rf "$out"
mkdir -p "$out/opt" "$out/etc" "$out/tmp"
# --generate-cds-archive: the JDK's default class-data-sharing archive for this runtime (a
# jlink'ed runtime has none otherwise, and every start then loads the JDK's ~1,000 start-up
# classes one by one: ~75 ms more CPU to the first request, measured; +7.7 MB gzipped).
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --compress=zip-6 --generate-cds-archive --output "$out/opt/java"
# Every library outside the runtime that its executables and libraries need, at the path the
# dynamic linker looks for it (ldd's left-hand path for the loader, the resolved one otherwise).
find "$out/opt/java" -type f \( -name '*.so' -o -perm -u+x \) -print0 \
  | xargs -0 ldd 2>/dev/null \
  | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' \
  | sort -u | while read -r lib; do
      case "$lib" in "$out"/*) continue ;; esac
      mkdir -p "$out$(dirname "$lib")"
      cp -L "$lib" "$out$lib"
    done
# The account: uid/gid 65532, no shell, no home (the JVM's user.home is then /nonexistent).
cat > "$out/etc/passwd" <<'PW'
root:x:0:0:root:/root:/sbin/nologin
loom:x:65532:65532:loom-mpm:/nonexistent:/sbin/nologin
PW
cat > "$out/etc/group" <<'GR'
root:x:0:
loom:x:65532:
GR
