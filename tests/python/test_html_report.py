"""racer check --html: the page, rendered by headless Chromium (Debian's package), shows the
verdict, the coloured cell map, the witness, both expressions with their difference and the
defects with their source lines; a screenshot is taken and its colours checked."""
import json
import os
import re
import shutil
import struct
import subprocess
import zlib

import pytest

from conftest import RACER_BIN, ROOT, needs_racer_bin
from instance_files import CASES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [needs_racer_bin, pytest.mark.skipif(not CHROMIUM, reason="needs Debian's chromium (scripts/install-deps.sh)")]


def chromium(*args, profile):
    p = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={profile}", *args], capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


def png_pixels(path):
    """(width, height, rows of RGB(A) tuples) of an 8-bit non-interlaced PNG, as Chromium writes."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, rows, bpp


def colour_count(path, rgb):
    w, h, rows, bpp = png_pixels(path)
    return sum(1 for line in rows for x in range(w) if tuple(line[x * bpp:x * bpp + 3]) == rgb)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = tmp_path_factory.mktemp("html")
    page, js = d / "report.html", d / "report.json"
    case = os.path.join(CASES, "t_mem_07_overread_last.toml")
    p = subprocess.run([RACER_BIN, "check", case, "--html", str(page), "--json"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 1, p.stderr
    js.write_text(p.stdout)
    return d, page, json.loads(p.stdout)


def test_rendered_page_shows_verdict_map_witness_expressions_and_defects(report):
    d, page, result = report
    dom = chromium("--dump-dom", page.as_uri(), profile=d / "profile-dom")
    assert re.search(r'id="verdict">inequivalent<', dom)
    out = result["outputs"][0]
    cells = re.findall(r'<span class="([prun])( w)?" title="cell (\d+): (\w+)', dom)
    assert len(cells) == out["cells"]
    assert sum(c[0] == "r" for c in cells) == out["refuted"] and sum(c[0] == "p" for c in cells) == out["proved"]
    witness_cell = result["counterexample"]["cell"]
    flat = int(re.search(r"\[(\d+)\]", witness_cell).group(1))
    assert [int(c[2]) for c in cells if c[1]] == [flat]                       # the witness cell is outlined
    assert f"The outputs differ at <code>{witness_cell}</code>" in dom
    for v in result["counterexample"]["values"]:
        assert f"<code>{v['name']}</code>" in dom
    a = re.search(r'<pre id="expr-a">(.*?)</pre>', dom, re.S).group(1)
    b = re.search(r'<pre id="expr-b">(.*?)</pre>', dom, re.S).group(1)
    assert a and b and a != b
    assert re.search(r'<pre class="diff" id="difference">.+</pre>', dom)
    defect = re.search(r'<tr class="defect"><td>a</td><td>oob_read</td>.*?</tr>', dom, re.S).group(0)
    assert re.search(r"\w+\.cu:\d+:\d+", defect) and '<pre class="src">' in defect   # the CUDA source line itself


def test_screenshot_shows_the_refuted_and_proved_cells(report):
    d, page, result = report
    shot = d / "report.png"
    chromium(f"--screenshot={shot}", "--window-size=1200,1400", page.as_uri(), profile=d / "profile-shot")
    red, green = colour_count(shot, (0xcf, 0x22, 0x2e)), colour_count(shot, (0x2d, 0xa4, 0x4e))
    out = result["outputs"][0]
    assert red >= 100 * out["refuted"] * 0.8 and green >= 100 * out["proved"] * 0.8, (red, green)  # 10x10 px cells
    if os.environ.get("RACER_ARTIFACT_DIR"):
        shutil.copy(shot, os.path.join(os.environ["RACER_ARTIFACT_DIR"], "html_report.png"))
