#!/bin/bash
# run15 call 3: (1) f32 chains of 32 terms in pass 2 (4 items: bench_chain32 unrolled, bench_chain32_rolled
# one item an iteration, the tree behind a branch) against HEAD, shapes 37-42 at 8192/16384, twice in turn;
# (2) Nsight Compute of f32 (bf16's 6 launches skipped): duration, DRAM, SM clock, HEAD at 16384 and 32768, prefold at 16384.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $R/nvidia_smi.csv 2>&1
for round in 1 2; do for b in freivalds_gpu_bench bench_chain32 bench_chain32_rolled; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=8192,16384 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_read.sum.per_second,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum
for n in 16384 32768; do FV_PROFILE_N=$n timeout 120 ncu --clock-control none --metrics $M -k regex:tiled_pass -s 6 -c 4 ./freivalds_gpu_bench /tmp --profile > $R/ncu_head_$n.txt 2>&1; echo "ncu rc=$?" >> $R/ncu_head_$n.txt; done
FV_PROFILE_N=16384 timeout 120 ncu --clock-control none --metrics $M -k regex:tiled_pass -s 6 -c 4 ./bench_prefold /tmp --profile > $R/ncu_prefold_16384.txt 2>&1
tar cJf $OUT/call3.tar.xz -C $R .
