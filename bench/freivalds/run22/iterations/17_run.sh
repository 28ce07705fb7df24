#!/bin/bash
# session 7 call 17: the 256-byte L2 prefetch hint on the f32 kernels' copies only (bench_f32pf; calls 1-2 measured it
# -0.4 to -1.1% for f32 on run18's kernels and slower for bf16) against the current build (bench_head, 033c10b);
# shapes 37-39 at n = 8192-32768, three rounds in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2 3; do for b in bench_head bench_f32pf; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_TO=39 FV_SWEEP_SIZES=8192,16384,32768 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call17.tar.xz -C $R .
