#!/bin/bash
# run17 call 8: is it where the dynamic shared memory starts? bench_nofold_pad = bench_nofold plus
# 80 bytes of static shared memory (SHARED 1104 as main's, 1024 without), against main and
# bench_nofold, shapes 37-42 at n = 8192/16384, twice in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2; do for b in freivalds_gpu_bench bench_nofold bench_nofold_pad; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=8192,16384 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call18.tar.xz -C $R .
