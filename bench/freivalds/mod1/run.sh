#!/bin/bash
# Device call for helper mod (the exact s8/u8 check on the GPU): racer and its CUDA plugin,
# built on the dev machine (pack.sh), carried with the project libraries racer links; the
# plugin is rebuilt here from the carried sources if the carried one does not load.
# racer freivalds --gpu --format s8 --self-test at n = 1024 .. 16384, u8 at 8192, other chunk
# sizes (k = 4, 13), a refused n, then the GPU and the CPU on the same products (n = 1024).
cd "$(dirname "$0")"
tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
export PATH=$PATH:/usr/local/cuda/bin
if ! racer freivalds --gpu --format s8 --n 64 --k 4 --vector-seed 1 > $OUT/probe.txt 2>&1; then
  echo "carried plugin did not run ($(tail -1 $OUT/probe.txt)); rebuilding it here" >> $OUT/log.txt
  nvcc -std=c++20 -O3 -shared -Xcompiler -fPIC -gencode=arch=compute_90,code=sm_90 -Isrc src/freivalds/cuda/plugin.cu \
    src/freivalds/cuda/device_check.cu src/freivalds/cuda/device_data.cu src/freivalds/cuda/device_int_data.cu \
    src/freivalds/cuda/modular_check.cu -lcublas -o libracer_freivalds_cuda.so >> $OUT/log.txt 2>&1
fi
run() { echo "== racer freivalds $*"; timeout 60 bash -c "LD_LIBRARY_PATH=$PWD/lib ./racer freivalds $*"; echo "rc=$?"; }
{
for n in 1024 4096 8192 16384; do run --gpu --format s8 --n $n --k 10 --vector-seed 7 --self-test; done
run --gpu --format u8 --n 8192 --k 10 --vector-seed 7 --self-test
run --gpu --format s8 --n 16384 --k 10 --vector-seed 8 --self-test
run --gpu --format s8 --n 2048 --k 4 --vector-seed 7 --self-test
run --gpu --format u8 --n 2048 --k 13 --vector-seed 7 --self-test
echo "== refused: n not divisible by 32"
run --gpu --format s8 --n 1000 --k 10 --self-test
echo "== the same products on the GPU and the CPU (n 1024, seed 3, vector seed 9)"
for f in s8 u8; do
  run --gpu --format $f --n 1024 --k 10 --seed 3 --vector-seed 9 --self-test
  run --cpu --format $f --n 1024 --k 10 --seed 3 --vector-seed 9 --self-test
done
echo "== trace records (key made here, public key beside the trace)"
racer trace keygen /tmp/k > /dev/null && cp /tmp/k.pub $OUT/trace_key.pub
run --gpu --format s8 --n 4096 --k 10 --vector-seed 7 --self-test --trace $OUT/trace.jsonl --key /tmp/k
racer trace verify $OUT/trace.jsonl --key $OUT/trace_key.pub --expect-records 2; echo "verify rc=$?"
} >> $OUT/log.txt 2>&1
grep -E "^==|rc=|PASS|FAIL|ms" $OUT/log.txt | cut -c1-200
