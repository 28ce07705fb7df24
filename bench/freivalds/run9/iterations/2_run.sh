#!/bin/bash
# run9 call 2: read-only probes of the access pattern, then base / no swap / swap level 1, alternating (f32 and bf16 sweeps 13-29).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
./probe/read_probe > $OUT/probe.txt 2>&1
i=0
for b in bench_base bench_swap0 bench_swap1 bench_base bench_swap0 bench_swap1; do
  i=$((i+1)); mkdir -p /tmp/o$i
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 110 ./$b /tmp/o$i --sweep > $OUT/${i}_$b.md 2>&1; echo "rc=$?" >> $OUT/${i}_$b.md
done
cat $OUT/probe.txt
for f in $OUT/*_bench_*.md; do echo "== $f"; grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $f | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s14:",$5,"s18:",$9}'; done
