"""Every example in README.md runs (issue 23). Usage: readme_examples.py BUILD_DIR

The README's fenced blocks are read in order:
  sh      every line is run with bash in a scratch directory that sees the repository's folders
          (build/, tests/, examples/, contracts/, python/, scripts/ and ../shared) and must exit
          with the code its comment states ("exit N"), else 0. `bash scripts/...` lines (the set-up
          and the whole suite, which this test is part of) are only checked to exist.
  python  a block whose first line is "# PATH" is an excerpt: PATH is shipped and holds every line
          of the block; an instance file among them is checked and must be equivalent. Any other
          block is run by pytest (its test functions) in the scratch directory.
  toml    always an excerpt ("# PATH" first), checked as above.
Prints each example with its outcome; exits 1 when any fails."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ["tests", "examples", "contracts", "python", "scripts"]
TIMEOUT = 600


def blocks(text):
    """(language, first line number, body) of each fenced block."""
    for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.M | re.S):
        yield m.group(1), text.count("\n", 0, m.start()) + 2, m.group(2)


def scratch(build):
    """A fresh working directory: the repository's folders by symlink, ../shared beside it."""
    base = os.path.join(build, "readme-examples")
    shutil.rmtree(base, ignore_errors=True)
    work = os.path.join(base, "work")
    os.makedirs(work)
    corpus = os.environ.get("RACER_CORPUS_DIR", os.path.join(ROOT, "..", "shared", "corpus"))
    os.symlink(os.path.dirname(os.path.realpath(corpus)), os.path.join(base, "shared"))
    os.symlink(os.path.realpath(build), os.path.join(work, "build"))
    for f in FOLDERS:
        os.symlink(os.path.join(ROOT, f), os.path.join(work, f))
    return work


def expected_exit(line):
    m = re.search(r"#.*\bexit (\d+)", line)
    return int(m.group(1)) if m else 0


def run(cmd, work):
    p = subprocess.run(["bash", "-c", cmd], cwd=work, capture_output=True, text=True, timeout=TIMEOUT)
    return p.returncode, p.stdout + p.stderr


def shell_block(body, where, work):
    problems = []
    for k, line in enumerate(body.splitlines()):
        cmd = line.strip()
        if not cmd or cmd.startswith("#"):
            continue
        at = f"{where + k}"
        if cmd.startswith("bash scripts/"):
            script = cmd.split()[1]
            ok = os.path.isfile(os.path.join(ROOT, script))
            print(f"README.md:{at}: {script} {'exists (not run here)' if ok else 'MISSING'}")
            if not ok:
                problems.append(f"README.md:{at}: {script} does not exist")
            continue
        rc, out = run(cmd, work)
        want = expected_exit(cmd)
        print(f"README.md:{at}: exit {rc} (expected {want}): {cmd[:100]}")
        if rc != want:
            problems.append(f"README.md:{at}: `{cmd}` exited {rc}, the README says {want}:\n{out[-3000:]}")
    return problems


def excerpt(lang, body, where, work):
    lines = body.splitlines()
    path = lines[0][1:].strip()
    full = os.path.join(ROOT, path)
    if not os.path.isfile(full):
        return [f"README.md:{where}: the {lang} example names {path}, which is not shipped"]
    with open(full) as f:
        shipped = {s.strip() for s in f.read().splitlines()}
    missing = [s for s in lines[1:] if s.strip() and s.strip() not in shipped]
    print(f"README.md:{where}: excerpt of {path}: {len(lines) - 1 - len(missing)} lines found, {len(missing)} not")
    problems = [f"README.md:{where}: not in {path}: {s!r}" for s in missing]
    is_instance = path.endswith(".toml") or "racer.Instance" in body
    if is_instance:
        rc, out = run(f"build/racer check {path} --quiet", work)
        print(f"README.md:{where}: build/racer check {path}: exit {rc}")
        if rc != 0:
            problems.append(f"README.md:{where}: {path} is not equivalent (exit {rc}):\n{out[-3000:]}")
    return problems


def python_block(body, where, work):
    test = os.path.join(work, f"test_readme_{where}.py")
    with open(test, "w") as f:
        f.write(body)
    rc, out = run(f"{sys.executable} -m pytest -q -p no:cacheprovider {os.path.basename(test)}", work)
    ran = re.search(r"(\d+) passed", out)
    print(f"README.md:{where}: python example: exit {rc}, {ran.group(0) if ran else 'nothing passed'}")
    if rc != 0 or not ran:
        return [f"README.md:{where}: the Python example fails (exit {rc}):\n{out[-3000:]}"]
    return []


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    work = scratch(os.path.abspath(argv[1]))
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    problems, count = [], 0
    for lang, where, body in blocks(text):
        count += 1
        first = body.splitlines()[0] if body.strip() else ""
        if lang == "sh":
            problems += shell_block(body, where, work)
        elif lang in ("python", "toml") and first.startswith("# ") and "/" in first:
            problems += excerpt(lang, body, where, work)
        elif lang == "python":
            problems += python_block(body, where, work)
        else:
            problems.append(f"README.md:{where}: a ```{lang} block this test cannot run; name the shipped file "
                            "it comes from on its first line ('# PATH')")
    for p in problems:
        print(p)
    print(f"{count} README examples, {len(problems)} problems")
    return 1 if problems or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
