#!/bin/bash
# run11 call 6: clusters along the column splits adding their accumulators in distributed shared memory (shapes 41 = 37 and
# 42 = 39 with clusters) in the cluster build, against main at 4a20c9e (base): every shape from 37 at n = 1040, 4112 (worst entries
# compared offline), then shapes 37-42 at n = 4096-32768, three rounds alternating.
cd "$(dirname "$0")"; tar xJf bins.tar.xz; R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for b in bench_base bench_cluster; do mkdir -p /tmp/o
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=1040,4112 timeout 100 ./$b /tmp/o --shapes > $R/0_$b.md 2>&1; echo "rc=$?" >> $R/0_$b.md
  cp /tmp/o/freivalds_gpu.jsonl $R/0_$b.jsonl; echo "== $b: $(grep -c DIFFERS $R/0_$b.md) DIFFERS lines (1 = header); $(grep -c FAILED $R/0_$b.md) FAILED"
done
for r in 1 2 3; do for b in bench_base bench_cluster; do mkdir -p /tmp/o
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384,32768 timeout 100 ./$b /tmp/o --shapes > $R/${r}_$b.md 2>&1; echo "rc=$?" >> $R/${r}_$b.md
  cp /tmp/o/freivalds_gpu.jsonl $R/${r}_$b.jsonl
  echo "== $r $b $(grep -c DIFFERS $R/${r}_$b.md) $(grep FAILED $R/${r}_$b.md | head -1)"
  grep -E "^\| (f32|bf16) \| [0-9]+ \|" $R/${r}_$b.md | sed 's/([0-9]*)//g' | awk -F'|' '{print $2,$3,"s37",$4,"s39",$6,"s41",$8,"s42",$9}' | tr -s ' ' | tr '\n' ';'; echo
done; done
tar cJf $OUT/call10.tar.xz -C $R .
