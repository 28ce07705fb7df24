#!/bin/bash
# run9 call 15: rings of DEPTH items a thread (ASYNC 3: shapes 40 = 4 rows, 256-col blocks, 1 ahead; 41 = 4 rows, 128, 2 ahead; 42 = 2 rows, 256, 2 ahead) against shape 37; two sweeps.
cd "$(dirname "$0")"
for i in 1 2; do mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./bench_inplace /tmp/o$i --sweep > $OUT/${i}_bench_inplace.md 2>&1; echo "rc=$?" >> $OUT/${i}_bench_inplace.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_bench_inplace.jsonl
  grep -c DIFFERS $OUT/${i}_bench_inplace.md; grep chosen $OUT/${i}_bench_inplace.md | cut -c1-80
  grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/${i}_bench_inplace.md | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s37:",$28,"s40:",$31,"s41:",$32,"s42:",$33}'
done
