#!/bin/bash
# Device call 1 for helper fv (issue #8, run8): the shape sweep (tiled shapes 13-27, f32 and
# bf16, n = 4096, 8192, 16384) with run8's kernels (freivalds_gpu_bench_run8: one item stream
# across a split's column blocks, batched staging) and, on the same machine, with run7's build
# (freivalds_gpu_bench: run7 call 2's binary, the same kernels as run7), then Nsight Compute
# kernel durations of run8's shape 13 at n = 8192.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
mkdir -p /tmp/new /tmp/old
for round in 1 2; do
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 120 ./freivalds_gpu_bench_run8 /tmp/new --sweep > $OUT/new_log_$round.md 2>&1; echo "bench rc=$?" >> $OUT/new_log_$round.md
  cp /tmp/new/freivalds_gpu.jsonl $OUT/new_trace_$round.jsonl
  [ $round = 2 ] && break
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 120 ./freivalds_gpu_bench /tmp/old --sweep > $OUT/old_log.md 2>&1; echo "bench rc=$?" >> $OUT/old_log.md
  cp /tmp/old/freivalds_gpu.jsonl $OUT/old_trace.jsonl
done
grep -E "^\| f32 \| (4096|8192|16384) \|" $OUT/new_log_1.md $OUT/old_log.md | cut -c1-400 | head -20
if command -v ncu > /dev/null; then
  FV_PROFILE_N=8192 FV_PROFILE_SHAPE=13 timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed -k regex:"tiled_pass|judge_chunk" ./freivalds_gpu_bench_run8 /tmp --profile > $OUT/ncu_8192_shape13.txt 2>&1
  grep -E "tiled_pass|judge|duration|throughput" $OUT/ncu_8192_shape13.txt | cut -c1-160 | head -20
fi
