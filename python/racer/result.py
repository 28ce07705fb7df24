"""The result of a check: verdict, witness (as NumPy arrays), defects, the report text."""
import json
from fractions import Fraction

from . import _native
from .dtypes import NUMPY


class Result:
    def __init__(self, case, description, raw):
        self.case, self._description = case, description
        self.text = raw["text"]
        self.json = json.loads(raw["json"])
        self.exit_code = raw["exit_code"]
        self.witness_json = json.loads(raw["witness"]) if raw["witness"] else None
        self.name = self.json["name"]
        self.verdict = self.json["verdict"]          # equivalent | inequivalent | unknown | refused | equal_up_to_rounding
        self.reason = self.json["reason"]
        self.defects = self.json["defects"]          # dicts: program, kind, memory, detail, count, site
        self.notes = self.json["notes"]
        self.outputs = self.json["outputs"]
        self.counterexample = self.json.get("counterexample")
        self.seconds = self.json["seconds"]
        # Beside the verdict, never part of it (README, Float hazards): dicts as in the JSON report.
        hazards = self.json.get("float_hazards", {})
        self.float_hazards = hazards.get("hazards", [])          # kind, program, cell, values, ...
        self.precision_changes = hazards.get("precision_changes", [])

    @property
    def equivalent(self):
        """True only when every compared cell is proved equal and neither program has a defect."""
        return self.exit_code == 0

    @property
    def witness(self):
        """The inputs at which the outputs differ, as NumPy arrays (one per tensor the witness
        mentions; cells it does not mention are 0, as the replays use them). None without one."""
        if not self.counterexample:
            return None
        import numpy as np
        tensors = self._description["tensors"]
        arrays = {}
        for v in self.counterexample["values"]:
            t = v["tensor"]
            if t < 0 or v["cell"] < 0:
                continue
            spec = tensors[t]
            if spec["name"] not in arrays:
                arrays[spec["name"]] = np.zeros(spec["shape"], dtype=NUMPY[spec["dtype"]])
            flat = arrays[spec["name"]].reshape(-1)
            q = Fraction(v["value"])
            flat[v["cell"]] = float(q) if arrays[spec["name"]].dtype.kind == "f" else int(q)
        return arrays

    @property
    def witness_values(self):
        """[(name, Fraction)]: every value of the witness, exactly ("x[3]", Fraction(1, 2))."""
        if not self.counterexample:
            return []
        return [(v["name"], Fraction(v["value"])) for v in self.counterexample["values"]]

    def report(self):
        """The same text `racer check` prints for this instance."""
        return self.text

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"<racer.Result {self.name}: {self.verdict}, exit code {self.exit_code}>"

    def explain(self, cell=None, time_limit=60):
        """Both programs' expressions for one output cell (default: the witness cell), their
        difference and what decided it, as text."""
        if cell is None:
            if not self.counterexample:
                cell = self._first_output_cell()
            else:
                cell = self.counterexample["cell"]
        x = _native.call(_native.core().explain, json.dumps(self._description), cell, float(time_limit))
        lines = [f"{self.name}: {x['cell']}"]
        lines += [f"  recognized {r}" for r in x["recognized"]]
        if x["stopped"]:
            return "\n".join(lines + ["the programs did not run to the end:", "  " + x["stopped"]]) + "\n"
        lines += [f"program a: {x['expr_a']}", f"program b: {x['expr_b']}", f"a - b:     {x['difference']}",
                  f"decided:   {x['status']}" + (f" ({x['step']})" if x["step"] else "")]
        if x["reason"]:
            lines.append(f"why:       {x['reason']}")
        return "\n".join(lines) + "\n"

    def _first_output_cell(self):
        name = self.case.outputs[0]
        shape = self.case.tensors[name].shape
        return f"{name}[{','.join('0' for _ in shape)}]"

    def save_witness(self, path):
        """Writes the witness file (racer replay [--gpu] reads it); returns the path."""
        if not self.witness_json:
            from .errors import RacerError
            raise RacerError(f"no witness to save: the verdict is {self.verdict}")
        with open(path, "w") as f:
            json.dump(self.witness_json, f, indent=2)
            f.write("\n")
        return path

    def replay(self, path=None):
        """Runs both programs concretely on the CPU (bit-exact IEEE emulation) at the witness;
        returns {differing_count, compared, differing: [(cell, a, b)], at_witness, refusal}."""
        import os
        import tempfile
        if path is not None:
            return _native.call(_native.core().replay, path)
        fd, path = tempfile.mkstemp(suffix=".json", prefix="racer-witness-")
        os.close(fd)
        try:
            self.save_witness(path)
            return _native.call(_native.core().replay, path)
        finally:
            os.remove(path)
