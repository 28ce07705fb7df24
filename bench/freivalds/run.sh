#!/usr/bin/env bash
# Reproduces the rows of bench/freivalds/RESULTS.md: Freivalds' check on an NVIDIA GPU against the
# matmul it checks, its detection and false alarms, `racer freivalds --gpu` end to end and the
# exact s8/u8 check. Two steps, because the GPU machine has CUDA but none of Racer's dependencies:
#
#   bench/freivalds/run.sh pack DIR [--rev REV] [--patch FILE [--patch-level N]] [--no-racer]
#       On the dev machine. DIR gets the bench's sources (the working tree's, or commit REV's, with
#       FILE applied: the rows of an earlier run or of a variant that was not kept), the bench
#       binary built from them with nvcc, this script, and unless --no-racer (or with --rev, whose
#       racer is not this build) the racer binary, libracer_freivalds_cuda.so and the libraries racer
#       links, from this tree's build/ (bash scripts/build.sh racer racer_freivalds_cuda first).
#
#   DIR/run.sh measure OUT [--bench full|quick|sweep|shapes|none] [--e2e] [--exact]
#                          [--ncu REGEX] [--program FILE.cu]
#       On the GPU machine. OUT gets nvidia_smi.csv, date.txt and what the parts print:
#       --bench MODE  freivalds_gpu_bench in that mode (default full: the kernel-shape sweep, the
#                     overhead tables f32/bf16 and tf32/f16, detection and false alarms; its
#                     FV_SWEEP_FROM, FV_SWEEP_TO, FV_SWEEP_SIZES, FV_TABLE_DEFAULTS, FV_PROFILE_N and
#                     FV_PROFILE_SHAPE variables pass through) -> log.md, freivalds_gpu.jsonl
#       --e2e         racer freivalds --gpu self-tests (f32/bf16, f16/tf32 at k = 40, GPU and CPU on
#                     one product, a refused n) -> racer_gpu.txt
#       --exact       the exact s8/u8 check: racer freivalds --gpu --format s8|u8 self-tests over n,
#                     chunk sizes, GPU and CPU on one product -> exact.txt
#       --ncu REGEX   Nsight Compute on the bench's --profile launches, kernels matching REGEX
#                     -> ncu.txt
#       --program F   builds and runs a standalone probe (the read probes of run9-run15) -> probe.txt
#
# The bench's measurements are unsigned JSON lines; sign them on a machine holding the key:
#   build/racer trace append OUT/trace.jsonl --key KEY --from OUT/freivalds_gpu.jsonl
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "run.sh: $*" >&2; exit 3; }

build_bench() {  # in a tree holding src/ and bench/: the nvcc command of the bench's header
  nvcc -std=c++20 -O3 -gencode=arch=compute_90,code=sm_90 -DRACER_FV_ALL_SHAPES -I src bench/freivalds_gpu_bench.cu \
    src/freivalds/cuda/device_check.cu src/freivalds/cuda/device_data.cu \
    src/freivalds/tolerance.cpp src/freivalds/format.cpp -lcublas -o freivalds_gpu_bench
}

pack() {
  local dest="" rev="" patchfile="" level=1 racer=1
  while (($#)); do
    case $1 in
      --rev) rev=$2; racer=0; shift 2 ;;
      --patch) patchfile=$(realpath "$2"); shift 2 ;;
      --patch-level) level=$2; shift 2 ;;
      --no-racer) racer=0; shift ;;
      -*) die "pack: unknown option $1" ;;
      *) dest=$1; shift ;;
    esac
  done
  [ -n "$dest" ] || die "pack: which directory?"
  local root
  root=$(cd "$here/../.." && pwd)
  rm -rf "$dest" && mkdir -p "$dest" && dest=$(cd "$dest" && pwd)
  if [ -n "$rev" ]; then
    git -C "$root" archive "$rev" src/freivalds src/support bench/freivalds_gpu_bench.cu | tar x -C "$dest" ||
      die "pack: no sources at $rev"
  else
    mkdir -p "$dest/src" "$dest/bench" && cp -r "$root/src/freivalds" "$root/src/support" "$dest/src/" &&
      cp "$root/bench/freivalds_gpu_bench.cu" "$dest/bench/"
  fi
  if [ -n "$patchfile" ]; then (cd "$dest" && patch -p"$level" < "$patchfile") || die "pack: $patchfile does not apply"; fi
  (cd "$dest" && build_bench) || die "pack: nvcc failed"
  cp "$here/run.sh" "$dest/run.sh"
  if ((racer)); then
    local build="$root/build"
    [ -x "$build/racer" ] && [ -f "$build/libracer_freivalds_cuda.so" ] || die "pack: build racer and racer_freivalds_cuda first"
    mkdir -p "$dest/lib"
    strip --strip-debug -o "$dest/racer" "$build/racer"
    cp "$build/libracer_freivalds_cuda.so" "$dest/"
    # The project's libraries, not the C and C++ runtimes: the GPU machine's are newer.
    ldd "$build/racer" | awk '/=> \//{print $3}' | grep -vE '/lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so' |
      xargs -I{} cp -L {} "$dest/lib/"
  fi
  du -sh "$dest"
}

