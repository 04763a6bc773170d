"""A long-lived runner of the seed skf-quick-batch.py for the differential test.

Loads the seed once with runpy from its own folder (so its schemas/ and brief
validator lie beside it), pins its clock by patching time.time, then runs one
command per request line: {"argv", "cwd", "time"} in, {"code", "out", "err"} out.
"""

from __future__ import annotations

import io
import json
import os
import runpy
import sys
import time
from contextlib import redirect_stderr, redirect_stdout

SEED = sys.argv[1]
PINNED = [0.0]


def main() -> None:
    time.time = lambda: PINNED[0]
    seed = runpy.run_path(SEED, run_name="skf_quick_batch")
    sys.argv[0] = os.path.basename(SEED)
    reply = sys.stdout
    for raw in sys.stdin:
        request = json.loads(raw)
        PINNED[0] = request["time"]
        os.chdir(request["cwd"])
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = seed["main"](request["argv"])
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
            except Exception as error:  # the seed crashed: report it, the test fails on the difference
                code = f"crash: {type(error).__name__}: {error}"
        reply.write(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}) + "\n")
        reply.flush()


if __name__ == "__main__":
    main()
