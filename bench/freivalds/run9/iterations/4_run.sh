#!/bin/bash
# run9 call 4: 2 rows of f32 in 80 registers (shapes 35, 36) in the sweep; Nsight Compute stall reasons of shapes 13 and 35 (f32, n = 8192).
cd "$(dirname "$0")"
mkdir -p /tmp/o1
FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./bench_r2 /tmp/o1 --sweep > $OUT/1_bench_r2.md 2>&1; echo "rc=$?" >> $OUT/1_bench_r2.md
cp /tmp/o1/freivalds_gpu.jsonl $OUT/1_bench_r2.jsonl
M="smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
for sh in 13 35 33; do
  FV_PROFILE_SHAPE=$sh timeout 90 ncu --clock-control none --metrics $M -k regex:tiled_pass -s 6 -c 2 ./bench_r2 /tmp --profile > $OUT/ncu_$sh.txt 2>&1
done
grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/1_bench_r2.md | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s14:",$5,"s28:",$19,"s33:",$24,"s35:",$26,"s36:",$27}'
for sh in 13 35 33; do echo "== $sh"; grep -E "tiled_pass|issue_active|warps_active|dram__|duration|registers_per|occupancy_limit|stalled" $OUT/ncu_$sh.txt | awk '{ if ($NF+0 > 0.05 || $0 ~ /tiled|duration|dram|issue_active|warps_active|limit|registers/) print }' | cut -c1-150; done
