#!/usr/bin/env bash
# Regenerates tests/cases/ptx/hb.sm90a.ptx from hb.cu (the t_hb_* cases). No GPU needed.
set -euo pipefail
"$(dirname "${BASH_SOURCE[0]}")/../build_sm90a_ptx.sh" hb
