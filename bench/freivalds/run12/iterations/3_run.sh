#!/bin/bash
# run12 call 3: racer end to end with the final build (the plan check added after run12's final call).
cd "$(dirname "$0")/pkg" && tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
for f in f32 bf16 f16 tf32; do for n in 8192 2048 1040 528; do racer freivalds --gpu --n $n --k 10 --format $f --self-test > /tmp/o.txt 2>&1; echo "$f $n rc=$? $(grep -E '^(correct|corrupted)' /tmp/o.txt | tr -s ' ' | cut -c1-60 | tr '\n' ' ')"; done; done
racer freivalds --gpu --n 4096 --k 40 --format f32 --self-test > /tmp/o.txt 2>&1; echo "f32 4096 k40 rc=$?"
racer freivalds --gpu --n 32768 --k 10 --format f32 --self-test > /tmp/o.txt 2>&1; echo "f32 32768 rc=$? $(grep -E 'check .* ms' /tmp/o.txt | head -1)"
racer freivalds --gpu --format s8 --n 2048 --k 10 --self-test > /dev/null 2>&1; echo "s8 rc=$?"
