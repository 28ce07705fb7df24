#!/usr/bin/env bash
# Regenerates tests/cases/ptx/tc.sm90a.ptx from tc.cu (sm_90a: wgmma) and the Triton kernels
# of tc_triton.py into tests/cases/ptx/tc_triton/. No GPU needed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/../build_sm90a_ptx.sh" tc
if [ -f "$here/build_tc_triton.py" ]; then python3 "$here/build_tc_triton.py"; fi
