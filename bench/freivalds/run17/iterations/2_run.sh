#!/bin/bash
# run17 call 2: 32-term f32 chains (bench_chain32: main + kGpuChainTerms 32, pass 2 chaining four
# items) against main in the throttled regime: shapes 37-42 at n = 16384/32768, then the overhead
# tables (check right after the matmul, clocks, rested).
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for b in freivalds_gpu_bench bench_chain32; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_SIZES=16384,32768 FV_TABLE_DEFAULTS=1 timeout 280 ./$b /tmp/o_$b --sweep > $R/$b.md 2>&1; echo "rc=$?" >> $R/$b.md
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/$b.jsonl
done
tar cJf $OUT/call12.tar.xz -C $R .
for b in freivalds_gpu_bench bench_chain32; do echo $b; grep -E "^\| f32 \| (16384|32768) \| [0-9.]+ \(" $R/$b.md | cut -d'|' -f2-4; grep -E "^\| f32 \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|" $R/$b.md | cut -d'|' -f2-7,15-16; grep rc= $R/$b.md; done
