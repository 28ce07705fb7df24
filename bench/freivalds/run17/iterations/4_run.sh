#!/bin/bash
# run17 call 4: main, bench_nofold (no folded-verdict epilogue), bench_call (bench_nofold plus a
# never-taken call to a __noinline__ subroutine: the item loops as bench_nofold's), shapes 37-42 at
# n = 8192/16384, twice in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2; do for b in freivalds_gpu_bench bench_nofold bench_call; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=8192,16384 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call14.tar.xz -C $R .
for f in $R/ab_*.md; do echo "$f"; grep -E "^\| (f32|bf16) \| (8192|16384) \|" $f | cut -d'|' -f2-4,6; done
