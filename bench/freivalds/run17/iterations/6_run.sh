#!/bin/bash
# run17 call 6: per-instruction stall samples of f32 pass 2 at n = 16384, main against bench_nofold.
cd "$(dirname "$0")"
tar xJf bins.tar.xz
R=/tmp/r; mkdir -p $R
date -u +%FT%TZ > $R/date.txt
for b in freivalds_gpu_bench bench_nofold; do
  FV_PROFILE_N=16384 timeout 150 ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:tiled_pass -s 7 -c 1 -o $R/$b ./$b /tmp --profile > $R/$b.log 2>&1
  timeout 100 ncu -i $R/$b.ncu-rep --page source --csv --print-source sass > $R/${b}_sass.csv 2> $R/${b}_sass.err
  timeout 100 ncu -i $R/$b.ncu-rep --page details > $R/${b}_details.txt 2>&1
done
rm -f $R/*.ncu-rep
tar cJf $OUT/call16.tar.xz -C $R .