# One racer freivalds call, echoed with its exit code.
fv() { echo "== racer freivalds $*"; timeout 120 env LD_LIBRARY_PATH="$here/lib" "$here/racer" freivalds "$@"; echo "rc=$?"; }

end_to_end() {
  for f in f32 bf16; do for n in 8192 4096 1040; do fv --gpu --n $n --k 10 --format $f --self-test; done; done
  for f in f16 tf32 f32; do fv --gpu --n 2064 --k 40 --format $f --self-test; done
  echo "== the same product on the GPU and the CPU, corrupted at 3x the tolerance"
  for b in --gpu --cpu; do fv $b --n 1040 --format f32 --seed 5 --vector-seed 9 --self-test --corrupt-factor 3; done
  echo "== refused: n not divisible by 16"
  fv --gpu --n 1000 --k 10 --format bf16 --self-test
}

exact() {
  for n in 1024 4096 8192 16384 32768; do fv --gpu --format s8 --n $n --k 10 --vector-seed 7 --self-test; done
  for n in 1024 8192; do fv --gpu --format u8 --n $n --k 10 --vector-seed 7 --self-test; done
  for n in 8192 16384; do fv --gpu --format s8 --n $n --k 10 --vector-seed 8 --self-test; done
  for k in 4 8; do fv --gpu --format s8 --n 2048 --k $k --vector-seed 7 --self-test; done
  fv --gpu --format u8 --n 2048 --k 13 --vector-seed 7 --self-test
  echo "== the same products on the GPU and the CPU (n 1024, seed 3, vector seed 9)"
  for f in s8 u8; do for b in --gpu --cpu; do fv $b --format $f --n 1024 --k 10 --seed 3 --vector-seed 9 --self-test; done; done
  echo "== refused: n not divisible by 32"
  fv --gpu --format s8 --n 1000 --k 10 --self-test
}

measure() {
  local out="" mode=full e2e=0 ex=0 ncu_regex="" program=""
  while (($#)); do
    case $1 in
      --bench) mode=$2; shift 2 ;;
      --e2e) e2e=1; shift ;;
      --exact) ex=1; shift ;;
      --ncu) ncu_regex=$2; shift 2 ;;
      --program) program=$(realpath "$2"); shift 2 ;;
      -*) die "measure: unknown option $1" ;;
      *) out=$1; shift ;;
    esac
  done
  [ -n "$out" ] || die "measure: which output directory?"
  mkdir -p "$out" && out=$(cd "$out" && pwd)
  export PATH=$PATH:/usr/local/cuda/bin
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit,pstate --format=csv \
    > "$out/nvidia_smi.csv" 2>&1
  date -u +%FT%TZ > "$out/date.txt"
  cd "$here"
  [ -x ./freivalds_gpu_bench ] || build_bench || die "measure: nvcc failed"
  case $mode in
    none) ;;
    full) ./freivalds_gpu_bench "$out" > "$out/log.md" 2>&1; echo "bench rc=$?" >> "$out/log.md" ;;
    quick | sweep | shapes) ./freivalds_gpu_bench "$out" --"$mode" > "$out/log.md" 2>&1; echo "bench rc=$?" >> "$out/log.md" ;;
    *) die "measure: --bench full|quick|sweep|shapes|none, not $mode" ;;
  esac
  if [ -n "$ncu_regex" ]; then
    ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
      --section MemoryWorkloadAnalysis -k "regex:$ncu_regex" -c 8 ./freivalds_gpu_bench /tmp --profile > "$out/ncu.txt" 2>&1
  fi
  if [ -n "$program" ]; then
    { nvcc -std=c++20 -O3 -gencode=arch=compute_90,code=sm_90 "$program" -o /tmp/fv_probe && /tmp/fv_probe; } > "$out/probe.txt" 2>&1
  fi
  if ((e2e + ex)); then [ -x ./racer ] || die "measure: --e2e and --exact need a DIR packed with racer"; fi
  ((e2e)) && end_to_end > "$out/racer_gpu.txt" 2>&1
  ((ex)) && exact > "$out/exact.txt" 2>&1
  grep -hE "FAILED|bench rc=|rc=[1-9]" "$out"/*.md "$out"/*.txt 2>/dev/null
  return 0
}

case ${1:-} in
  pack) shift; pack "$@" ;;
  measure) shift; measure "$@" ;;
  *) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 3 ;;
esac
