#!/bin/bash
# run9 call 9: 4 f32 rows at 5 CTAs a multiprocessor (bench_c5: 96 registers, shape 37) against the 128-register build (bench_c4), alternating.
cd "$(dirname "$0")"
i=0
for b in bench_c4 bench_c5 bench_c4 bench_c5; do i=$((i+1)); mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./$b /tmp/o$i --sweep > $OUT/${i}_$b.md 2>&1; echo "rc=$?" >> $OUT/${i}_$b.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_$b.jsonl
  echo "== $b"; grep -c DIFFERS $OUT/${i}_$b.md
  grep -E "^\| (f32) \| (4096|8192|16384) \|" $OUT/${i}_$b.md | head -3 | awk -F'|' '{print $2,$3,"s13:",$4,"s20:",$11,"s21:",$12,"s28:",$19,"s35:",$26,"s37:",$28}'
done
