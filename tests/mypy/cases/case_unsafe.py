# fmt: off
"""`with go.unsafe():` is the one `with` a kernel may have (SPEC §3b); anything else is not."""
# ruff: noqa: E501, F841
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32


@go.func
def put(out: BorrowMut[Array[f32]], k: int, v: f32) -> None:
    out[k] = v


@go.kernel
def scatter(x: Borrow[Array[f32]], perm: Borrow[Array[i32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        with go.unsafe():
            out[perm[i]] = x[i]
            put(out, perm[i], x[i])


@go.kernel
def misuse(out: BorrowMut[Array[f32]]) -> None:
    go.unsafe()  # E: go.unsafe() is only a block: `with go.unsafe():`  [gpuoff-unsupported]
    with go.unsafe() as u:  # E: `with go.unsafe():` binds no name (drop the `as ...`)  [gpuoff-unsupported]
        out[0] = 1.0
    with open("f"):  # E: with statement (only `with go.unsafe():` is) is not supported in kernels  [gpuoff-unsupported]
        out[0] = 2.0
