#!/bin/bash
# run9 call 6: line prefetches (shapes 39-41) against 13 and 33; two sweeps.
cd "$(dirname "$0")"
for i in 1 2; do mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./bench_pf /tmp/o$i --sweep > $OUT/${i}_bench_pf.md 2>&1; echo "rc=$?" >> $OUT/${i}_bench_pf.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_bench_pf.jsonl
  grep -E "chosen" $OUT/${i}_bench_pf.md | cut -c1-150; grep -c DIFFERS $OUT/${i}_bench_pf.md
  grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/${i}_bench_pf.md | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s14:",$5,"s28:",$19,"s33:",$24,"s35:",$26,"s39:",$30,"s40:",$31,"s41:",$32}'
done
