# fuzz regression: seed 109; found: opencl:0: reports
# ruff: noqa
import math
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut

@go.kernel
def kernel(x_i64: Borrow[Array[go.i64]], x_f32: Borrow[Array[go.f32]], x_f64: Borrow[Array[go.f64]], m_f64: Borrow[Array[go.f64]], x_u8: Borrow[Array[go.u8]], m_u8: Borrow[Array[go.u8]], m_f32: Borrow[Array[go.f32]], x_i32: Borrow[Array[go.i32]], x_bool: Borrow[Array[go.boolean]], m_i32: Borrow[Array[go.i32]], o_u8: BorrowMut[Array[go.u8]], o_i32: BorrowMut[Array[go.i32]], o_i64: BorrowMut[Array[go.i64]], o_f32: BorrowMut[Array[go.f32]], oa_f32: BorrowMut[Array[go.f32]], s_u8: go.u8, s_i32: go.i32, s_i64: go.i64, s_f32: go.f32) -> None:
    i = go.global_id(0)
    if m_f64[i % m_f64.shape[0], i + 2]:
        pass
    v5: go.f32 = -go.abs(x_f32[s_i64 + 3]) - (x_f32[s_i64 % x_f32.shape[0]] - go.f32(1.0) if x_bool[i % x_bool.shape[0]] or True else x_f32[i % x_f32.shape[0]])
