#!/bin/bash
# session 7 call 10: tiles of 512 rows (bench_tile4: -DRACER_FV_RING1 -DRACER_FV_TILE4, max_tile_rows 4 row groups a lane group; fits two CTAs a multiprocessor only with the one-stage ring) and the one-stage ring alone (bench_ring1), against main.
# Shapes 37-39 at n = 1024,2048,4096,8192,16384,32768, 3 rounds in turn. Binaries: the bench's nvcc command (bench/freivalds_gpu_bench.cu)
# with the macros named, from the patches beside this script (applied to aefb27d with patch -p1).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2 3; do for b in freivalds_gpu_bench bench_ring1 bench_tile4; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_TO=39 FV_SWEEP_SIZES=1024,2048,4096,8192,16384,32768 timeout 200 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call10.tar.xz -C $R .
