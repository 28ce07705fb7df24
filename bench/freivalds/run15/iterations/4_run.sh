#!/bin/bash
# run15 call 4: the one-item (rolled) chain loop: bench_var4 with 16-term chains (the current model),
# bench_chain32_rolled with 32-term f32 pass-2 chains, bench_var5 the same with 2-item bf16 pass-2 chains;
# against HEAD, shapes 37-42 at 4096/8192/16384, twice in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $R/nvidia_smi.csv 2>&1
for round in 1 2; do for b in freivalds_gpu_bench bench_var4 bench_chain32_rolled bench_var5; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call4.tar.xz -C $R .
