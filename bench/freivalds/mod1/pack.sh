#!/bin/bash
# Usage: pack.sh DEST RUN_SH. Packs what RUN_SH (mod1/run.sh, mod2/run.sh) needs into DEST
# (racer_pkg.tar.xz, and RUN_SH as run.sh) (an ignored folder of the checkout the device tool sends,
# named in its carry): racer and libracer_freivalds_cuda.so from this worktree's build/, the
# project libraries racer links (not libc/libstdc++: the device's are newer), and the plugin's
# sources for a rebuild there.
set -euo pipefail
cd "$(dirname "$0")/../../.."
DEST=$1 RUN_SH=${2:-bench/freivalds/mod1/run.sh}
STAGE=$(mktemp -d)
mkdir -p "$STAGE/lib" "$STAGE/src/freivalds/cuda"
strip --strip-debug -o "$STAGE/racer" build/racer
cp build/libracer_freivalds_cuda.so "$STAGE/"
ldd build/racer | awk '/=> \//{print $3}' | grep -vE '/lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so' | xargs -I{} cp -L {} "$STAGE/lib/"
cp src/freivalds/*.hpp "$STAGE/src/freivalds/" && cp src/freivalds/cuda/*.cu src/freivalds/cuda/*.cuh src/freivalds/cuda/*.h "$STAGE/src/freivalds/cuda/"
rm -rf "$DEST" && mkdir -p "$DEST"
tar cJf "$DEST/racer_pkg.tar.xz" -C "$STAGE" .
cp "$RUN_SH" "$DEST/run.sh"
rm -rf "$STAGE"
du -sh "$DEST"
