#!/bin/bash
# run11 call 5: what the end-of-CTA f64 atomics cost (noflush: skipped, results wrong, timing only) and all of a thread's
# vector entries read before the block barrier (early6) against the current code (cur), shapes 37-39, n = 4096-32768, three rounds.
# Builds: -DRACER_FV_EXP_NO_FLUSH (returns before the atomics) and -DRACER_FV_EXP_EARLY=6, switches of an uncommitted trial.
cd "$(dirname "$0")"; tar xJf bins.tar.xz; R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for r in 1 2 3; do for b in bench_cur bench_noflush bench_early6; do mkdir -p /tmp/o
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384,32768 timeout 100 ./$b /tmp/o --shapes > $R/${r}_$b.md 2>&1; echo "rc=$?" >> $R/${r}_$b.md
  cp /tmp/o/freivalds_gpu.jsonl $R/${r}_$b.jsonl
  echo "== $r $b"
  grep -E "^\| (f32|bf16) \| [0-9]+ \|" $R/${r}_$b.md | sed 's/([0-9]*)//g' | sed 's/DIFFERS/D/g' | awk -F'|' '{print $2,$3,"s37",$4}' | tr -s ' ' | tr '\n' ';'; echo
done; done
tar cJf $OUT/call9.tar.xz -C $R .
