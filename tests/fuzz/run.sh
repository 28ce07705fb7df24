#!/usr/bin/env bash
# Builds the PTX fuzzer in build-fuzz/ (clang, ASan+UBSan, libFuzzer) and runs it.
#   tests/fuzz/run.sh [SECONDS] [extra libFuzzer flags...]        default 600 s
# The working corpus lives in $RACER_FUZZ_DIR (default /tmp/racer-ptx-fuzz); it is seeded from
# the shared corpus and tests/fuzz/seeds, and grows across runs. Crashes go to $RACER_FUZZ_DIR/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_TO_RUN=${1:-600}
shift || true
WORK=${RACER_FUZZ_DIR:-/tmp/racer-ptx-fuzz}
CORPUS_SRC=${RACER_CORPUS_DIR:-$PWD/../shared/corpus}/ptx

if [ ! -f build-fuzz/build.ninja ]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRACER_FUZZ=ON
fi
cmake --build build-fuzz --target ptx_parse_fuzz

mkdir -p "$WORK/corpus" "$WORK/artifacts"
for f in "$CORPUS_SRC"/*/*.ptx; do  # file names repeat across front ends: prefix the folder
  cp -n "$f" "$WORK/corpus/$(basename "$(dirname "$f")").$(basename "$f")" || true
done
cp -n tests/fuzz/seeds/*.ptx "$WORK/corpus/" || true

cd "$WORK"
exec "$OLDPWD/build-fuzz/fuzz/ptx_parse_fuzz" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
  -dict="$OLDPWD/tests/fuzz/ptx.dict" -artifact_prefix="$WORK/artifacts/" "$@" corpus
