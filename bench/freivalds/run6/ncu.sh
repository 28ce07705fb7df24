#!/bin/bash
# Nsight Compute of the library's default tiled shapes at n = 8192: f32 (shape 8) and bf16 (shape 10).
cd "$(dirname "$0")"
S="--clock-control none --set full --import-source no"
{ FV_PROFILE_SHAPE=8 timeout 60 ncu $S -k regex:tiled_pass -s 6 -c 2 ./freivalds_gpu_bench /tmp --profile;
  FV_PROFILE_SHAPE=10 timeout 60 ncu $S -k regex:tiled_pass -c 2 ./freivalds_gpu_bench /tmp --profile; } > $OUT/ncu.txt 2>&1
grep -E "  void tiled_pass|^    Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy" $OUT/ncu.txt
