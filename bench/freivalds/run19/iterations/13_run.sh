#!/bin/bash
# session 7 call 13: shapes 43/44 = shapes 37/39 in one CTA of 512 threads a multiprocessor (ASYNC 3: tiles of up to 1024
# rows, so each staged vector entry serves twice the rows of run19's 512; 128 registers), built into bench_cta512 (commit
# after a90faa0, cta512.patch), against the run19 build; shapes 37-44 at n = 1024-32768, three rounds in turn.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for round in 1 2 3; do for b in freivalds_gpu_bench bench_cta512; do
  mkdir -p /tmp/o_$b; FV_SWEEP_FROM=37 FV_SWEEP_TO=44 FV_SWEEP_SIZES=1024,2048,4096,8192,16384,32768 timeout 200 ./$b /tmp/o_$b --shapes > $R/ab_${round}_$b.md 2>&1
  cp /tmp/o_$b/freivalds_gpu.jsonl $R/ab_${round}_${b}.jsonl
done; done
tar cJf $OUT/call13.tar.xz -C $R .
for f in $R/ab_*cta512.md; do echo "$f"; grep -E "^\| (f32|bf16) \| [0-9]+ \|" $f | cut -d"|" -f2-4,6,10,11 | sed 's/([0-9]*)//g'; done
for f in $R/ab_*gpu_bench.md; do echo "$f"; grep -E "^\| (f32|bf16) \| [0-9]+ \|" $f | cut -d"|" -f2-4,6 | sed 's/([0-9]*)//g'; done
