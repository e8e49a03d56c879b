"""Shrink a failing fuzz case to a small kernel that still fails the same way.

``python -m tests.fuzz.reduce SEED [--devices opencl:0] [--out FILE]`` regenerates case
``SEED``, then repeatedly deletes statements, unwraps ``if``/loops and replaces expressions by
one of their operands, keeping each change under which the case still has a finding of the same
kind on the same backend (the kernel's parameters stay, so the case's inputs still fit). The
result is written as a regression case (``tests/fuzz/regressions/``): the seed in its first line,
then the kernel module; ``tests/fuzz/test_regressions.py`` runs every one on every backend.
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import math
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from tests.fuzz.gen import NP_DTYPE, ArrayArg, Case, generate
from tests.fuzz.run import run_source

Predicate = Callable[[str], bool]


def launch_header(case: Case) -> str:
    """Comment lines that pin a case's launch and inputs (``case_of`` reads them back), so a
    regression case does not depend on the generator staying the same."""
    launch = {"grid": case.grid, "block": case.block, "workgroup": case.workgroup,
              "uses_fma": case.uses_fma,
              "arrays": [[a.name, a.dtype, list(a.shape), a.writes] for a in case.arrays],
              "scalars": [list(s) for s in case.scalars]}  # fmt: skip
    inputs = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in case.inputs.items()}
    return f"# launch: {json.dumps(launch)}\n# inputs: {inputs!r}\n"


def case_of(text: str) -> Case:
    """The case a regression file pins (``launch_header``), with ``text`` as its source."""
    seed = int(re.search(r"# fuzz regression: seed (\d+)", text).group(1))  # type: ignore[union-attr]
    launch = json.loads(re.search(r"^# launch: (.*)$", text, re.M).group(1))  # type: ignore[union-attr]
    raw = re.search(r"^# inputs: (.*)$", text, re.M).group(1)  # type: ignore[union-attr]
    values = eval(raw, {"nan": math.nan, "inf": math.inf})  # noqa: S307 - our own header
    arrays = [ArrayArg(n, t, tuple(s), w) for n, t, s, w in launch["arrays"]]
    case = Case(seed, text, "kernel", launch["grid"], launch["block"], arrays,
                [tuple(s) for s in launch["scalars"]], uses_fma=launch["uses_fma"],
                workgroup=launch["workgroup"])  # fmt: skip
    for a in arrays:
        case.inputs[a.name] = np.array(values[a.name], dtype=NP_DTYPE[a.dtype]).reshape(a.shape)
    for name, _ in case.scalars:
        case.inputs[name] = values[name]
    return case


def finding_kind(finding: str) -> str:
    """``backend: kind`` of a finding line (what must survive a reduction)."""
    where, _, rest = finding.partition(": ")
    kind = rest.split(" ")[0]
    if kind.startswith(("o_", "oa_")):
        kind = f"{kind} differs"  # the same output: another one may differ for another reason
    return f"{where}: {kind}"


def _bodies(tree: ast.AST) -> Iterator[list[ast.stmt]]:
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                yield body


def _statement_edits(tree: ast.Module) -> Iterator[ast.Module]:
    """Copies of ``tree`` with one statement removed, or one ``if``/loop replaced by its body."""
    count = sum(len(b) for b in _bodies(tree))
    for k in range(count):
        for unwrap in (False, True):
            t = copy.deepcopy(tree)
            bodies = list(_bodies(t))
            flat = [(b, j) for b in bodies for j in range(len(b))]
            body, j = flat[k]
            s = body[j]
            if isinstance(s, ast.Import | ast.ImportFrom) or (
                    isinstance(s, ast.FunctionDef) and s.name == "kernel"):  # fmt: skip
                continue
            if unwrap:
                if not isinstance(s, ast.If | ast.For | ast.While):
                    continue
                body[j : j + 1] = s.body
            else:
                if isinstance(s, ast.Assign) and ast.unparse(s) == "i = go.global_id(0)":
                    continue
                del body[j]
                if not body:
                    body.append(ast.Pass())
            yield t


def _annotations(tree: ast.AST) -> set[int]:
    """Ids of the expression nodes in annotations and decorators (kept as they are)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        roots: list[ast.AST] = []
        if isinstance(node, ast.FunctionDef):
            roots += [a.annotation for a in node.args.args if a.annotation is not None]
            roots += [node.returns] if node.returns is not None else []
            roots += node.decorator_list
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
        out |= {id(x) for r in roots for x in ast.walk(r)}
    return out


