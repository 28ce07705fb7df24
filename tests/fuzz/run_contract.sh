#!/usr/bin/env bash
# Builds the contract-language fuzzer in build-fuzz/ (clang, ASan+UBSan, libFuzzer) and runs it
# single-process (-workers=1, kind to a shared machine).
#   tests/fuzz/run_contract.sh [SECONDS] [extra libFuzzer flags...]      default 600 s
# Working corpus in $RACER_FUZZ_DIR (default /tmp/racer-contract-fuzz), seeded from contracts/.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_TO_RUN=${1:-600}
shift || true
WORK=${RACER_FUZZ_DIR:-/tmp/racer-contract-fuzz}
if [ ! -f build-fuzz/build.ninja ]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRACER_FUZZ=ON
fi
cmake --build build-fuzz --target contract_parse_fuzz -j 1
mkdir -p "$WORK/corpus" "$WORK/artifacts"
cp -n contracts/*.kc contracts/examples/*.kc "$WORK/corpus/" || true
exec build-fuzz/fuzz/contract_parse_fuzz -workers=1 -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 \
  -max_len=8192 -dict=tests/fuzz/contract.dict -artifact_prefix="$WORK/artifacts/" "$@" "$WORK/corpus"
