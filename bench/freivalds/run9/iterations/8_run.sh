#!/bin/bash
# run10 call 1: 64-row tiles (shape 37: cp.async ring of 2 items, 4 CTAs of 4 f32 rows; 38/39: register buffers) against 13 and 33; two sweeps.
cd "$(dirname "$0")"
for i in 1 2; do mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./bench_t64 /tmp/o$i --sweep > $OUT/${i}_bench_t64.md 2>&1; echo "rc=$?" >> $OUT/${i}_bench_t64.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_bench_t64.jsonl
  grep -E "chosen" $OUT/${i}_bench_t64.md | cut -c1-150; grep -c DIFFERS $OUT/${i}_bench_t64.md
  grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/${i}_bench_t64.md | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s33:",$24,"s35:",$26,"s37:",$28,"s38:",$29,"s39:",$30}'
done
