#!/bin/bash
# run9, final device call: the bench built from the final code (defaults: shape 37, and shape 13
# for f32 from n = 16384) in full: sweep of the tiled shapes 13-39 at n = 4096, 8192, 16384, overhead tables
# at the library's defaults (FV_TABLE_DEFAULTS=1), tf32/f16, detection and false alarms; then
# racer freivalds --gpu end to end (float self-tests, the exact s8/u8 check, a refused n).
# Carried from the dev machine: freivalds_gpu_bench (nvcc command in bench/freivalds_gpu_bench.cu)
# and racer_pkg.tar.xz (racer, libracer_freivalds_cuda.so and racer's shared libraries).
cd "$(dirname "$0")"
tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
mkdir -p /tmp/b
FV_SWEEP_FROM=13 FV_SWEEP_SIZES=4096,8192,16384 FV_TABLE_DEFAULTS=1 timeout 330 ./freivalds_gpu_bench /tmp/b > $OUT/log.md 2>&1; echo "bench rc=$?" >> $OUT/log.md
cp /tmp/b/freivalds_gpu.jsonl $OUT/freivalds_gpu.jsonl
{
for f in f32 bf16; do echo "== racer freivalds --gpu --n 4096 --k 10 --format $f --self-test"; racer freivalds --gpu --n 4096 --k 10 --format $f --self-test; echo rc=$?; done
for f in f16 tf32; do echo "== --format $f --n 2048 --k 40 --self-test"; racer freivalds --gpu --n 2048 --k 40 --format $f --self-test; echo rc=$?; done
echo "== same product on the GPU (n 512, seed 5, vector seed 9)"
racer freivalds --gpu --n 512 --format bf16 --seed 5 --vector-seed 9; echo rc=$?
racer freivalds --gpu --n 512 --format f32 --seed 5 --vector-seed 9; echo rc=$?
echo "== exact check"
racer freivalds --gpu --format s8 --n 4096 --k 10 --self-test; echo rc=$?
racer freivalds --gpu --format u8 --n 2048 --k 10 --self-test; echo rc=$?
echo "== n not divisible by 16"
racer freivalds --gpu --n 1000 --k 10 --format bf16 --self-test; echo rc=$?
} > $OUT/racer_gpu.txt 2>&1
grep -E "^\| (f32|bf16) \| (4096|8192|16384) \|" $OUT/log.md | head -6 | awk -F'|' '{print "final:",$2,$3,"s13:",$4,"s33:",$24,"s37:",$28,"s38:",$29,"s39:",$30}'
grep -E "empty graph|chosen|FAILED|rc=" $OUT/log.md | cut -c1-200
grep -E "^\| (f32|bf16|f16|tf32) \|" $OUT/log.md | cut -d'|' -f2-7 | tail -24
grep -E "rc=|==" $OUT/racer_gpu.txt
