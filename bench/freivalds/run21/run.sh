#!/bin/bash
# run21: run19 again (the same kernels, at commit 033c10b: the bench also prints the empty graph without its memset) on
# whichever H200 the call gets, a second full sample; the bench records the SM clock after the matmul and after the check and the check rested; same kernels (defaults shape 39 up to n = 4096, 37 above), in full: sweep of shapes 37-42 at n = 1024-16384,
# overhead tables at the library's default (FV_TABLE_DEFAULTS=1), tf32/f16, detection and false
# alarms; then racer freivalds --gpu end to end (float self-tests, the exact s8/u8 check, a
# refused n). Carried from the dev machine: bins.tar.xz (freivalds_gpu_bench, nvcc command in
# bench/freivalds_gpu_bench.cu) and pkg/racer_pkg.tar.xz (racer, libracer_freivalds_cuda.so and
# racer's shared libraries).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R /tmp/b
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $R/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $R/date.txt
FV_SWEEP_FROM=37 FV_SWEEP_SIZES=1024,2048,4096,8192,16384 FV_TABLE_DEFAULTS=1 timeout 420 ./freivalds_gpu_bench /tmp/b > $R/log.md 2>&1; echo "bench rc=$?" >> $R/log.md
cp /tmp/b/freivalds_gpu.jsonl $R/freivalds_gpu.jsonl
cd pkg && tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
{
for f in f32 bf16; do for n in 8192 4096 1040; do echo "== racer freivalds --gpu --n $n --k 10 --format $f --self-test"; racer freivalds --gpu --n $n --k 10 --format $f --self-test; echo rc=$?; done; done
for f in f16 tf32 f32; do echo "== --format $f --n 2064 --k 40 --self-test"; racer freivalds --gpu --n 2064 --k 40 --format $f --self-test; echo rc=$?; done
echo "== same product on the GPU and the CPU (n 1040, seed 5, vector seed 9), corrupted at 3x the tolerance"
racer freivalds --gpu --n 1040 --format f32 --seed 5 --vector-seed 9 --self-test --corrupt-factor 3; echo rc=$?
racer freivalds --cpu --n 1040 --format f32 --seed 5 --vector-seed 9 --self-test --corrupt-factor 3; echo rc=$?
echo "== exact check"
racer freivalds --gpu --format s8 --n 4096 --k 10 --self-test; echo rc=$?
racer freivalds --gpu --format u8 --n 2048 --k 10 --self-test; echo rc=$?
echo "== n not divisible by 16"
racer freivalds --gpu --n 1000 --k 10 --format bf16 --self-test; echo rc=$?
} > $R/racer_gpu.txt 2>&1
tar cJf $OUT/run21.tar.xz -C $R .
grep -E "^\| (f32|bf16) \| [0-9]+ \| [0-9.]+ \(" $R/log.md | head -10 | awk -F"|" "{print \"sweep:\",\$2,\$3,\"s37:\",\$4,\"s39:\",\$6}" | sed 's/([0-9]*)//g'
grep -E "empty graph|chosen|FAILED|rc=" $R/log.md | cut -c1-200
grep -E "^\| (f32|bf16|f16|tf32) \|" $R/log.md | cut -d"|" -f2-7,15-16 | tail -26
grep -E "rc=|==" $R/racer_gpu.txt
