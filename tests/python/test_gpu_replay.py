"""The GPU replay: its preparation of inputs is plain NumPy and tested everywhere; running the
programs needs CuPy and an NVIDIA GPU, and is skipped (saying so) without them."""
import io
import json
import os
import sys

import numpy as np
import pytest

from conftest import ROOT, needs_nvcc

sys.path.insert(0, os.path.join(ROOT, "python", "racer"))
import gpu_replay  # noqa: E402  (run as a plain script on the GPU machine)

sys.path.pop(0)


def _gpu_available():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def test_inputs_land_at_their_storage_offsets():
    inst = {"tensors": [
        {"name": "x", "shape": [2, 3], "strides": [1, 2], "dtype": "f32", "init": "input"},
        {"name": "w", "shape": [2], "strides": [1], "dtype": "i32", "init": {"values": [7, -3]}},
        {"name": "o", "shape": [2], "strides": [1], "dtype": "bf16", "init": "empty"},
        {"name": "f", "shape": [2], "strides": [1], "dtype": "f16", "init": {"full": "0.5"}}]}
    values = [{"name": "x[1,2]", "kind": "input", "tensor": 0, "cell": 5, "value": "3/4"},
              {"name": "o[1] (uninitialized)", "kind": "uninitialized", "tensor": -1, "cell": -1, "value": "1"}]
    host = gpu_replay.initial_host_tensors(inst, values)
    # x[1,2] is at 1*1 + 2*2 = 5 with strides (1, 2).
    assert host[0].tolist() == [0, 0, 0, 0, 0, 0.75] and host[0].dtype == np.float32
    assert host[1].tolist() == [7, -3]
    assert host[2].tolist() == [0, 0x3F80]  # bf16 1.0
    assert host[3].tolist() == [0.5, 0.5] and host[3].dtype == np.float16


def test_scalars_take_their_parameter_types():
    assert gpu_replay._scalar("u32", -1) == np.uint32(0xFFFFFFFF)
    assert gpu_replay._scalar("f32", "0.1") == np.float32(0.1)
    assert gpu_replay._scalar("s64", 5).dtype == np.int64
    with pytest.raises(gpu_replay.ReplayError):
        gpu_replay._scalar("pred", 1)


def test_old_witness_without_instance_is_refused(tmp_path, capsys):
    w = tmp_path / "w.json"
    w.write_text(json.dumps({"format": "racer-witness-1", "instance": "x.toml", "cell": "out[0]", "values": []}))
    rc = gpu_replay.main([str(w)])
    assert rc == 3
    err = capsys.readouterr().err
    assert "no GPU to replay on" in err or "carries no instance" in err


@needs_nvcc
@pytest.mark.skipif(not _gpu_available(), reason="needs CuPy and an NVIDIA GPU (the replay runs the kernels on hardware)")
def test_replay_on_the_gpu_shows_the_difference(tmp_path):
    import racer
    from test_api import Axpy
    r = racer.check(Axpy)
    out = io.StringIO()
    differing = gpu_replay.replay(json.load(open(r.save_witness(str(tmp_path / "w.json")))), out)
    assert differing >= 1 and "DIFFER" in out.getvalue(), out.getvalue()


def _recorded_gpu_runs():
    """{witness file: [lines]} from the log of the recorded run on an H200."""
    runs, current = {}, None
    with open(os.path.join(ROOT, "examples", "witnesses", "gpu_replay_log.txt")) as f:
        for line in f:
            if line.startswith("$ python3 python/racer/gpu_replay.py "):
                current = line.split()[-1]
                runs[current] = []
            elif current:
                runs[current].append(line.rstrip("\n"))
    return runs


def test_recorded_gpu_run_shows_differences_and_matches_the_cpu_emulation():
    import subprocess
    from conftest import RACER_BIN
    if not os.path.exists(RACER_BIN):
        pytest.skip(f"needs the racer CLI at {RACER_BIN}")
    runs = _recorded_gpu_runs()
    assert len(runs) == 4 and any("triton" in w for w in runs) and any("cuda_" in w for w in runs)
    for witness, lines in runs.items():
        on_gpu = [l for l in lines if l.startswith(("witness cell", "  ")) and "(0x" in l or "differ in their bits" in l]
        assert any(l.endswith("DIFFER") for l in on_gpu), lines
        cpu = subprocess.run([RACER_BIN, "replay", os.path.join(ROOT, "examples", "witnesses", witness)],
                             capture_output=True, text=True)
        on_cpu = [l for l in cpu.stdout.splitlines()
                  if l.startswith(("witness cell", "  ")) and "(0x" in l or "differ in their bits" in l]
        assert on_gpu == on_cpu, f"{witness}: the GPU and the CPU emulation disagree"