class _Replace(ast.NodeTransformer):
    def __init__(self, target: int, pick: int, skip: set[int]) -> None:
        self.target = target
        self.pick = pick
        self.skip = skip
        self.seen = -1
        self.done = False

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.expr) and not self.done and id(node) not in self.skip:
            self.seen += 1
            if self.seen == self.target:
                kids = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
                if self.pick < len(kids):
                    self.done = True
                    return kids[self.pick]
        return super().generic_visit(node)


def _expression_edits(tree: ast.Module) -> Iterator[ast.Module]:
    n_exprs = sum(1 for x in ast.walk(tree) if isinstance(x, ast.expr))
    for target in range(n_exprs):
        for pick in range(3):
            t = copy.deepcopy(tree)
            r = _Replace(target, pick, _annotations(t))
            t = r.visit(t)
            if r.done:
                yield ast.fix_missing_locations(t)


def reduce(case: Case, keeps: Predicate, budget: int = 400) -> str:
    """The smallest source found (within ``budget`` trials) for which ``keeps`` holds."""
    best = ast.parse(case.source)
    trials = 0
    changed = True
    while changed and trials < budget:
        changed = False
        for edits in (_statement_edits, _expression_edits):
            for candidate in edits(best):
                trials += 1
                if trials > budget:
                    break
                text = ast.unparse(candidate) + "\n"
                if len(text) < len(ast.unparse(best)) and keeps(text):
                    best = candidate
                    changed = True
                    break
            if changed:
                break
    return ast.unparse(best) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz.reduce")
    p.add_argument("seed", type=int)
    p.add_argument("--devices", default=None)
    p.add_argument("--no-ptx", action="store_true")
    p.add_argument("--budget", type=int, default=400)
    p.add_argument("--out", default=None)
    ns = p.parse_args(argv)
    os.environ["GPUOFF_CACHE_DIR"] = ""
    from tests.fuzz.run import available_devices

    devices = ns.devices.split(",") if ns.devices else available_devices()
    case = generate(ns.seed)
    folder = Path(tempfile.mkdtemp(prefix="gpuoff-reduce-"))
    first = run_source(case, case.source, folder, devices, not ns.no_ptx)
    if not first:
        print(f"seed {ns.seed}: no finding to reduce", file=sys.stderr)
        return 1
    want = {finding_kind(f) for f in first}
    print(f"seed {ns.seed}: reducing {sorted(want)}", file=sys.stderr)

    def keeps(text: str) -> bool:
        try:
            found = run_source(case, text, folder, devices, not ns.no_ptx)
        except Exception:  # noqa: BLE001 - a candidate that does not even run is rejected
            return False
        kinds = {finding_kind(f) for f in found}
        # a candidate must not fail in a new way (a race main refuses, an error): that would
        # reduce to another finding than the one asked for
        return bool(want & kinds) and kinds <= want

    small = reduce(case, keeps, ns.budget)
    found = run_source(case, small, folder, devices, not ns.no_ptx)
    header = f"# fuzz regression: seed {ns.seed}; found: {'; '.join(sorted(want))}\n"
    body = re.sub(r"^# Generated by tests\.fuzz\.gen.*\n", "", small)
    text = header + launch_header(case) + "# ruff: noqa\n" + body
    if ns.out:
        Path(ns.out).write_text(text)
    print(text)
    print("\n".join(found), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
