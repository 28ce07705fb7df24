#!/bin/bash
# run17 call 9: the cp.async ring on a 128-byte boundary of the shared window (bench_align, with the
# fold epilogue; bench_align_nofold, without) against main (ring 32 bytes past a 128-byte boundary)
# and bench_nofold (80 bytes past), shapes 37-42 at n = 4096-16384, twice in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2; do for b in freivalds_gpu_bench bench_nofold bench_align bench_align_nofold; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call19.tar.xz -C $R .
for f in $R/ab_*.md; do echo "$f"; grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $f | cut -d'|' -f2-4,6; done
