#!/bin/bash
# run10 call 1: 16-term f32 chains + whole-item copies (bench_new) against main (bench_base), alternating; then racer end to end.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit,pstate --format=csv > $OUT/nvidia_smi.csv 2>&1
date -u +%FT%TZ > $OUT/date.txt
i=0
for b in bench_base bench_new bench_base bench_new; do i=$((i+1)); mkdir -p /tmp/o$i
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384,32768 timeout 100 ./$b /tmp/o$i --shapes > $OUT/${i}_$b.md 2>&1; echo "rc=$?" >> $OUT/${i}_$b.md
  cp /tmp/o$i/freivalds_gpu.jsonl $OUT/${i}_$b.jsonl
  echo "== $b $(grep -c DIFFERS $OUT/${i}_$b.md)"
  grep -E "^\| (f32|bf16) \| [0-9]+ \|" $OUT/${i}_$b.md | awk -F'|' '{print $2,$3,"s37:",$4,"s38:",$5,"s39:",$6}'
done
cd pkg && tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
{
for f in f32 bf16; do for n in 4096 1040 528; do echo "== --format $f --n $n --k 10 --self-test"; racer freivalds --gpu --n $n --k 10 --format $f --self-test; echo rc=$?; done; done
for f in f32 f16 tf32; do echo "== --format $f --n 2064 --k 40 --self-test"; racer freivalds --gpu --n 2064 --k 40 --format $f --self-test; echo rc=$?; done
echo "== f32 n 1040: GPU then CPU, same product and vectors, corrupted at 3x"
racer freivalds --gpu --n 1040 --format f32 --seed 5 --vector-seed 9 --self-test --corrupt-factor 3; echo rc=$?
racer freivalds --cpu --n 1040 --format f32 --seed 5 --vector-seed 9 --self-test --corrupt-factor 3; echo rc=$?
} > $OUT/racer_gpu.txt 2>&1
grep -E "rc=|==" $OUT/racer_gpu.txt
