; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@histogram64.local = internal addrspace(3) global [64 x i32] zeroinitializer, align 16

; Function Attrs: norecurse nounwind
define ptx_kernel void @histogram64(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, ptr addrspace(1) noalias readonly align 1 captures(none) %.5, i64 %.6, ptr addrspace(1) noalias align 4 captures(none) %.7, i64 %.8) local_unnamed_addr #0 {
allocas:
  %.11 = addrspacecast ptr addrspace(1) %.5 to ptr
  %.12 = addrspacecast ptr addrspace(1) %.7 to ptr
  %.34 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.35 = zext nneg i32 %.34 to i64
  %.36 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.37 = zext nneg i32 %.36 to i64
  %.38 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.39 = zext nneg i32 %.38 to i64
  %.42 = mul nuw nsw i64 %.37, %.39
  %.43 = add nuw nsw i64 %.42, %.35
  %.44 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.46 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.48 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.46, %.48
  %narrow12 = add nuw nsw i32 %narrow, %.44
  %.53 = zext nneg i32 %narrow12 to i64
  %.54 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.56 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.58 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow13 = mul nuw nsw i32 %.56, %.58
  %narrow14 = add nuw nsw i32 %narrow13, %.54
  %.63 = zext nneg i32 %narrow14 to i64
  %.64 = icmp ult i64 %.43, %.2
  %.66 = icmp ugt i64 %.3, %.53
  %.67 = and i1 %.64, %.66
  %.68 = icmp ugt i64 %.4, %.63
  %.69 = and i1 %.67, %.68
  br i1 %.69, label %body, label %done.endif

body:                                             ; preds = %allocas
  %.73 = icmp samesign ult i32 %.34, 64
  br i1 %.73, label %if.then, label %if.end

done:                                             ; preds = %if.then.1
  %.145 = mul i64 %.3, %.63
  %.146 = add i64 %.145, %.53
  %.147 = mul i64 %.146, %.2
  %.148 = add i64 %.147, %.43
  %.155 = shl i64 %.148, 16
  %.157 = xor i64 %.155, -6
  %.158 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  %.159 = atomicrmw umax ptr addrspace(1) %.158, i64 %.157 monotonic, align 8
  %.160 = icmp ult i64 %.159, %.157
  br i1 %.160, label %done.if.if, label %done.endif

if.then:                                          ; preds = %body
  %.76 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.35
  store i32 0, ptr %.76, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %body
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.8315 = icmp slt i64 %.43, %.6
  br i1 %.8315, label %atomic.ok, label %while.end

while.end:                                        ; preds = %atomic.ok, %if.end
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %.73, label %if.then.1, label %done.endif

atomic.ok:                                        ; preds = %if.end, %atomic.ok
  %i.016 = phi i64 [ %.113, %atomic.ok ], [ %.43, %if.end ]
  %.86 = getelementptr i8, ptr %.11, i64 %i.016
  %.87 = load i8, ptr %.86, align 1
  %.90 = and i8 %.87, 63
  %.92 = zext nneg i8 %.90 to i64
  %.107 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.92
  %.109 = atomicrmw add ptr %.107, i32 1 monotonic, align 4
  %.113 = add i64 %i.016, %.2
  %.83 = icmp slt i64 %.113, %.6
  br i1 %.83, label %atomic.ok, label %while.end

if.then.1:                                        ; preds = %while.end
  %.124.not = icmp ugt i64 %.8, %.35
  br i1 %.124.not, label %atomic.ok.1, label %done

atomic.ok.1:                                      ; preds = %if.then.1
  %.121 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.35
  %.138 = getelementptr i32, ptr %.12, i64 %.35
  %.122 = load i32, ptr %.121, align 4
  %.140 = atomicrmw add ptr %.138, i32 %.122 monotonic, align 4
  br label %done.endif

done.endif:                                       ; preds = %atomic.ok.1, %while.end, %allocas, %done, %publish.held.endif
  ret void

done.if.if:                                       ; preds = %done
  %.162 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.164 = cmpxchg ptr addrspace(1) %.162, i64 0, i64 1 acquire monotonic, align 8
  %.165 = extractvalue { i64, i1 } %.164, 1
  br i1 %.165, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.167 = atomicrmw or ptr addrspace(1) %.158, i64 0 monotonic, align 8
  %.168 = icmp eq i64 %.167, %.157
  br i1 %.168, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 5, ptr addrspace(1) %.1, align 8
  %.176 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.35, ptr addrspace(1) %.176, align 8
  %.180 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.180, align 8
  %.184 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.184, align 8
  %.188 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.188, align 8
  %.192 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.192, align 8
  %.196 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.196, align 8
  %.200 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.200, align 8
  %.204 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.204, align 8
  %.206 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %.148, ptr addrspace(1) %.206, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.210 = atomicrmw xchg ptr addrspace(1) %.162, i64 0 release, align 8
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

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

attributes #0 = { norecurse nounwind }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
