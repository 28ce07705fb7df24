#!/bin/bash
# session 7 call 8: small n (deeper_ring_nomemset.patch): shapes 43/44 = shape 39 with 2 and 3 items in flight, and a probe without the graph's memset node (bench_nomemset, -DRACER_FV_NOMEMSET: the accumulators are not zeroed after the first check, wrong sums, DIFFERS expected).
# Shapes 39-44 at n = 1024,2048,4096,8192, 3 rounds in turn. Binaries: the bench's nvcc command (bench/freivalds_gpu_bench.cu)
# with the macros named, from the patches beside this script (applied to aefb27d with patch -p1).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2 3; do for b in freivalds_gpu_bench bench_nomemset; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=39 FV_SWEEP_TO=44 FV_SWEEP_SIZES=1024,2048,4096,8192 timeout 200 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call8.tar.xz -C $R .
