#!/bin/bash
# run16 call 5: Nsight Compute durations at n = 1024: the fused kernel (shape 43) and the default kernels (shape 39).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,smsp__inst_executed.sum,smsp__cycles_active.avg
FV_PROFILE_N=1024 FV_PROFILE_SHAPE=43 timeout 100 ncu --clock-control none --metrics $M ./bench_fused /tmp --profile > $R/ncu_fused_1024.txt 2>&1; echo "rc=$?" >> $R/ncu_fused_1024.txt
FV_PROFILE_N=1024 FV_PROFILE_SHAPE=39 timeout 100 ncu --clock-control none --metrics $M ./bench_fused /tmp --profile > $R/ncu_s39_1024.txt 2>&1; echo "rc=$?" >> $R/ncu_s39_1024.txt
FV_PROFILE_N=1024 FV_PROFILE_SHAPE=43 timeout 100 ncu --clock-control none --section WarpStateStats --section LaunchStats --section Occupancy -k regex:fused -c 2 ./bench_fused /tmp --profile > $R/ncu_fused_stalls_1024.txt 2>&1
tar cJf $OUT/call9.tar.xz -C $R .
for f in $R/ncu_fused_1024.txt $R/ncu_s39_1024.txt; do echo $f; grep -E "^  [a-z_]+.*\(|  void|duration|inst_exec|rc=" $f | sed 's/(TileArgs.*//;s/(FusedArgs.*//;s/racer::freivalds::cuda:://' | cut -c1-100 | head -40; done
grep -E "Stall|Warp Cycles|Registers|Block Limit|Achieved|Grid Size|Waves" $R/ncu_fused_stalls_1024.txt | head -30
