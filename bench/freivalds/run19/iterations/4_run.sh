#!/bin/bash
# session 7 call 4: probes, wrong sums (DIFFERS expected): the item loop's arithmetic cut to one addition a loaded value (bench_nocompute, -DRACER_FV_NOCOMPUTE); the vectors staged for the first block only, no barriers after (bench_nostage, -DRACER_FV_NOSTAGE); against main.
# Shapes 37-37 at n = 8192,16384,32768, 3 rounds in turn. Binaries: the bench's nvcc command (bench/freivalds_gpu_bench.cu)
# with the macros named, from the patches beside this script (applied to aefb27d with patch -p1).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2 3; do for b in freivalds_gpu_bench bench_nocompute bench_nostage; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_TO=37 FV_SWEEP_SIZES=8192,16384,32768 timeout 200 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call4.tar.xz -C $R .
