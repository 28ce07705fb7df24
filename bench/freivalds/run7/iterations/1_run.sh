#!/bin/bash
# Device call 1 for helper fv (issue #8, run7): shape sweep at n = 4096-32768 + overhead table,
# then Nsight Systems of the library's default shapes at n = 4096 (nsys was not on the machine).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
FV_SWEEP_FROM=8 FV_SWEEP_SIZES=4096,8192,16384,32768 timeout 300 ./freivalds_gpu_bench $OUT --sweep > $OUT/log.md 2>&1; echo "bench rc=$?" >> $OUT/log.md
grep -E "^\| f32 \| (4096|8192)|chosen" $OUT/log.md | cut -c1-2000
grep -E "^\| f32" $OUT/log.md | tail -6 | cut -d'|' -f2-7
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
echo "nsys: $NSYS"
if [ -n "$NSYS" ]; then
  FV_PROFILE_N=4096 timeout 120 $NSYS profile -o /tmp/p4096 --force-overwrite true ./freivalds_gpu_bench /tmp --profile > /dev/null 2>&1
  $NSYS stats -q -r cuda_gpu_kern_sum /tmp/p4096.nsys-rep > $OUT/nsys_4096.txt 2>&1
fi
