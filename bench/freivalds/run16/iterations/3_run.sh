#!/bin/bash
# run16 call 3: Nsight Compute stall breakdown of the rolled f32 kernels at n = 16384 (bf16's 6 launches skipped).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
FV_PROFILE_N=16384 timeout 200 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section InstructionStats -k regex:tiled_pass -s 6 -c 2 ./freivalds_gpu_bench /tmp --profile > $R/ncu_stalls_16384.txt 2>&1; echo "ncu rc=$?" >> $R/ncu_stalls_16384.txt
FV_PROFILE_N=16384 timeout 200 ncu --clock-control none --metrics regex:smsp__pcsamp_warps_issue_stalled_.*$ -k regex:tiled_pass -s 7 -c 1 ./freivalds_gpu_bench /tmp --profile > $R/ncu_pcsamp_16384.txt 2>&1; echo "ncu rc=$?" >> $R/ncu_pcsamp_16384.txt
tar cJf $OUT/call7.tar.xz -C $R .
grep -E "tiled_pass|Duration|Throughput|Stall|Issued|Eligible|Active Warps|No Eligible|Warp Cycles|rc=" $R/ncu_stalls_16384.txt | sed 's/(TileArgs.*//;s/racer::freivalds::cuda:://' | cut -c1-120 | head -60
grep -E "pcsamp" $R/ncu_pcsamp_16384.txt | awk '$NF+0>0' | sort -k3 -n -r | head -30
