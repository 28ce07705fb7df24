#!/bin/bash
# run15 call 2: (1) pattern_probe (does the read order lose bandwidth at n = 32768?);
# (2) the fold-build speed: HEAD (fold code), unused_atomg (HEAD without the judge, keeping the
#     never-taken fence so the flush stays ATOMG), prefold (eea6471), shapes 37-42 at 8192/16384, twice in turn;
# (3) Nsight Compute: duration and DRAM throughput of the default kernels at n = 16384 and 32768
#     (-c 4 caught only bf16's kernels: 2_ncu_bf16_*.txt).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $R/nvidia_smi.csv 2>&1
timeout 100 ./pattern_probe > $R/pattern_probe.md 2>&1; echo "probe rc=$?" >> $R/pattern_probe.md
for round in 1 2; do for b in freivalds_gpu_bench bench_unused_atomg bench_prefold; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=8192,16384 timeout 100 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_read.sum.per_second,sm__warps_active.avg.pct_of_peak_sustained_active
for n in 16384 32768; do FV_PROFILE_N=$n timeout 120 ncu --clock-control none --metrics $M -k regex:tiled_pass -c 4 ./freivalds_gpu_bench /tmp --profile > $R/ncu_$n.txt 2>&1; echo "ncu rc=$?" >> $R/ncu_$n.txt; done
tar cJf $OUT/call2.tar.xz -C $R .
