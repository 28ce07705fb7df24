#!/bin/bash
# run11 call 4: one copy stream across blocks + the block's vector entries read before the barrier (stream) against main at 4cf32c6 (base):
# every shape from 13 at n = 1040, 4112, 8192 (DIFFERS cross-checks the ring against the register path; worst entries in the records
# compare the two builds), then shapes 37-39 at n = 4096-32768, three rounds alternating; racer end to end.
cd "$(dirname "$0")"; tar xJf bins.tar.xz; R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for b in bench_base bench_stream; do mkdir -p /tmp/o
  FV_SWEEP_FROM=13 FV_SWEEP_SIZES=1040,4112,8192 timeout 100 ./$b /tmp/o --shapes > $R/0_$b.md 2>&1; echo "rc=$?" >> $R/0_$b.md
  cp /tmp/o/freivalds_gpu.jsonl $R/0_$b.jsonl; echo "== all shapes $b: $(grep -c DIFFERS $R/0_$b.md) lines with DIFFERS (1 = the header)"
done
for r in 1 2 3; do for b in bench_base bench_stream; do mkdir -p /tmp/o
  FV_SWEEP_FROM=37 FV_SWEEP_SIZES=4096,8192,16384,32768 timeout 100 ./$b /tmp/o --shapes > $R/${r}_$b.md 2>&1; echo "rc=$?" >> $R/${r}_$b.md
  cp /tmp/o/freivalds_gpu.jsonl $R/${r}_$b.jsonl
  echo "== $r $b $(grep -c DIFFERS $R/${r}_$b.md)"
  grep -E "^\| (f32|bf16) \| [0-9]+ \|" $R/${r}_$b.md | sed 's/([0-9]*)//g' | awk -F'|' '{print $2,$3,"s37",$4,"s39",$6}' | tr -s ' '
done; done
cd pkg && tar xJf racer_pkg.tar.xz
racer() { LD_LIBRARY_PATH=$PWD/lib ./racer "$@"; }
{
for f in f32 bf16; do for n in 8192 4096 1040 528; do echo "== --format $f --n $n --k 10 --self-test"; racer freivalds --gpu --n $n --k 10 --format $f --self-test; echo rc=$?; done; done
for f in f16 tf32 f32; do echo "== --format $f --n 2064 --k 40 --self-test"; racer freivalds --gpu --n 2064 --k 40 --format $f --self-test; echo rc=$?; done
for n in 1040 3088; do echo "== GPU then CPU, n $n"
racer freivalds --gpu --n $n --format f32 --seed 5 --vector-seed 9 --self-test --corrupt-factor 3; echo rc=$?
racer freivalds --cpu --n $n --format f32 --seed 5 --vector-seed 9 --self-test --corrupt-factor 3; echo rc=$?; done
} > $R/racer_gpu.txt 2>&1
grep -E "rc=|==" $R/racer_gpu.txt | tr '\n' ' '; echo
tar cJf $OUT/call8.tar.xz -C $R .
