#!/usr/bin/env bash
# GPU calibration of the contract classes (helper kc), run from .dev-kc on the GPU machine.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib
OUT=${OUT:-/tmp/kc-out}
mkdir -p "$OUT"
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,clocks.max.sm,clocks.max.mem --format=csv; nvidia-smi; } > "$OUT/device.txt" 2>&1
./racer trace keygen /tmp/kc-gpu.key && cp /tmp/kc-gpu.key.pub "$OUT/gpu.key.pub"
T="--trace $OUT/gpu_trace.jsonl --key /tmp/kc-gpu.key"
log() { echo "== $(date -u +%T) $*" | tee -a "$OUT/log.txt"; }
log "hardware-dependent classes: reduction order, denormals, NaN/Inf, atomic determinism"
timeout 100 ./racer contract calibrate contracts/C-ORD-01.kc contracts/C-PRC-03.kc contracts/C-EXC-01.kc contracts/C-ORD-02.kc \
  --backend gpu --markdown "$OUT/CALIBRATION-GPU.md" $T 2>&1 | tee -a "$OUT/log.txt"
echo "rc=${PIPESTATUS[0]}" | tee -a "$OUT/log.txt"
log "atomic determinism at N=8192 (32 CTAs)"
timeout 40 ./racer contract calibrate contracts/C-ORD-02.kc --backend gpu --set N=8192 --markdown "$OUT/CALIBRATION-GPU-ORD02-N8192.md" $T 2>&1 | tee -a "$OUT/log.txt"
echo "rc=${PIPESTATUS[0]}" | tee -a "$OUT/log.txt"
log "algebraic invariance examples"
timeout 30 ./racer contract check contracts/examples/invariance.kc --backend gpu $T 2>&1 | tee -a "$OUT/log.txt"
echo "rc=${PIPESTATUS[0]}" | tee -a "$OUT/log.txt"
log "all classes and the attention examples"
timeout 75 ./racer contract calibrate contracts/C-*.kc contracts/examples/attention.kc --backend gpu --markdown "$OUT/CALIBRATION-GPU-ALL.md" 2>&1 | tee -a "$OUT/log.txt"
echo "rc=${PIPESTATUS[0]}" | tee -a "$OUT/log.txt"
./racer trace verify "$OUT/gpu_trace.jsonl" --key "$OUT/gpu.key.pub" 2>&1 | tail -2 | tee -a "$OUT/log.txt"
log done
