#!/bin/bash
# session 7 call 6: a one-stage cp.async ring (bench_ring1, -DRACER_FV_RING1: item i + 1 copied into item i's stage once fetched; one item in flight while one computes, as in main, in half the shared memory) against main; shapes 43/44 were 37/39 with 256-column blocks (two CTAs a multiprocessor only with the one-stage ring).
# Shapes 37-44 at n = 4096,8192,16384,32768, 2 rounds in turn. Binaries: the bench's nvcc command (bench/freivalds_gpu_bench.cu)
# with the macros named, from the patches beside this script (applied to aefb27d with patch -p1).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2; do for b in freivalds_gpu_bench bench_ring1; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_TO=44 FV_SWEEP_SIZES=4096,8192,16384,32768 timeout 200 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call6.tar.xz -C $R .
