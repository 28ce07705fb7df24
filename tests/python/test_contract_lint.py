"""racer contract lint: every file and every error in one run, each located, exit 3 (issue 23)."""
import os
import re
import shutil
import subprocess

from conftest import RACER_BIN, ROOT, needs_racer_bin

pytestmark = needs_racer_bin

BROKEN = """contract C-TST-01 {
  scope reduction
  param N = 64
  tensor x : f16 [N] input in [0, 1]
  tensor y : f32 [1] output
  pre precision(x) in {FP17}
  post output y satisfies close(y, ref)
  tolerance absolute -1
  derivation "none"
  reference exact impl nowhere
  measure sample 4 inputs seed 1
  violation "drifts"
  impl good {
    role good
    ptx "k.ptx"
    launch prc01_good grid 1 block 32 args (x, y)
  }
  impl bad {
    role bad
    ptx "k.ptx"
    launch prc01_bda grid 1 block 32 args (x, y, N)
  }
}
"""


def test_lint_reports_every_error_of_every_file(tmp_path):
    shutil.copy(os.path.join(ROOT, "contracts", "impl", "prc_01.ptx"), tmp_path / "k.ptx")
    (tmp_path / "broken.kc").write_text(BROKEN)
    (tmp_path / "unclosed.kc").write_text(BROKEN.replace("scope reduction", "scope reduction,").rstrip("}\n"))
    good = os.path.join(ROOT, "contracts", "C-PRC-01.kc")
    p = subprocess.run([RACER_BIN, "contract", "lint", str(tmp_path / "broken.kc"), str(tmp_path / "unclosed.kc"), good],
                       capture_output=True, text=True)
    assert p.returncode == 3, p.stdout + p.stderr
    assert "C-PRC-01: ok (4 implementations)" in p.stdout, "a file after the broken ones is still linted"
    located = re.findall(r"^(\S+\.kc):(\d+):\d+: error: (.*)$", p.stderr, re.M)
    broken = [(int(line), msg) for f, line, msg in located if f.endswith("broken.kc")]
    assert [line for line, _ in broken] == [6, 8, 10, 16, 21], p.stderr
    assert "unknown precision 'FP17'" in broken[0][1]
    assert "must not be negative" in broken[1][1]
    assert "unknown implementation 'nowhere'" in broken[2][1]
    assert "takes 3 parameters but the launch passes 2 arguments" in broken[3][1]
    assert "no entry 'prc01_bda' in k.ptx (entries: prc01_baseline, prc01_bad, prc01_good, prc01_reference)" in broken[4][1]
    unclosed = [msg for f, _, msg in located if f.endswith("unclosed.kc")]
    assert any("unknown contract part 'N'" in m for m in unclosed), p.stderr  # 'param' read as a scope
    assert any("not closed" in m for m in unclosed), p.stderr
    # The syntax errors do not hide the rest of that file either, and add nothing that follows
    # from them: N, whose declaration was lost, is not reported unknown.
    assert any("unknown precision 'FP17'" in m for m in unclosed), p.stderr
    assert any("takes 3 parameters" in m for m in unclosed), p.stderr
    assert not any("'N'" in m and "unknown name" in m for m in unclosed), p.stderr
    assert "2 of 3 files with errors" in p.stderr
