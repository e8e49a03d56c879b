; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define ptx_kernel void @saxpy(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, float %.5, ptr addrspace(1) noalias readonly align 4 captures(none) %.6, i64 %.7, ptr addrspace(1) noalias align 4 captures(none) %.8, i64 %.9) local_unnamed_addr #0 {
allocas:
  %.12 = addrspacecast ptr addrspace(1) %.6 to ptr
  %.13 = addrspacecast ptr addrspace(1) %.8 to ptr
  %.33 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.34 = zext nneg i32 %.33 to i64
  %.35 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.36 = zext nneg i32 %.35 to i64
  %.37 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.38 = zext nneg i32 %.37 to i64
  %.41 = mul nuw nsw i64 %.36, %.38
  %.42 = add nuw nsw i64 %.41, %.34
  %.43 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.45 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.47 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.45, %.47
  %narrow6 = add nuw nsw i32 %narrow, %.43
  %.52 = zext nneg i32 %narrow6 to i64
  %.53 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.55 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.57 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow7 = mul nuw nsw i32 %.55, %.57
  %narrow8 = add nuw nsw i32 %narrow7, %.53
  %.62 = zext nneg i32 %narrow8 to i64
  %.63 = icmp ult i64 %.42, %.2
  %.65 = icmp ugt i64 %.3, %.52
  %.66 = and i1 %.63, %.65
  %.67 = icmp ugt i64 %.4, %.62
  %.68 = and i1 %.66, %.67
  %.72 = icmp slt i64 %.42, %.9
  %or.cond = select i1 %.68, i1 %.72, i1 false
  br i1 %or.cond, label %if.then, label %done.endif

if.then:                                          ; preds = %allocas
  %.76.not = icmp ult i64 %.42, %.7
  br i1 %.76.not, label %load.ok, label %done.if.critedge

load.ok:                                          ; preds = %if.then
  %.85 = getelementptr float, ptr %.12, i64 %.42
  %.87 = load float, ptr %.85, align 4
  %.90 = fmul float %.5, %.87
  %.92 = getelementptr float, ptr %.13, i64 %.42
  %.93 = load float, ptr %.92, align 4
  %.94 = fadd float %.90, %.93
  store float %.94, ptr %.92, align 4
  br label %done.endif

done.if.critedge:                                 ; preds = %if.then
  %.90.c = fmul float %.5, 0.000000e+00
  %.92.c = getelementptr float, ptr %.13, i64 %.42
  %.93.c = load float, ptr %.92.c, align 4
  %.94.c = fadd float %.90.c, %.93.c
  store float %.94.c, ptr %.92.c, align 4
  %.104 = cmpxchg ptr addrspace(1) %.1, i64 0, i64 1 monotonic monotonic, align 8
  %.105 = extractvalue { i64, i1 } %.104, 1
  br i1 %.105, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %load.ok, %allocas, %done.if.critedge, %done.if.if
  ret void

done.if.if:                                       ; preds = %done.if.critedge
  %.109 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.42, ptr addrspace(1) %.109, align 8
  %.113 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.113, align 8
  %.117 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.117, align 8
  %.121 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.121, align 8
  %.125 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.125, align 8
  %.129 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.129, align 8
  %.133 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.133, align 8
  %.137 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.137, align 8
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
