#!/bin/bash
# run9 call 5: early loads (shapes 37, 38) against 13, 14, 33; two sweeps.
cd "$(dirname "$0")"
for i in 1 2; do mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./bench_r3 /tmp/o$i --sweep > $OUT/${i}_bench_r3.md 2>&1; echo "rc=$?" >> $OUT/${i}_bench_r3.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_bench_r3.jsonl
  grep -E "DIFFERS|chosen" $OUT/${i}_bench_r3.md | cut -c1-150
  grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/${i}_bench_r3.md | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s14:",$5,"s28:",$19,"s33:",$24,"s35:",$26,"s37:",$28,"s38:",$29}'
done
