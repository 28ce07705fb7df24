#!/bin/bash
# Device call for helper fv (issue #8, run6): bench, racer --gpu end to end, Nsight Compute.
cd "$(dirname "$0")"
tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
timeout ${BENCH_LIMIT:-300} ./freivalds_gpu_bench $OUT ${BENCH_MODE:-} > $OUT/log.md 2>&1; echo "bench rc=$?" >> $OUT/log.md
tail -c 3000 $OUT/log.md
if [ -x ./racer ]; then
  {
  for f in bf16 f32; do echo "== racer freivalds --gpu --n 4096 --k 10 --format $f --self-test"; racer freivalds --gpu --n 4096 --k 10 --format $f --self-test; echo rc=$?; done
  echo "== same product on the GPU (n 512, bf16, seed 5, vector seed 9); CPU run on the dev machine"
  racer freivalds --gpu --n 512 --format bf16 --seed 5 --vector-seed 9; echo rc=$?
  racer freivalds --gpu --n 512 --format f32 --seed 5 --vector-seed 9; echo rc=$?
  echo "== n not divisible by 16, and f16/tf32 self-tests"
  racer freivalds --gpu --n 1000 --k 10 --format bf16 --self-test; echo rc=$?
  for f in f16 tf32; do racer freivalds --gpu --n 2048 --k 40 --format $f --self-test; echo rc=$?; done
  } > $OUT/racer_gpu.txt 2>&1
  tail -5 $OUT/racer_gpu.txt
fi
if [ -n "${NCU:-}" ] && command -v ncu >/dev/null; then
  timeout 150 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats -k regex:tiled_pass -c 12 ./freivalds_gpu_bench /tmp --profile > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"
  grep -E "tiled_pass|Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Compute \(SM\)" $OUT/ncu.txt | head -60
fi
