#!/bin/bash
# run18 call 2: the dynamic shared memory's start on a 128-byte boundary too (bench_var12: the
# accumulators and the staged vectors aligned), and with staged vector rows 8 floats apart instead
# of 4 (bench_var13: every row 32-byte aligned), against main, shapes 37-42 at n = 8192/16384, twice in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2; do for b in freivalds_gpu_bench bench_var12 bench_var13; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=8192,16384 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call21.tar.xz -C $R .
for f in $R/ab_*.md; do echo "$f"; grep -E "^\| (f32|bf16) \| (8192|16384) \|" $f | cut -d'|' -f2-4,6; done
