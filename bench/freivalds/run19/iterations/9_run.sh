#!/bin/bash
# session 7 call 9: Nsight Compute at n = 32768, the default kernels (shape 37, main): how busy the multiprocessors are over
# each pass (the tail of the one wave of 256 CTAs), DRAM and L2 throughput; bf16's 2nd and 3rd checks, then f32's 1st and 2nd.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
M=gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_active.min,sm__cycles_active.max,sm__cycles_elapsed.avg,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__cycles_active.avg,gpc__cycles_elapsed.max
FV_PROFILE_N=32768 timeout 300 ncu --clock-control none --metrics $M -k regex:tiled_pass -s 2 -c 8 ./freivalds_gpu_bench /tmp --profile > $R/ncu_32768.txt 2>&1; echo "ncu rc=$?" >> $R/ncu_32768.txt
tar cJf $OUT/call9.tar.xz -C $R .
