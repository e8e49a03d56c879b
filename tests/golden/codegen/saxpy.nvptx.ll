; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nofree norecurse nounwind
define ptx_kernel void @saxpy(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, float %.5, ptr addrspace(1) noalias readonly align 4 captures(none) %.6, i64 %.7, ptr addrspace(1) noalias align 4 captures(none) %.8, i64 %.9) local_unnamed_addr #0 {
allocas:
  %.13 = addrspacecast ptr addrspace(1) %.8 to ptr
  %.51 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.52 = zext nneg i32 %.51 to i64
  %.53 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.54 = zext nneg i32 %.53 to i64
  %.55 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.56 = zext nneg i32 %.55 to i64
  %.59 = mul nuw nsw i64 %.54, %.56
  %.60 = add nuw nsw i64 %.59, %.52
  %.61 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.63 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.65 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.63, %.65
  %narrow8 = add nuw nsw i32 %narrow, %.61
  %.70 = zext nneg i32 %narrow8 to i64
  %.71 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.73 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.75 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow9 = mul nuw nsw i32 %.73, %.75
  %narrow10 = add nuw nsw i32 %narrow9, %.71
  %.80 = zext nneg i32 %narrow10 to i64
  %.81 = icmp ult i64 %.60, %.2
  %.83 = icmp ugt i64 %.3, %.70
  %.84 = and i1 %.81, %.83
  %.85 = icmp ugt i64 %.4, %.80
  %.86 = and i1 %.84, %.85
  %.90 = icmp slt i64 %.60, %.9
  %or.cond = select i1 %.86, i1 %.90, i1 false
  br i1 %or.cond, label %if.then, label %done.endif

if.then:                                          ; preds = %allocas
  %.94.not.not = icmp ult i64 %.60, %.7
  br i1 %.94.not.not, label %load.ok, label %load.end

load.ok:                                          ; preds = %if.then
  %.12 = addrspacecast ptr addrspace(1) %.6 to ptr
  %.112 = getelementptr float, ptr %.12, i64 %.60
  %.114 = load float, ptr %.112, align 4
  br label %load.end

load.end:                                         ; preds = %load.ok, %if.then
  %.116 = phi float [ %.114, %load.ok ], [ 0.000000e+00, %if.then ]
  %.117 = fmul float %.5, %.116
  %.119 = getelementptr float, ptr %.13, i64 %.60
  %.120 = load float, ptr %.119, align 4
  %.121 = fadd float %.117, %.120
  store float %.121, ptr %.119, align 4
  %.127 = mul i64 %.3, %.80
  %.128 = add i64 %.127, %.70
  %.129 = mul i64 %.128, %.2
  %.130 = add i64 %.129, %.60
  br i1 %.94.not.not, label %done.endif, label %done.if, !prof !0

done.if:                                          ; preds = %load.end
  %.137 = shl i64 %.130, 16
  %.139 = xor i64 %.137, -2
  %.140 = getelementptr i8, ptr addrspace(1) %.1, i64 144
  %.141 = atomicrmw umax ptr addrspace(1) %.140, i64 %.139 monotonic, align 8
  %.142 = icmp ugt i64 %.139, %.141
  br i1 %.142, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %allocas, %done.if, %publish.held.endif, %load.end
  ret void

done.if.if:                                       ; preds = %done.if
  %.144 = getelementptr i8, ptr addrspace(1) %.1, i64 152
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.146 = cmpxchg ptr addrspace(1) %.144, i64 0, i64 1 acquire monotonic, align 8
  %.147 = extractvalue { i64, i1 } %.146, 1
  br i1 %.147, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.149 = atomicrmw or ptr addrspace(1) %.140, i64 0 monotonic, align 8
  %.150 = icmp eq i64 %.149, %.139
  br i1 %.150, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 1, ptr addrspace(1) %.1, align 8
  %.158 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.60, ptr addrspace(1) %.158, align 8
  %.162 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.162, align 8
  %.166 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.166, align 8
  %.170 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.170, align 8
  %.174 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.174, align 8
  %.178 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.178, align 8
  %.182 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.182, align 8
  %.186 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.186, align 8
  %.190 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %.7, ptr addrspace(1) %.190, align 8
  %.194 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  store i64 0, ptr addrspace(1) %.194, align 8
  %.198 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  store i64 0, ptr addrspace(1) %.198, align 8
  %.202 = getelementptr i8, ptr addrspace(1) %.1, i64 96
  store i64 0, ptr addrspace(1) %.202, align 8
  %.206 = getelementptr i8, ptr addrspace(1) %.1, i64 104
  store i64 0, ptr addrspace(1) %.206, align 8
  %.210 = getelementptr i8, ptr addrspace(1) %.1, i64 112
  store i64 0, ptr addrspace(1) %.210, align 8
  %.214 = getelementptr i8, ptr addrspace(1) %.1, i64 120
  store i64 0, ptr addrspace(1) %.214, align 8
  %.218 = getelementptr i8, ptr addrspace(1) %.1, i64 128
  store i64 0, ptr addrspace(1) %.218, align 8
  %.220 = getelementptr i8, ptr addrspace(1) %.1, i64 136
  store i64 %.130, ptr addrspace(1) %.220, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.224 = atomicrmw xchg ptr addrspace(1) %.144, i64 0 release, align 8
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
