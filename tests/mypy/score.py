"""Score a plugin on the golden cases: ``python -m tests.mypy.score [ROOT]``.

``ROOT`` is a checkout whose ``gpuoff`` and ``mypy_plugin`` are scored (default: this one), so
an older plugin can be compared on today's cases (``git archive OLD | tar -x -C DIR``).
Prints expected errors found, false negatives and false positives per category, matched by
line and error code.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from tests.mypy.harness import CASES, ROOT, expected_errors, make_workspace, parse_errors, score


def main(argv: list[str]) -> int:
    root = Path(argv[0]).resolve() if argv else ROOT
    with tempfile.TemporaryDirectory() as tmp:
        cfg = make_workspace(Path(tmp), root=root)
        # A separate process: the plugin is imported from the copy, not from this checkout.
        proc = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(cfg), "tests/mypy/cases"],
            cwd=tmp, capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        stdout, stderr = proc.stdout, proc.stderr
    if "Traceback" in stderr:
        print(stderr)
        return 1
    want = []
    for case in sorted(CASES.glob("*.py")):
        want += expected_errors(case, f"tests/mypy/cases/{case.name}")
    scores = score(want, parse_errors(stdout))
    print(f"{'category':<10} {'expected':>8} {'found':>6} {'false neg':>9} {'false pos':>9}")
    total = [0, 0, 0, 0]
    for cat, s in sorted(scores.items()):
        row = [s.expected, s.found, s.false_negatives, s.false_positives]
        total = [a + b for a, b in zip(total, row, strict=True)]
        print(f"{cat:<10} {row[0]:>8} {row[1]:>6} {row[2]:>9} {row[3]:>9}")
    print(f"{'total':<10} {total[0]:>8} {total[1]:>6} {total[2]:>9} {total[3]:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
