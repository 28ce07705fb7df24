#!/bin/bash
# Device call 2 for helper fv (issue #8, run7): empty-graph cost, shape sweep at n = 4096-32768
# against the row-per-lane shape 7 (DIFFERS check), overhead table, then Nsight Compute kernel
# durations at n = 4096 (FV_PROFILE_SHAPE).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
FV_SWEEP_FROM=7 FV_SWEEP_SIZES=${SIZES:-4096,8192,16384,32768} timeout 300 ./freivalds_gpu_bench $OUT --sweep > $OUT/log.md 2>&1; echo "bench rc=$?" >> $OUT/log.md
if command -v ncu > /dev/null; then
  for sh in ${PROFILE_SHAPES:-8 23}; do
    FV_PROFILE_N=4096 FV_PROFILE_SHAPE=$sh timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active -k regex:"tiled_pass|judge_chunk" ./freivalds_gpu_bench /tmp --profile > $OUT/ncu_4096_shape$sh.txt 2>&1
  done
fi
