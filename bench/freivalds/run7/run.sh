#!/bin/bash
# Device call 3 for helper fv (issue #8, run7): the final tables with the library's default
# shapes (short sweep at n = 4096, 8192 first), detection, then racer freivalds --gpu end to end.
# As run, the bench binary carried was call 2's build (the same kernels and tile plan, but the
# old default shapes 8/15 and no FV_TABLE_DEFAULTS / full-run FV_SWEEP_SIZES): its sweep used
# n = 2048, 8192, 32768 and its tables the sweep's choice (shapes 8 and 10). The plugin for
# racer --gpu was built from the final code (defaults 13 and 14). See RESULTS.md, run7.
cd "$(dirname "$0")"
tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
FV_SWEEP_FROM=8 FV_SWEEP_SIZES=4096,8192 FV_TABLE_DEFAULTS=1 timeout 300 ./freivalds_gpu_bench $OUT > $OUT/log.md 2>&1; echo "bench rc=$?" >> $OUT/log.md
grep -E "empty graph|chosen|FAILED|rc=" $OUT/log.md | cut -c1-300
grep -E "^\| (f32|bf16) \|" $OUT/log.md | cut -d'|' -f2-7 | tail -12
{
for f in bf16 f32; do echo "== racer freivalds --gpu --n 4096 --k 10 --format $f --self-test"; racer freivalds --gpu --n 4096 --k 10 --format $f --self-test; echo rc=$?; done
echo "== same product on the GPU (n 512, seed 5, vector seed 9); CPU run on the dev machine"
racer freivalds --gpu --n 512 --format bf16 --seed 5 --vector-seed 9; echo rc=$?
racer freivalds --gpu --n 512 --format f32 --seed 5 --vector-seed 9; echo rc=$?
echo "== n not divisible by 16, and f16/tf32 self-tests"
racer freivalds --gpu --n 1000 --k 10 --format bf16 --self-test; echo rc=$?
for f in f16 tf32; do racer freivalds --gpu --n 2048 --k 40 --format $f --self-test; echo rc=$?; done
} > $OUT/racer_gpu.txt 2>&1
grep -E "rc=|==" $OUT/racer_gpu.txt
