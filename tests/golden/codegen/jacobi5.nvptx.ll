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
  %.53 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.54 = zext nneg i32 %.53 to i64
  %.55 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.56 = zext nneg i32 %.55 to i64
  %.57 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.58 = zext nneg i32 %.57 to i64
  %.61 = mul nuw nsw i64 %.56, %.58
  %.62 = add nuw nsw i64 %.61, %.54
  %.63 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.65 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.67 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.65, %.67
  %narrow19 = add nuw nsw i32 %narrow, %.63
  %.72 = zext nneg i32 %narrow19 to i64
  %.73 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.75 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.77 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow20 = mul nuw nsw i32 %.75, %.77
  %narrow21 = add nuw nsw i32 %narrow20, %.73
  %.82 = zext nneg i32 %narrow21 to i64
  %.83 = icmp ult i64 %.62, %.2
  %.85 = icmp ugt i64 %.3, %.72
  %.86 = and i1 %.83, %.85
  %.87 = icmp ugt i64 %.4, %.82
  %.88 = and i1 %.86, %.87
  br i1 %.88, label %body, label %done.endif

body:                                             ; preds = %allocas
  %.93 = icmp ne i32 %narrow19, 0
  %.96 = add i64 %.6, -1
  %.97 = icmp sgt i64 %.96, %.72
  %.99 = select i1 %.93, i1 %.97, i1 false
  %.102 = icmp ne i64 %.62, 0
  %or.cond = and i1 %.102, %.99
  %.107 = add i64 %.7, -1
  %.108 = icmp slt i64 %.62, %.107
  %or.cond22 = select i1 %or.cond, i1 %.108, i1 false
  br i1 %or.cond22, label %if.then, label %done.endif

done:                                             ; preds = %if.then
  %.184 = mul i64 %.3, %.82
  %.185 = add i64 %.184, %.72
  %.186 = mul i64 %.185, %.2
  %.187 = add i64 %.186, %.62
  %.194 = shl i64 %.187, 16
  %.196 = xor i64 %.194, -6
  %.197 = getelementptr i8, ptr addrspace(1) %.1, i64 144
  %.198 = atomicrmw umax ptr addrspace(1) %.197, i64 %.196 monotonic, align 8
  %.199 = icmp ult i64 %.198, %.196
  br i1 %.199, label %done.if.if, label %done.endif

if.then:                                          ; preds = %body
  %.148 = icmp ule i64 %.9, %.72
  %.149 = icmp uge i64 %.62, %.10
  %.150.not = or i1 %.148, %.149
  br i1 %.150.not, label %done, label %if.then.if, !prof !0

if.then.if:                                       ; preds = %if.then
  %.176 = mul i64 %.10, %.72
  %0 = getelementptr float, ptr %.15, i64 %.176
  %.178 = getelementptr float, ptr %0, i64 %.62
  %.113 = add nsw i64 %.72, -1
  %.115 = mul i64 %.7, %.113
  %1 = getelementptr float, ptr %.13, i64 %.115
  %.117 = getelementptr float, ptr %1, i64 %.62
  %.118 = load float, ptr %.117, align 4
  %.120 = add nuw nsw i64 %.72, 1
  %.122 = mul i64 %.7, %.120
  %2 = getelementptr float, ptr %.13, i64 %.122
  %.124 = getelementptr float, ptr %2, i64 %.62
  %.125 = load float, ptr %.124, align 4
  %.126 = fadd float %.118, %.125
  %.130 = mul i64 %.7, %.72
  %3 = getelementptr float, ptr %.13, i64 %.130
  %4 = getelementptr float, ptr %3, i64 %.62
  %.132 = getelementptr i8, ptr %4, i64 -4
  %.133 = load float, ptr %.132, align 4
  %.134 = fadd float %.126, %.133
  %.140 = getelementptr i8, ptr %4, i64 4
  %.141 = load float, ptr %.140, align 4
  %.142 = fadd float %.134, %.141
  %.145 = fmul float %.142, 2.500000e-01
  store float %.145, ptr %.178, align 4
  br label %done.endif

done.endif:                                       ; preds = %if.then.if, %allocas, %body, %done, %publish.held.endif
  ret void

done.if.if:                                       ; preds = %done
  %.201 = getelementptr i8, ptr addrspace(1) %.1, i64 152
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.203 = cmpxchg ptr addrspace(1) %.201, i64 0, i64 1 acquire monotonic, align 8
  %.204 = extractvalue { i64, i1 } %.203, 1
  br i1 %.204, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.206 = atomicrmw or ptr addrspace(1) %.197, i64 0 monotonic, align 8
  %.207 = icmp eq i64 %.206, %.196
  br i1 %.207, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 5, ptr addrspace(1) %.1, align 8
  %.215 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.72, ptr addrspace(1) %.215, align 8
  %.219 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 %.62, ptr addrspace(1) %.219, align 8
  %.223 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.223, align 8
  %.227 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.227, align 8
  %.231 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.231, align 8
  %.235 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.235, align 8
  %.239 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.239, align 8
  %.243 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.243, align 8
  %.247 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %.9, ptr addrspace(1) %.247, align 8
  %.251 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  store i64 %.10, ptr addrspace(1) %.251, align 8
  %.255 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  store i64 0, ptr addrspace(1) %.255, align 8
  %.259 = getelementptr i8, ptr addrspace(1) %.1, i64 96
  store i64 0, ptr addrspace(1) %.259, align 8
  %.263 = getelementptr i8, ptr addrspace(1) %.1, i64 104
  store i64 0, ptr addrspace(1) %.263, align 8
  %.267 = getelementptr i8, ptr addrspace(1) %.1, i64 112
  store i64 0, ptr addrspace(1) %.267, align 8
  %.271 = getelementptr i8, ptr addrspace(1) %.1, i64 120
  store i64 0, ptr addrspace(1) %.271, align 8
  %.275 = getelementptr i8, ptr addrspace(1) %.1, i64 128
  store i64 0, ptr addrspace(1) %.275, align 8
  %.277 = getelementptr i8, ptr addrspace(1) %.1, i64 136
  store i64 %.187, ptr addrspace(1) %.277, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.281 = atomicrmw xchg ptr addrspace(1) %.201, i64 0 release, align 8
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
