#!/bin/bash
# run10 call 5: shape 41 (shape 37 as one cooperative kernel: pass 1, grid barrier, pass 2, per-tile last-CTA verdict) against 37-40, n = 1024-32768, twice; overhead table at the sweep's choice.
cd "$(dirname "$0")"; tar xJf bins.tar.xz; R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit,pstate --format=csv > $R/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $R/date.txt
for r in 1 2; do mkdir -p /tmp/o
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=1024,2048,4096,8192,16384,32768 timeout 250 ./bench_fused /tmp/o --sweep > $R/${r}_sweep.md 2>&1; echo "rc=$?" >> $R/${r}_sweep.md
  cp /tmp/o/freivalds_gpu.jsonl $R/${r}_sweep.jsonl
  echo "== $r $(grep -c DIFFERS $R/${r}_sweep.md)"; grep -E "DIFFERS|FAILED|chosen" $R/${r}_sweep.md | tail -3 | cut -c1-300
  grep -E "^\| (f32|bf16) \| [0-9]+ \| [0-9.]+ \(" $R/${r}_sweep.md | awk -F'|' '{print $2,$3,"s37",$4,"s39",$6,"s41",$8}' | sed 's/([0-9]*)//g'
  grep -E "^\| (f32|bf16) \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \|" $R/${r}_sweep.md | cut -d'|' -f2-7
done
tar cJf $OUT/call5.tar.xz -C $R .
