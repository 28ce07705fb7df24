#!/bin/bash
# run9 call 10: the cp.async ring in 256-thread CTAs (shapes 37: 4 f32 rows, 1 item ahead; 38: 2 rows, 2 ahead) against 13 and 33; two sweeps.
cd "$(dirname "$0")"
for i in 1 2; do mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./bench_wide /tmp/o$i --sweep > $OUT/${i}_bench_wide.md 2>&1; echo "rc=$?" >> $OUT/${i}_bench_wide.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_bench_wide.jsonl
  grep -E "chosen|rc=" $OUT/${i}_bench_wide.md | cut -c1-150; grep -c DIFFERS $OUT/${i}_bench_wide.md
  grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/${i}_bench_wide.md | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s28:",$19,"s33:",$24,"s35:",$26,"s37:",$28,"s38:",$29}'
done
