#!/usr/bin/env bash
# Regenerates tests/cases/ptx/cluster.sm90a.ptx from cluster.cu. No GPU needed.
set -euo pipefail
"$(dirname "${BASH_SOURCE[0]}")/../build_sm90a_ptx.sh" cluster
