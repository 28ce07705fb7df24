#!/bin/bash
# run9 call 1: run7/8 kernels (bench_base, main at 969a151) against the leaner item loop (bench_new), alternating.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
i=0
for b in bench_base bench_new bench_base bench_new; do
  i=$((i+1)); mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 110 ./$b /tmp/o$i --sweep > $OUT/${i}_$b.md 2>&1; echo "rc=$?" >> $OUT/${i}_$b.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_$b.jsonl
done
for f in $OUT/*.md; do echo "== $f"; grep -E "chosen|FAILED|rc=|DIFFERS" $f | cut -c1-160; done
