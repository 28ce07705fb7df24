#!/bin/bash
# run16 call 2: the check right after the matmul against the same check rested, with the SM clock
# after each (bench columns added after run16): shapes 37-42 at n = 32768 alone, then the overhead
# tables at the library's defaults; Nsight Compute of the f32 kernels at n = 32768 (duration, clock).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R /tmp/b
date -u +%FT%TZ > $R/date.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $R/nvidia_smi.csv 2>&1
FV_SWEEP_FROM=37 FV_SWEEP_SIZES=32768 FV_TABLE_DEFAULTS=1 timeout 300 ./freivalds_gpu_bench /tmp/b --sweep > $R/log.md 2>&1; echo "bench rc=$?" >> $R/log.md
cp /tmp/b/freivalds_gpu.jsonl $R/freivalds_gpu.jsonl
M=gpu__time_duration.sum,dram__bytes_read.sum.per_second,sm__cycles_elapsed.avg.per_second
FV_PROFILE_N=32768 timeout 120 ncu --clock-control none --metrics $M -k regex:tiled_pass -s 6 -c 4 ./freivalds_gpu_bench /tmp --profile > $R/ncu_32768.txt 2>&1; echo "ncu rc=$?" >> $R/ncu_32768.txt
tar cJf $OUT/call6.tar.xz -C $R .
grep -E "^\| (f32|bf16) \|" $R/log.md | cut -d'|' -f2-7,15-17
grep -E "rc=|chosen" $R/log.md
grep -E "tiled_pass|duration|per_second" $R/ncu_32768.txt | sed 's/(TileArgs.*//;s/racer::freivalds::cuda:://' | cut -c1-110
