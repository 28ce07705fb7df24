#!/usr/bin/env bash
# GPU calibration of the contract classes: every table of contracts/gpu/ (RUN.md says which row
# comes from which step). Usage, from anywhere:
#   contracts/gpu/run.sh OUT [RACER_DIR] [--only hardware|n8192|invariance|all]...
# RACER_DIR holds `racer` and, on a machine without Racer's dependencies, its libraries in lib/
# (bench/freivalds/run.sh pack DIR makes such a directory); default: this tree's build/.
# OUT gets device.txt, log.txt, the CALIBRATION-GPU*.md tables and gpu_trace.jsonl signed with a
# key made for the run (gpu.key.pub beside it; the secret stays in /tmp).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: contracts/gpu/run.sh OUT [RACER_DIR] [--only STEP]...}
shift
RACER_DIR=$repo/build
if (($#)) && [[ $1 != --* ]]; then RACER_DIR=$(cd "$1" && pwd); shift; fi
steps=()
while (($#)); do
  case $1 in
    --only) steps+=("$2"); shift 2 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 3 ;;
  esac
done
((${#steps[@]})) || steps=(hardware n8192 invariance all)
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
cd "$repo"
racer=(env LD_LIBRARY_PATH="$RACER_DIR/lib" "$RACER_DIR/racer")
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,clocks.max.sm,clocks.max.mem --format=csv; nvidia-smi; } > "$OUT/device.txt" 2>&1
key=$(mktemp -d)/gpu.key
"${racer[@]}" trace keygen "$key" > /dev/null && cp "$key.pub" "$OUT/gpu.key.pub"
T=(--trace "$OUT/gpu_trace.jsonl" --key "$key")
log() { echo "== $(date -u +%T) $*" | tee -a "$OUT/log.txt"; }
step() {  # step SECONDS COMMAND...: the command's output and exit code into the log
  local limit=$1
  shift
  timeout "$limit" "$@" 2>&1 | tee -a "$OUT/log.txt"
  echo "rc=${PIPESTATUS[0]}" | tee -a "$OUT/log.txt"
}
for s in "${steps[@]}"; do
  case $s in
    hardware)
      log "hardware-dependent classes: reduction order, denormals, NaN/Inf, atomic determinism"
      step 100 "${racer[@]}" contract calibrate contracts/C-ORD-01.kc contracts/C-PRC-03.kc contracts/C-EXC-01.kc contracts/C-ORD-02.kc \
        --backend gpu --markdown "$OUT/CALIBRATION-GPU.md" "${T[@]}" ;;
    n8192)
      log "atomic determinism at N=8192 (32 CTAs)"
      step 40 "${racer[@]}" contract calibrate contracts/C-ORD-02.kc --backend gpu --set N=8192 \
        --markdown "$OUT/CALIBRATION-GPU-ORD02-N8192.md" "${T[@]}" ;;
    invariance)
      log "algebraic invariance examples"
      step 30 "${racer[@]}" contract check contracts/examples/invariance.kc --backend gpu "${T[@]}" ;;
    all)
      log "all classes and the attention examples"
      step 75 "${racer[@]}" contract calibrate contracts/C-*.kc contracts/examples/attention.kc --backend gpu \
        --markdown "$OUT/CALIBRATION-GPU-ALL.md" ;;
    *) echo "run.sh: --only hardware|n8192|invariance|all, not $s" >&2; exit 3 ;;
  esac
done
[ -f "$OUT/gpu_trace.jsonl" ] && "${racer[@]}" trace verify "$OUT/gpu_trace.jsonl" --key "$OUT/gpu.key.pub" 2>&1 | tail -2 | tee -a "$OUT/log.txt"
log done
