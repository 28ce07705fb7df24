#!/bin/bash
# run9 call 11: shape 39 (37 with overlapped passes) in a sweep; Nsight Compute stall reasons of shape 37 (f32, n = 8192).
cd "$(dirname "$0")"
mkdir -p /tmp/o1
FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./bench_wide2 /tmp/o1 --sweep > $OUT/1_bench_wide2.md 2>&1; echo "rc=$?" >> $OUT/1_bench_wide2.md
cp /tmp/o1/freivalds_gpu.jsonl $OUT/1_bench_wide2.jsonl
grep -c DIFFERS $OUT/1_bench_wide2.md
grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/1_bench_wide2.md | head -6 | awk -F'|' '{print $2,$3,"s13:",$4,"s28:",$19,"s33:",$24,"s37:",$28,"s38:",$29,"s39:",$30}'
grep -E "^\| (f32|bf16) \| [0-9]+ \| [0-9.]+ \|" $OUT/1_bench_wide2.md | cut -d'|' -f2-7 | head -12
M="smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
FV_PROFILE_SHAPE=37 timeout 90 ncu --clock-control none --metrics $M -k regex:tiled_pass -s 6 -c 2 ./bench_wide2 /tmp --profile > $OUT/ncu_37.txt 2>&1
grep -E "tiled_pass|issue_active|warps_active|dram__|duration|registers_per|occupancy_limit|long_score|short_score|not_selected|wait_per|barrier_per|mio_thr|math_pipe" $OUT/ncu_37.txt | cut -c1-150
