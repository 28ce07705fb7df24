#!/bin/bash
# run17 call 7: the ring's block columns as a compile-time constant (vector reads at immediate
# offsets): bench_constvs (with the fold epilogue), bench_constvs_nofold (without), against main and
# bench_nofold, shapes 37-42 at n = 4096-16384, twice in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2; do for b in freivalds_gpu_bench bench_constvs bench_constvs_nofold bench_nofold; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call17.tar.xz -C $R .
for f in $R/ab_*.md; do echo "$f"; grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $f | cut -d'|' -f2-4,6; done
