#!/bin/bash
# run16 call 6: the fused kernel with the vectors staged in shared memory (one 512-thread CTA a multiprocessor) (bench shape 43: one cooperative kernel, a CTA's rows whole)
# against shapes 37-42 at n = 1024-8192 (1040 and 2064: partial units), twice.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2; do
  mkdir -p /tmp/o; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=1024,1040,2048,2064 timeout 200 ./bench_fused2 /tmp/o --shapes > $R/ab_${round}_fused.md 2>&1; echo "rc=$?" >> $R/ab_${round}_fused.md
  cp /tmp/o/freivalds_gpu.jsonl $R/ab_${round}_fused.jsonl
done
tar cJf $OUT/call10.tar.xz -C $R .
for f in $R/ab_*.md; do echo "$f"; grep -E "^\| (f32|bf16) \||rc=|FAILED|rror" $f | cut -d'|' -f2-3,4,6,10; done
