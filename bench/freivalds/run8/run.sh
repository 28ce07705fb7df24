#!/bin/bash
# Device call 2 for helper fv (issue #8, run8): run8's bench (freivalds_gpu_bench_run8: shapes
# 28/29 = 13/14 with pass 2 and the verdict launched as programmatic dependents) in full:
# empty graph, sweep of the tiled shapes 13-29 at n = 4096, 8192, 16384, overhead tables at the
# sweep's pick, tf32/f16 tables, detection; then run7's build (freivalds_gpu_bench, the run7
# kernels) and run8's build again, each sweep + overhead table, on the same machine.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
mkdir -p /tmp/a /tmp/b /tmp/c
FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 150 ./freivalds_gpu_bench_run8 /tmp/a > $OUT/log.md 2>&1; echo "bench rc=$?" >> $OUT/log.md
cp /tmp/a/freivalds_gpu.jsonl $OUT/trace.jsonl
FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 100 ./freivalds_gpu_bench /tmp/b --sweep > $OUT/run7build_log.md 2>&1; echo "bench rc=$?" >> $OUT/run7build_log.md
cp /tmp/b/freivalds_gpu.jsonl $OUT/run7build_trace.jsonl
FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 timeout 100 ./freivalds_gpu_bench_run8 /tmp/c --sweep > $OUT/repeat_log.md 2>&1; echo "bench rc=$?" >> $OUT/repeat_log.md
cp /tmp/c/freivalds_gpu.jsonl $OUT/repeat_trace.jsonl
for f in log.md run7build_log.md repeat_log.md; do echo "== $f"; grep -E "chosen|FAILED|rc=|DIFFERS" $OUT/$f | cut -c1-200; grep -E "^\| f32 \| (4096|8192|16384) \|" $OUT/$f | cut -c1-130; done
