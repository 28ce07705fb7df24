#!/bin/bash
# run11 call 2: every tiled shape (13-40) at n = 1024 and 2048, twice: which shape is fastest where the check is latency-bound.
cd "$(dirname "$0")"; tar xJf bins.tar.xz; R=/tmp/r; mkdir -p $R
for r in 1 2; do mkdir -p /tmp/o
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=1024,2048 timeout 200 ./freivalds_gpu_bench /tmp/o --shapes > $R/${r}_small.md 2>&1; echo "rc=$?" >> $R/${r}_small.md
  cp /tmp/o/freivalds_gpu.jsonl $R/${r}_small.jsonl
  echo "== $r $(grep -c DIFFERS $R/${r}_small.md)"
  grep -E "^\| (f32|bf16) \| [0-9]+ \|" $R/${r}_small.md | sed 's/([0-9]*)//g' | awk -F'|' '{printf "%s %s", $2, $3; for (i = 4; i <= NF - 1; ++i) printf " s%d:%s", i + 9, $i; printf "\n"}' | tr -s ' '
done
tar cJf $OUT/call6.tar.xz -C $R .
