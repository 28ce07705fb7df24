#!/bin/bash
# Device call 2 for helper mod: the f64 kernels (the default now) against mod1's 64-bit integer
# ones (RACER_FV_MODULAR_ARITH=int64) on the same machine, s8 at n = 1024 .. 32768, u8 at 8192,
# other chunk sizes, then the GPU (both arithmetics) and the CPU on the same products (n = 1024).
# Packed as mod1 (../mod1/pack.sh DEST bench/freivalds/mod2/run.sh).
cd "$(dirname "$0")"
tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
run() { echo "== ${ARITH:+RACER_FV_MODULAR_ARITH=$ARITH }racer freivalds $*"; RACER_FV_MODULAR_ARITH=$ARITH timeout 60 bash -c "LD_LIBRARY_PATH=$PWD/lib ./racer freivalds $*"; echo "rc=$?"; }
{
for n in 1024 4096 8192 16384 32768; do
  for ARITH in f64 int64; do run --gpu --format s8 --n $n --k 10 --vector-seed 7 --self-test; done
done
ARITH=f64
run --gpu --format u8 --n 8192 --k 10 --vector-seed 7 --self-test
for n in 8192 16384; do run --gpu --format s8 --n $n --k 10 --vector-seed 8 --self-test; done
run --gpu --format s8 --n 2048 --k 4 --vector-seed 7 --self-test
run --gpu --format s8 --n 2048 --k 8 --vector-seed 7 --self-test
run --gpu --format u8 --n 2048 --k 13 --vector-seed 7 --self-test
echo "== the same products on the GPU (both arithmetics) and the CPU (n 1024, seed 3, vector seed 9)"
for f in s8 u8; do
  for ARITH in f64 int64; do run --gpu --format $f --n 1024 --k 10 --seed 3 --vector-seed 9 --self-test; done
  ARITH= run --cpu --format $f --n 1024 --k 10 --seed 3 --vector-seed 9 --self-test
done
echo "== trace records (key made here, public key beside the trace)"
racer trace keygen /tmp/k > /dev/null && cp /tmp/k.pub $OUT/trace_key.pub
ARITH=f64
run --gpu --format s8 --n 16384 --k 10 --vector-seed 7 --self-test --trace $OUT/trace.jsonl --key /tmp/k
racer trace verify $OUT/trace.jsonl --key $OUT/trace_key.pub --expect-records 2; echo "verify rc=$?"
} >> $OUT/log.txt 2>&1
grep -E "^==|rc=|PASS|FAIL|ms" $OUT/log.txt | cut -c1-200
