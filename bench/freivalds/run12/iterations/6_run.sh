#!/bin/bash
# run12 call 6: why the fold build ran shape 37 6-7% faster: a build with only the 256-byte alignment (align), the same with
# 80 bytes of static shared memory in every pass (pad), and the fold build (fold), shapes 37 and 39, n = 4096-16384, three rounds.
cd "$(dirname "$0")"; tar xJf bins.tar.xz; R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for r in 1 2 3; do for b in bench_align bench_pad bench_fold; do mkdir -p /tmp/o
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384 timeout 100 ./$b /tmp/o --shapes > $R/${r}_$b.md 2>&1; echo "rc=$?" >> $R/${r}_$b.md
  cp /tmp/o/freivalds_gpu.jsonl $R/${r}_$b.jsonl
  echo "== $r $b"; grep -E "^\| (f32|bf16) \| [0-9]+ \|" $R/${r}_$b.md | sed 's/([0-9]*)//g' | awk -F'|' '{print $2,$3,"s37",$4,"s39",$6}' | tr -s ' ' | tr '\n' ';'; echo
done; done
tar cJf $OUT/call15.tar.xz -C $R .
