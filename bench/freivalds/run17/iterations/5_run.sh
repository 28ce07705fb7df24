#!/bin/bash
# run17 call 5: the final bench (a shape DIFFERS also on its tolerance) over every shape from 0 at n = 1040/4096.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R /tmp/o
date -u +%FT%TZ > $R/date.txt
FV_SWEEP_FROM=0 FV_SWEEP_SIZES=1040,4096 timeout 300 ./bench_final /tmp/o --shapes > $R/shapes.md 2>&1; echo "rc=$?" >> $R/shapes.md
cp /tmp/o/freivalds_gpu.jsonl $R/shapes.jsonl
tar cJf $OUT/call15.tar.xz -C $R .
grep -c DIFFERS $R/shapes.md; grep -E "rc=|FAILED" $R/shapes.md; grep -E "^\| (f32|bf16) \|" $R/shapes.md | cut -c1-150
