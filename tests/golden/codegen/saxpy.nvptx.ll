; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nofree norecurse nounwind
define ptx_kernel void @saxpy(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, float %.5, ptr addrspace(1) noalias readonly align 4 captures(none) %.6, i64 %.7, ptr addrspace(1) noalias align 4 captures(none) %.8, i64 %.9) local_unnamed_addr #0 {
allocas:
  %.13 = addrspacecast ptr addrspace(1) %.8 to ptr
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
  %narrow7 = add nuw nsw i32 %narrow, %.45
  %.54 = zext nneg i32 %narrow7 to i64
  %.55 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.57 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.59 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow8 = mul nuw nsw i32 %.57, %.59
  %narrow9 = add nuw nsw i32 %narrow8, %.55
  %.64 = zext nneg i32 %narrow9 to i64
  %.65 = icmp ult i64 %.44, %.2
  %.67 = icmp ugt i64 %.3, %.54
  %.68 = and i1 %.65, %.67
  %.69 = icmp ugt i64 %.4, %.64
  %.70 = and i1 %.68, %.69
  %.74 = icmp slt i64 %.44, %.9
  %or.cond = select i1 %.70, i1 %.74, i1 false
  br i1 %or.cond, label %if.then, label %done.endif

if.then:                                          ; preds = %allocas
  %.78.not.not = icmp ult i64 %.44, %.7
  br i1 %.78.not.not, label %load.ok, label %load.end

load.ok:                                          ; preds = %if.then
  %.12 = addrspacecast ptr addrspace(1) %.6 to ptr
  %.92 = getelementptr float, ptr %.12, i64 %.44
  %.94 = load float, ptr %.92, align 4
  br label %load.end

load.end:                                         ; preds = %load.ok, %if.then
  %.96 = phi float [ %.94, %load.ok ], [ 0.000000e+00, %if.then ]
  %.97 = fmul float %.5, %.96
  %.99 = getelementptr float, ptr %.13, i64 %.44
  %.100 = load float, ptr %.99, align 4
  %.101 = fadd float %.97, %.100
  store float %.101, ptr %.99, align 4
  %.107 = mul i64 %.3, %.64
  %.108 = add i64 %.107, %.54
  %.109 = mul i64 %.108, %.2
  %.110 = add i64 %.109, %.44
  br i1 %.78.not.not, label %done.endif, label %done.if, !prof !0

done.if:                                          ; preds = %load.end
  %.117 = shl i64 %.110, 16
  %.119 = xor i64 %.117, -2
  %.120 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  %.121 = atomicrmw umax ptr addrspace(1) %.120, i64 %.119 monotonic, align 8
  %.122 = icmp ugt i64 %.119, %.121
  br i1 %.122, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %allocas, %done.if, %publish.held.endif, %load.end
  ret void

done.if.if:                                       ; preds = %done.if
  %.124 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.126 = cmpxchg ptr addrspace(1) %.124, i64 0, i64 1 acquire monotonic, align 8
  %.127 = extractvalue { i64, i1 } %.126, 1
  br i1 %.127, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.129 = atomicrmw or ptr addrspace(1) %.120, i64 0 monotonic, align 8
  %.130 = icmp eq i64 %.129, %.119
  br i1 %.130, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 1, ptr addrspace(1) %.1, align 8
  %.138 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.44, ptr addrspace(1) %.138, align 8
  %.142 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.142, align 8
  %.146 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.146, align 8
  %.150 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.150, align 8
  %.154 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.154, align 8
  %.158 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.158, align 8
  %.162 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.162, align 8
  %.166 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.166, align 8
  %.168 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %.110, ptr addrspace(1) %.168, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.172 = atomicrmw xchg ptr addrspace(1) %.124, i64 0 release, align 8
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

!0 = !{!"branch_weights", i32 99, i32 1}
