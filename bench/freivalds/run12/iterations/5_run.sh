#!/bin/bash
# run12 call 5: the fold build with the accumulators also 256-byte aligned (bench_align here) against main at eea6471
# (bench_base), n = 1024-32768, three rounds alternating. (Loop as in 6_run.sh.)
