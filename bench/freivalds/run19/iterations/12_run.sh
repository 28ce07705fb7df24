#!/bin/bash
# session 7 call 12: the run19 build (freivalds_gpu_bench) against the same with the matrices' cp.async copies marked evict-first in L2 (bench_evict, evict_first.patch).
# Shapes 37-39 at n = 8192,16384,32768, 3 rounds in turn. Binaries: the bench's nvcc command (bench/freivalds_gpu_bench.cu)
# with the macros named, from the patches beside this script (applied to aefb27d with patch -p1).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2 3; do for b in freivalds_gpu_bench bench_evict; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_TO=39 FV_SWEEP_SIZES=8192,16384,32768 timeout 200 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call12.tar.xz -C $R .
