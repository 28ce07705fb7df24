"""python3 -m racer.reference SPEC INSTANCE_JSON [SEARCH_DIR]: traces the reference SPEC
("file.py:function" or "module:function") over the tensors of the instance description in
INSTANCE_JSON and prints the graph (src/frontend/reference_json.hpp). The core's TOML path
(src/frontend/reference_trace.cpp) runs this; errors go to stderr, exit code 3."""
import json
import sys

from ..errors import RacerError
from .trace import resolve, trace


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 3
    spec, path = argv[0], argv[1]
    try:
        with open(path) as f:
            desc = json.load(f)
        fn = resolve(spec, argv[2] if len(argv) == 3 else None)
        graph = trace(fn, desc["tensors"], desc["outputs"])
    except RacerError as e:
        print(str(e), file=sys.stderr)
        return 3
    json.dump(graph, sys.stdout, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
