"""Instance files for tests that need a directory of their own: copies of the project's cases
with PTX paths made absolute, and [expect] rewritten where a test wants a mismatch."""
import os
import re

from conftest import ROOT

CASES = os.path.join(ROOT, "tests", "cases")


def copy_case(name, dest_dir, verdict=None, diagnostics=None, new_name=None):
    """tests/cases/NAME.toml written into dest_dir (as new_name.toml), runnable from there."""
    with open(os.path.join(CASES, name + ".toml")) as f:
        text = f.read()
    text = re.sub(r'^(ptx\s*=\s*)"([^"]+)"',
                  lambda m: f'{m.group(1)}"{os.path.join(CASES, m.group(2))}"', text, flags=re.M)
    if verdict is not None:
        text = re.sub(r'^verdict\s*=\s*"[^"]*"', f'verdict = "{verdict}"', text, flags=re.M)
    if diagnostics is not None:
        text = re.sub(r'^diagnostics\s*=\s*\[[^\]]*\]', "diagnostics = [" + ", ".join(f'"{d}"' for d in diagnostics) + "]",
                      text, flags=re.M)
    path = os.path.join(str(dest_dir), (new_name or name) + ".toml")
    with open(path, "w") as f:
        f.write(text)
    return path
