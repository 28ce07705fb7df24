#!/bin/bash
# run9 call 3: cp.async ring shapes 30-34 (bench_async) against run7's kernels (bench_base), alternating.
cd "$(dirname "$0")"
i=0
for b in bench_async bench_base bench_async; do
  i=$((i+1)); mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./$b /tmp/o$i --sweep > $OUT/${i}_$b.md 2>&1; echo "rc=$?" >> $OUT/${i}_$b.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_$b.jsonl
done
for f in $OUT/*_bench_*.md; do echo "== $f"; grep -E "DIFFERS|rc=|chosen" $f | cut -c1-200 | head -5; grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $f | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s14:",$5,"s30:",$21,"s31:",$22,"s32:",$23,"s33:",$24,"s34:",$25}'; done
