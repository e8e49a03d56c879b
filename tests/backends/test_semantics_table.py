"""The semantics table of ``docs/semantics.md``, row by row, in the IR interpreter, on every
device and through ptxas: each row's expression is evaluated on its operands and must give the
row's result bit for bit (any NaN matches ``nan``; ``-0.0`` is not ``0.0``).

All rows go into one generated kernel (one compile per device): row ``k`` reads its operands
from the per-type input arrays and stores its result at ``o_<type>[k]``."""

from __future__ import annotations

import ast
import importlib.util
import math
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from codegen.nvptx import compile_ptx
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "semantics.md"
MARKER = "<!-- semantics-table"
NP = {"bool": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
      "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "f32": np.float32,
      "f64": np.float64}  # fmt: skip
GO = {t: f"go.{t}" for t in NP} | {"bool": "go.boolean"}
TYPES = tuple(NP)


@dataclass(frozen=True)
class Row:
    """One row: ``expr`` over operands of type ``arg`` giving a ``result`` of type ``res``."""

    line: int
    expr: str
    arg: str
    res: str
    operands: tuple[Any, ...]
    result: Any


def _value(text: str) -> Any:
    return eval(text, {"nan": math.nan, "inf": math.inf})  # noqa: S307 - the table's literals


def read_rows() -> list[Row]:
    lines = DOC.read_text().splitlines()
    start = next(k for k, ln in enumerate(lines) if ln.startswith(MARKER))
    rows: list[Row] = []
    for k in range(start + 1, len(lines)):
        ln = lines[k]
        if not ln.startswith("| `"):
            if rows and not ln.startswith("|"):
                break
            continue
        cells = [c.strip() for c in ln.strip().strip("|").split(" | ")]
        expr, types, operands, result = cells[0].strip("`"), cells[1], cells[2], cells[3]
        arg, res = (t.strip() for t in types.split("→"))
        ops = tuple(_value(v) for v in operands.split(", "))
        rows.append(Row(k + 1, expr, arg, res, ops, _value(result)))
    assert len(rows) > 50, "the semantics table was not found"
    return rows


ROWS = read_rows()


class _Operands(ast.NodeTransformer):
    """``a``, ``b``, ``c`` -> loads from the row's input slots."""

    def __init__(self, slots: dict[str, str]) -> None:
        self.slots = slots

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.slots:
            return ast.parse(self.slots[node.id], mode="eval").body
        return node


def _kernel_source(rows: list[Row]) -> tuple[str, dict[str, list[Any]], dict[str, int]]:
    """The kernel's source, the inputs per type and the number of outputs per type."""
    inputs: dict[str, list[Any]] = {t: [] for t in TYPES}
    outputs: dict[str, int] = {t: 0 for t in TYPES}
    body: list[str] = []
    for row in rows:
        slots = {}
        for name, v in zip("abc", row.operands, strict=False):
            slots[name] = f"i_{row.arg}[{len(inputs[row.arg])}]"
            inputs[row.arg].append(v)
        k = outputs[row.res]
        outputs[row.res] += 1
        if row.expr.startswith("go.atomic_"):
            # `go.atomic_op(out, a)`, `go.atomic_cas(out, a, c)`: the output slot starts at b
            # and is updated in place; the other arguments are operands
            call = ast.parse(row.expr, mode="eval").body
            assert isinstance(call, ast.Call)
            args = [ast.unparse(_Operands(slots).visit(a)) for a in call.args[1:]]
            body.append(f"    o_{row.res}[{k}] = {slots['b']}")
            body.append(f"    {ast.unparse(call.func)}(o_{row.res}, {k}, {', '.join(args)})")
            continue
        expr = ast.unparse(_Operands(slots).visit(ast.parse(row.expr, mode="eval")))
        body.append(f"    o_{row.res}[{k}] = {expr}  # docs/semantics.md:{row.line}")
    params = [f"i_{t}: Borrow[Array[{GO[t]}]]" for t in TYPES]
    params += [f"o_{t}: BorrowMut[Array[{GO[t]}]]" for t in TYPES]
    src = ("import gpuoff as go\nfrom gpuoff import Array, Borrow, BorrowMut\n\n\n"
           "@go.kernel\ndef table(\n    " + ",\n    ".join(params) + ",\n) -> None:\n"
           + "\n".join(body) + "\n")  # fmt: skip
    return src, inputs, outputs


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, list[Any], dict[str, int]]:
    src, inputs, outputs = _kernel_source(ROWS)
    path = tmp_path_factory.mktemp("semantics") / "semantics_table.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("_gpuoff_semantics_table", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with np.errstate(over="ignore"):
        arrays: list[np.ndarray[Any, Any]] = [np.array(inputs[t] or [0], dtype=NP[t])
                                              for t in TYPES]  # fmt: skip
    return mod.table, arrays, outputs


def _outputs(outputs: dict[str, int]) -> list[np.ndarray[Any, Any]]:
    return [np.zeros(max(outputs[t], 1), dtype=NP[t]) for t in TYPES]


def _check(outs: list[np.ndarray[Any, Any]], where: str) -> None:
    got = dict(zip(TYPES, outs, strict=True))
    seen: dict[str, int] = {t: 0 for t in TYPES}
    bad = []
    for row in ROWS:
        k = seen[row.res]
        seen[row.res] += 1
        have = got[row.res][k]
        want = np.array([row.result], dtype=NP[row.res])[0]
        if row.res in ("f32", "f64"):
            ok = (np.isnan(want) and np.isnan(have)) or (
                have.tobytes() == want.tobytes()
            )
        else:
            ok = bool(have == want)
        if not ok:
            bad.append(f"docs/semantics.md:{row.line}: {row.expr} on {row.operands} ({row.arg}) "
                       f"gave {have!r}, the table says {want!r}")  # fmt: skip
    assert not bad, f"{where}:\n" + "\n".join(bad)


SIG = ", ".join([f"{t}[:]" for t in TYPES] * 2)


def test_the_interpreter_computes_the_table(table: Any) -> None:
    kernel, arrays, outputs = table
    module = lower_for_show(kernel, SIG, None, None)
    outs = _outputs(outputs)
    interp.run(module, [*arrays, *outs], 1)
    _check(outs, "interpreter")


def test_every_device_computes_the_table(device: str, table: Any) -> None:
    kernel, arrays, outputs = table
    outs = _outputs(outputs)
    kernel[1](*arrays, *outs)
    _check(outs, device)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_the_table_assembles_for_cuda(table: Any, tmp_path: Path) -> None:
    kernel, _, _ = table
    ptx = compile_ptx(lower_for_show(kernel, SIG, None, None), sm=80).ptx
    src = tmp_path / "table.ptx"
    src.write_text(ptx)
    proc = subprocess.run(["ptxas", "-arch=sm_80", str(src), "-o", str(tmp_path / "t.cubin")],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
