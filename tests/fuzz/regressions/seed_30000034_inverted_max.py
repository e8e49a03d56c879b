# fuzz regression: seed 30000034; found: opencl:0: differs
# launch: {"grid": 16, "block": 8, "workgroup": true, "uses_fma": false, "arrays": [["x_i32", "i32", [9], false], ["m_i32", "i32", [1, 4], false], ["x_i64", "i64", [1], false], ["o_bool", "bool", [16], true], ["o_i32", "i32", [16], true], ["o_i64", "i64", [16], true], ["o_f32", "f32", [16], true], ["oa_f32", "f32", [16], true]], "scalars": [["s_bool", "bool"], ["s_i32", "i32"], ["s_i64", "i64"], ["s_f32", "f32"]]}
# inputs: {'x_i32': [-36, -44, -34, 20, 2, 2147483646, 2, 5, -46], 'm_i32': [[-2, -49, -45, 44]], 'x_i64': [-37], 'o_bool': [True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True], 'o_i32': [77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77], 'o_i64': [77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77, 77], 'o_f32': [77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0], 'oa_f32': [77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0, 77.0], 's_bool': False, 's_i32': 16, 's_i64': 44, 's_f32': 14.707843780517578}
# ruff: noqa
import math
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut

@go.kernel
def kernel(x_i32: Borrow[Array[go.i32]], m_i32: Borrow[Array[go.i32]], x_i64: Borrow[Array[go.i64]], o_bool: BorrowMut[Array[go.boolean]], o_i32: BorrowMut[Array[go.i32]], o_i64: BorrowMut[Array[go.i64]], o_f32: BorrowMut[Array[go.f32]], oa_f32: BorrowMut[Array[go.f32]], s_bool: go.boolean, s_i32: go.i32, s_i64: go.i64, s_f32: go.f32) -> None:
    i = go.global_id(0)
    v: go.i32 = ~max(s_i32, x_i32[i % x_i32.shape[0]])
    o_i32[i] = v
