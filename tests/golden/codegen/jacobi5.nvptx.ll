; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nofree norecurse nounwind
define ptx_kernel void @jacobi5(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, ptr addrspace(1) noalias readonly align 4 captures(none) %.5, i64 %.6, i64 %.7, ptr addrspace(1) noalias writeonly align 4 captures(none) %.8, i64 %.9, i64 %.10) local_unnamed_addr #0 {
allocas:
  %.13 = addrspacecast ptr addrspace(1) %.5 to ptr
  %.15 = addrspacecast ptr addrspace(1) %.8 to ptr
  %.37 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.38 = zext nneg i32 %.37 to i64
  %.39 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.40 = zext nneg i32 %.39 to i64
  %.41 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.42 = zext nneg i32 %.41 to i64
  %.45 = mul nuw nsw i64 %.40, %.42
  %.46 = add nuw nsw i64 %.45, %.38
  %.47 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.49 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.51 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.49, %.51
  %narrow17 = add nuw nsw i32 %narrow, %.47
  %.56 = zext nneg i32 %narrow17 to i64
  %.57 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.59 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.61 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow18 = mul nuw nsw i32 %.59, %.61
  %narrow19 = add nuw nsw i32 %narrow18, %.57
  %.66 = zext nneg i32 %narrow19 to i64
  %.67 = icmp ult i64 %.46, %.2
  %.69 = icmp ugt i64 %.3, %.56
  %.70 = and i1 %.67, %.69
  %.71 = icmp ugt i64 %.4, %.66
  %.72 = and i1 %.70, %.71
  br i1 %.72, label %body, label %done.endif

body:                                             ; preds = %allocas
  %.77 = icmp ne i32 %narrow17, 0
  %.80 = add i64 %.6, -1
  %.81 = icmp sgt i64 %.80, %.56
  %.83 = select i1 %.77, i1 %.81, i1 false
  %.86 = icmp ne i64 %.46, 0
  %or.cond = and i1 %.86, %.83
  %.91 = add i64 %.7, -1
  %.92 = icmp slt i64 %.46, %.91
  %or.cond20 = select i1 %or.cond, i1 %.92, i1 false
  br i1 %or.cond20, label %if.then, label %done.endif

done:                                             ; preds = %if.then
  %.160 = mul i64 %.3, %.66
  %.161 = add i64 %.160, %.56
  %.162 = mul i64 %.161, %.2
  %.163 = add i64 %.162, %.46
  %.170 = shl i64 %.163, 16
  %.172 = xor i64 %.170, -6
  %.173 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  %.174 = atomicrmw umax ptr addrspace(1) %.173, i64 %.172 monotonic, align 8
  %.175 = icmp ult i64 %.174, %.172
  br i1 %.175, label %done.if.if, label %done.endif

if.then:                                          ; preds = %body
  %.132 = icmp ule i64 %.9, %.56
  %.133 = icmp uge i64 %.46, %.10
  %.134.not = or i1 %.132, %.133
  br i1 %.134.not, label %done, label %if.then.if, !prof !0

if.then.if:                                       ; preds = %if.then
  %.152 = mul i64 %.10, %.56
  %0 = getelementptr float, ptr %.15, i64 %.152
  %.154 = getelementptr float, ptr %0, i64 %.46
  %.97 = add nsw i64 %.56, -1
  %.99 = mul i64 %.7, %.97
  %1 = getelementptr float, ptr %.13, i64 %.99
  %.101 = getelementptr float, ptr %1, i64 %.46
  %.102 = load float, ptr %.101, align 4
  %.104 = add nuw nsw i64 %.56, 1
  %.106 = mul i64 %.7, %.104
  %2 = getelementptr float, ptr %.13, i64 %.106
  %.108 = getelementptr float, ptr %2, i64 %.46
  %.109 = load float, ptr %.108, align 4
  %.110 = fadd float %.102, %.109
  %.114 = mul i64 %.7, %.56
  %3 = getelementptr float, ptr %.13, i64 %.114
  %4 = getelementptr float, ptr %3, i64 %.46
  %.116 = getelementptr i8, ptr %4, i64 -4
  %.117 = load float, ptr %.116, align 4
  %.118 = fadd float %.110, %.117
  %.124 = getelementptr i8, ptr %4, i64 4
  %.125 = load float, ptr %.124, align 4
  %.126 = fadd float %.118, %.125
  %.129 = fmul float %.126, 2.500000e-01
  store float %.129, ptr %.154, align 4
  br label %done.endif

done.endif:                                       ; preds = %if.then.if, %allocas, %body, %done, %publish.held.endif
  ret void

done.if.if:                                       ; preds = %done
  %.177 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.179 = cmpxchg ptr addrspace(1) %.177, i64 0, i64 1 acquire monotonic, align 8
  %.180 = extractvalue { i64, i1 } %.179, 1
  br i1 %.180, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.182 = atomicrmw or ptr addrspace(1) %.173, i64 0 monotonic, align 8
  %.183 = icmp eq i64 %.182, %.172
  br i1 %.183, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 5, ptr addrspace(1) %.1, align 8
  %.191 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.56, ptr addrspace(1) %.191, align 8
  %.195 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 %.46, ptr addrspace(1) %.195, align 8
  %.199 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.199, align 8
  %.203 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.203, align 8
  %.207 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.207, align 8
  %.211 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.211, align 8
  %.215 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.215, align 8
  %.219 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.219, align 8
  %.221 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %.163, ptr addrspace(1) %.221, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.225 = atomicrmw xchg ptr addrspace(1) %.177, i64 0 release, align 8
  br label %done.endif
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 64) i32 @llvm.nvvm.read.ptx.sreg.tid.z() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.z() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 65) i32 @llvm.nvvm.read.ptx.sreg.ntid.z() #1

attributes #0 = { nofree norecurse nounwind }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!0 = !{!"branch_weights", i32 1, i32 99}
