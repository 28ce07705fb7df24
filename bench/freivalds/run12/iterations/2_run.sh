#!/bin/bash
# run12 call 2: shapes 41/42 (37/39 in tiles of one row group a lane group, 256-column blocks: half the splits and atomics)
# against 37/39 in one build, n = 1024-32768, three rounds.
cd "$(dirname "$0")"; tar xJf bins.tar.xz; R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for r in 1 2 3; do mkdir -p /tmp/o
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=1024,4096,8192,16384,32768 timeout 150 ./bench_rg /tmp/o --shapes > $R/${r}_bench_rg.md 2>&1; echo "rc=$?" >> $R/${r}_bench_rg.md
  cp /tmp/o/freivalds_gpu.jsonl $R/${r}_bench_rg.jsonl
  echo "== $r $(grep -c DIFFERS $R/${r}_bench_rg.md) $(grep FAILED $R/${r}_bench_rg.md | head -1)"
  grep -E "^\| (f32|bf16) \| [0-9]+ \|" $R/${r}_bench_rg.md | sed 's/([0-9]*)//g' | awk -F'|' '{print $2,$3,"s37",$4,"s39",$6,"s41",$8,"s42",$9}' | tr -s ' ' | tr '\n' ';'; echo
done
tar cJf $OUT/call11.tar.xz -C $R .
