#!/bin/bash
# session 7 call 15: why the memset-free build (run20) is slower: probes of it without the verdict's zeroing of X and xm
# (bench_nozero) and without pass 1's clearing of the results (bench_noclear), both giving wrong sums after the first
# check (DIFFERS expected), against run20 and run19; shapes 37-39 at n = 1024/4096/8192, two rounds in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2; do for b in bench_run19 freivalds_gpu_bench bench_nozero bench_noclear; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_TO=39 FV_SWEEP_SIZES=1024,4096,8192 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call15.tar.xz -C $R .
for f in $R/ab_*.md; do echo "$f"; grep -E "^\| (f32|bf16) \| [0-9]+ \|" $f | cut -d"|" -f2-4,6 | sed 's/([0-9]*)//g'; done
