#!/bin/bash
# run12 call 4: the verdict folded into pass 2 (shapes 41/42 = 37/39 with each tile's last CTA judging its rows, one graph
# node fewer) against 37/39 in the same build and main at eea6471 (base), n = 1024-32768, three rounds alternating.
# (Loop as in 6_run.sh, with bench_base and bench_fold, sizes 1024,4096,8192,16384,32768, shapes from 37.)
