#!/usr/bin/env python3
"""The float hazard report through the command line (issue 22): for each instance of
tests/hazards, `racer check` keeps its verdict and exit code, reports the expected hazard in
the text, the JSON and the SARIF log (its own rule), exits 1 only with --fail-on-hazard, and
the hazard's witness file replays with `racer replay` to the very bits the report gives (for an
intermediate that no output shows: the replay's float event at the instruction the report names,
with its bits). The fine pair reports none, also with --float-hazards. `racer corpus
tests/hazards` passes.

  python3 tests/hazards/cli_test.py --racer build/racer
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
# instance -> (kind, program) the search must find; None: no hazard at all.
EXPECTED = {
    "h01_softmax_max_with_masked_zero": ("nan", "a"),
    "h02_logsumexp_without_max": ("overflow", "a"),
    "h03_variance_one_pass_vs_two_pass": ("precision", "a"),
    "h04_f16_accumulator_vs_f32": ("precision", "a"),
    "h05_fast_exp_vs_expf": ("precision", "a"),
    "h06_softmax_fine_pair": None,
    "h07_cube_overflows_then_clamped": ("overflow", "a"),
    "h08_quotient_near_its_pole": ("precision", "a"),
    "h09_log_near_its_zero": ("precision", "a"),
}
# instance -> what the first hazard's input description must say (how the search chose it)
CHOSEN = {"h08_quotient_near_its_pole": "a division's denominator in the exact expressions crosses 0",
          "h09_log_near_its_zero": "a logarithm's argument in the exact expressions crosses 0"}
# instances whose first hazard is an intermediate value no output shows
INTERMEDIATE = {"h07_cube_overflows_then_clamped"}
RULES = {"nan": "float_nan", "overflow": "float_overflow", "underflow": "float_underflow", "precision": "float_precision"}
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(racer, *args):
    return subprocess.run([racer, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=HERE.parent.parent)


def check_case(racer, name, want, tmp):
    case = str(HERE / (name + ".toml"))
    witness, sarif = tmp / (name + ".hazard.json"), tmp / (name + ".sarif")
    r = run(racer, "check", case, "--json", "--hazard-witness", str(witness), "--sarif", str(sarif))
    expect(r.returncode == 0, f"{name}: exit {r.returncode} without --fail-on-hazard (hazards never change it)")
    j = json.loads(r.stdout)
    expect(j["verdict"] == "equivalent", f"{name}: verdict {j['verdict']}")
    hz = j["float_hazards"]["hazards"]
    fh = j["float_hazards"]
    expect(0 <= fh["runs_beside"] <= fh["runs"], f"{name}: {fh['runs_beside']} of {fh['runs']} runs made beside the symbolic run")
    rules = [res["ruleId"] for res in json.loads(sarif.read_text())["runs"][0]["results"]]
    if want is None:
        expect(hz == [], f"{name}: hazards on the fine pair: {[h['message'] for h in hz]}")
        thorough = json.loads(run(racer, "check", case, "--json", "--float-hazards").stdout)["float_hazards"]
        expect(thorough["runs"] == 24 and thorough["hazards"] == [], f"{name}: --float-hazards: {thorough['summary']}")
        expect(not any(x.startswith("float_") for x in rules), f"{name}: SARIF hazard results on the fine pair: {rules}")
        expect(run(racer, "check", case, "--fail-on-hazard").returncode == 0, f"{name}: --fail-on-hazard fails the fine pair")
        return
    kind, program = want
    found = [h for h in hz if h["kind"] == kind and h["program"] == program]
    expect(found, f"{name}: no {kind} hazard in program {program}: {j['float_hazards']['summary']}")
    expect(RULES[kind] in rules, f"{name}: SARIF has no {RULES[kind]} result: {rules}")
    expect(run(racer, "check", case, "--fail-on-hazard").returncode == 1, f"{name}: --fail-on-hazard does not exit 1")
    expect(run(racer, "check", case, "--no-float-hazards", "--fail-on-hazard").returncode == 0,
           f"{name}: --no-float-hazards still searched")
    text = run(racer, "check", case).stdout
    expect(f"{kind}: program {program}'s" in text or name in INTERMEDIATE, f"{name}: the text report does not show the hazard")
    first = hz[0]
    expect(first["intermediate"] == (name in INTERMEDIATE), f"{name}: intermediate is {first['intermediate']}: {first['message']}")
    if name in CHOSEN:
        expect(CHOSEN[name] in first["input"], f"{name}: the input was chosen as '{first['input']}'")
    rep = run(racer, "replay", str(witness))
    if first["intermediate"]:
        # No output shows it: the replay names the instruction and the very bits it made.
        ptx_line = first["origin"].split("PTX line ")[1].split(" ")[0]
        want = f"float event {first['program']}: {first['kind']} to 0x{first['bits']:x} at "
        events = [l for l in rep.stdout.splitlines() if l.startswith(want) and f"PTX line {ptx_line} " in l]
        expect(events, f"{name}: replay of the hazard witness shows no '{want}... PTX line {ptx_line}':\n{rep.stdout}")
        expect(f"{kind}: an intermediate of program {program}" in text, f"{name}: the text report does not show the intermediate")
        return
    # The witness of the first hazard replays to the bits the report gives, at its cell.
    line = next((l for l in rep.stdout.splitlines() if l.startswith("witness cell ")), "")
    bits = {"a": first["bits"], "b": first["other_bits"]} if first["program"] == "a" else {"a": first["other_bits"], "b": first["bits"]}
    expect(f"a = " in line and f"(0x{bits['a']:x})" in line.split(", b = ")[0] and f"(0x{bits['b']:x})" in line.split(", b = ")[1],
           f"{name}: replay of the hazard witness gives '{line}', the report {first['cell']} a=0x{bits['a']:x} b=0x{bits['b']:x}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--racer", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        for name, want in EXPECTED.items():
            check_case(a.racer, name, want, pathlib.Path(d))
    corpus = run(a.racer, "corpus", str(HERE))
    expect(corpus.returncode == 0, "racer corpus tests/hazards:\n" + corpus.stdout)
    expect(len(list(HERE.glob("*.toml"))) == len(EXPECTED), "an instance of tests/hazards has no expectation here")
    print(f"{len(EXPECTED)} hazard instances, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
