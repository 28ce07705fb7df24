#!/bin/bash
# run9 call 12: the ring's rows read in swapped order so that row-splitting tree levels need no selects (bench_sw) against bench_wide2, alternating.
cd "$(dirname "$0")"
i=0
for b in bench_wide2 bench_sw bench_wide2 bench_sw; do i=$((i+1)); mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./$b /tmp/o$i --sweep > $OUT/${i}_$b.md 2>&1; echo "rc=$?" >> $OUT/${i}_$b.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_$b.jsonl
  echo "== $b"; grep -c DIFFERS $OUT/${i}_$b.md
  grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/${i}_$b.md | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s33:",$24,"s37:",$28,"s38:",$29,"s39:",$30}'
done
