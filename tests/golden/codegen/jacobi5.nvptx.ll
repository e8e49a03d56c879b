; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define ptx_kernel void @jacobi5(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, ptr addrspace(1) noalias readonly align 4 captures(none) %.5, i64 %.6, i64 %.7, ptr addrspace(1) noalias writeonly align 4 captures(none) %.8, i64 %.9, i64 %.10) local_unnamed_addr #0 {
allocas:
  %.13 = addrspacecast ptr addrspace(1) %.5 to ptr
  %.15 = addrspacecast ptr addrspace(1) %.8 to ptr
  %.35 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.36 = zext nneg i32 %.35 to i64
  %.37 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.38 = zext nneg i32 %.37 to i64
  %.39 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.40 = zext nneg i32 %.39 to i64
  %.43 = mul nuw nsw i64 %.38, %.40
  %.44 = add nuw nsw i64 %.43, %.36
  %.45 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.47 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.49 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.47, %.49
  %narrow16 = add nuw nsw i32 %narrow, %.45
  %.54 = zext nneg i32 %narrow16 to i64
  %.55 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.57 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.59 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow17 = mul nuw nsw i32 %.57, %.59
  %narrow18 = add nuw nsw i32 %narrow17, %.55
  %.64 = zext nneg i32 %narrow18 to i64
  %.65 = icmp ult i64 %.44, %.2
  %.67 = icmp ugt i64 %.3, %.54
  %.68 = and i1 %.65, %.67
  %.69 = icmp ugt i64 %.4, %.64
  %.70 = and i1 %.68, %.69
  br i1 %.70, label %body, label %done.endif

body:                                             ; preds = %allocas
  %.75 = icmp ne i32 %narrow16, 0
  %.78 = add i64 %.6, -1
  %.79 = icmp sgt i64 %.78, %.54
  %.81 = select i1 %.75, i1 %.79, i1 false
  %.84 = icmp ne i64 %.44, 0
  %or.cond = and i1 %.84, %.81
  %.89 = add i64 %.7, -1
  %.90 = icmp slt i64 %.44, %.89
  %or.cond19 = select i1 %or.cond, i1 %.90, i1 false
  br i1 %or.cond19, label %if.then, label %done.endif

if.then:                                          ; preds = %body
  %.130 = icmp ugt i64 %.9, %.54
  %.131 = icmp ult i64 %.44, %.10
  %.132 = and i1 %.130, %.131
  br i1 %.132, label %if.then.if, label %done.if, !prof !0

if.then.if:                                       ; preds = %if.then
  %.145 = mul i64 %.10, %.54
  %0 = getelementptr float, ptr %.15, i64 %.145
  %.147 = getelementptr float, ptr %0, i64 %.44
  %.95 = add nsw i64 %.54, -1
  %.97 = mul i64 %.7, %.95
  %1 = getelementptr float, ptr %.13, i64 %.97
  %.99 = getelementptr float, ptr %1, i64 %.44
  %.100 = load float, ptr %.99, align 4
  %.102 = add nuw nsw i64 %.54, 1
  %.104 = mul i64 %.7, %.102
  %2 = getelementptr float, ptr %.13, i64 %.104
  %.106 = getelementptr float, ptr %2, i64 %.44
  %.107 = load float, ptr %.106, align 4
  %.108 = fadd float %.100, %.107
  %.112 = mul i64 %.7, %.54
  %3 = getelementptr float, ptr %.13, i64 %.112
  %4 = getelementptr float, ptr %3, i64 %.44
  %.114 = getelementptr i8, ptr %4, i64 -4
  %.115 = load float, ptr %.114, align 4
  %.116 = fadd float %.108, %.115
  %.122 = getelementptr i8, ptr %4, i64 4
  %.123 = load float, ptr %.122, align 4
  %.124 = fadd float %.116, %.123
  %.127 = fmul float %.124, 2.500000e-01
  store float %.127, ptr %.147, align 4
  br label %done.endif

done.if:                                          ; preds = %if.then
  %.157 = cmpxchg ptr addrspace(1) %.1, i64 0, i64 5 monotonic monotonic, align 8
  %.158 = extractvalue { i64, i1 } %.157, 1
  br i1 %.158, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %if.then.if, %allocas, %body, %done.if, %done.if.if
  ret void

done.if.if:                                       ; preds = %done.if
  %.162 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.54, ptr addrspace(1) %.162, align 8
  %.166 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 %.44, ptr addrspace(1) %.166, align 8
  %.170 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.170, align 8
  %.174 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.174, align 8
  %.178 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.178, align 8
  %.182 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.182, align 8
  %.186 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.186, align 8
  %.190 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.190, align 8
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

attributes #0 = { mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!0 = !{!"branch_weights", i32 99, i32 1}
