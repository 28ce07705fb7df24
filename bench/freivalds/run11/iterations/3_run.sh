#!/bin/bash
# run11 call 3 (EARLY = 4): the block's vector entries read into registers before the block barrier (stage) against main at 4cf32c6 (base), shapes 37-39, n = 4096-32768, three rounds alternating.
cd "$(dirname "$0")"; tar xJf bins.tar.xz; R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for r in 1 2 3; do for b in bench_base bench_stage; do mkdir -p /tmp/o
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384,32768 timeout 100 ./$b /tmp/o --shapes > $R/${r}_$b.md 2>&1; echo "rc=$?" >> $R/${r}_$b.md
  cp /tmp/o/freivalds_gpu.jsonl $R/${r}_$b.jsonl
  echo "== $r $b $(grep -c DIFFERS $R/${r}_$b.md)"
  grep -E "^\| (f32|bf16) \| [0-9]+ \|" $R/${r}_$b.md | sed 's/([0-9]*)//g' | awk -F'|' '{print $2,$3,"s37",$4,"s39",$6}' | tr -s ' '
done; done
tar cJf $OUT/call7.tar.xz -C $R .
