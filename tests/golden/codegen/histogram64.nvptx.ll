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
  %.50 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.51 = zext nneg i32 %.50 to i64
  %.52 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.53 = zext nneg i32 %.52 to i64
  %.54 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.55 = zext nneg i32 %.54 to i64
  %.58 = mul nuw nsw i64 %.53, %.55
  %.59 = add nuw nsw i64 %.58, %.51
  %.60 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.62 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.64 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.62, %.64
  %narrow14 = add nuw nsw i32 %narrow, %.60
  %.69 = zext nneg i32 %narrow14 to i64
  %.70 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.72 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.74 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow15 = mul nuw nsw i32 %.72, %.74
  %narrow16 = add nuw nsw i32 %narrow15, %.70
  %.79 = zext nneg i32 %narrow16 to i64
  %.80 = icmp ult i64 %.59, %.2
  %.82 = icmp ugt i64 %.3, %.69
  %.83 = and i1 %.80, %.82
  %.84 = icmp ugt i64 %.4, %.79
  %.85 = and i1 %.83, %.84
  br i1 %.85, label %body, label %done.endif

body:                                             ; preds = %allocas
  %.89 = icmp samesign ult i32 %.50, 64
  br i1 %.89, label %if.then, label %if.end

done:                                             ; preds = %if.then.1
  %.169 = mul i64 %.3, %.79
  %.170 = add i64 %.169, %.69
  %.171 = mul i64 %.170, %.2
  %.172 = add i64 %.171, %.59
  %.179 = shl i64 %.172, 16
  %.181 = xor i64 %.179, -6
  %.182 = getelementptr i8, ptr addrspace(1) %.1, i64 144
  %.183 = atomicrmw umax ptr addrspace(1) %.182, i64 %.181 monotonic, align 8
  %.184 = icmp ult i64 %.183, %.181
  br i1 %.184, label %done.if.if, label %done.endif

if.then:                                          ; preds = %body
  %.92 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.51
  store i32 0, ptr %.92, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %body
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.9917 = icmp slt i64 %.59, %.6
  br i1 %.9917, label %atomic.ok, label %while.end

while.end:                                        ; preds = %atomic.ok, %if.end
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %.89, label %if.then.1, label %done.endif

atomic.ok:                                        ; preds = %if.end, %atomic.ok
  %i.018 = phi i64 [ %.133, %atomic.ok ], [ %.59, %if.end ]
  %.102 = getelementptr i8, ptr %.11, i64 %i.018
  %.103 = load i8, ptr %.102, align 1
  %.106 = and i8 %.103, 63
  %.108 = zext nneg i8 %.106 to i64
  %.127 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.108
  %.129 = atomicrmw add ptr %.127, i32 1 syncscope("device") monotonic, align 4
  %.133 = add i64 %i.018, %.2
  %.99 = icmp slt i64 %.133, %.6
  br i1 %.99, label %atomic.ok, label %while.end

if.then.1:                                        ; preds = %while.end
  %.141.not = icmp ugt i64 %.8, %.51
  br i1 %.141.not, label %atomic.ok.1, label %done

atomic.ok.1:                                      ; preds = %if.then.1
  %.159 = getelementptr i32, ptr %.12, i64 %.51
  %.161 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.51
  %.162 = load i32, ptr %.161, align 4
  %.164 = atomicrmw add ptr %.159, i32 %.162 syncscope("device") monotonic, align 4
  br label %done.endif

done.endif:                                       ; preds = %atomic.ok.1, %while.end, %allocas, %done, %publish.held.endif
  ret void

done.if.if:                                       ; preds = %done
  %.186 = getelementptr i8, ptr addrspace(1) %.1, i64 152
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.188 = cmpxchg ptr addrspace(1) %.186, i64 0, i64 1 acquire monotonic, align 8
  %.189 = extractvalue { i64, i1 } %.188, 1
  br i1 %.189, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.191 = atomicrmw or ptr addrspace(1) %.182, i64 0 monotonic, align 8
  %.192 = icmp eq i64 %.191, %.181
  br i1 %.192, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 5, ptr addrspace(1) %.1, align 8
  %.200 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.51, ptr addrspace(1) %.200, align 8
  %.204 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.204, align 8
  %.208 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.208, align 8
  %.212 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.212, align 8
  %.216 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.216, align 8
  %.220 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.220, align 8
  %.224 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.224, align 8
  %.228 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.228, align 8
  %.232 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %.8, ptr addrspace(1) %.232, align 8
  %.236 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  store i64 0, ptr addrspace(1) %.236, align 8
  %.240 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  store i64 0, ptr addrspace(1) %.240, align 8
  %.244 = getelementptr i8, ptr addrspace(1) %.1, i64 96
  store i64 0, ptr addrspace(1) %.244, align 8
  %.248 = getelementptr i8, ptr addrspace(1) %.1, i64 104
  store i64 0, ptr addrspace(1) %.248, align 8
  %.252 = getelementptr i8, ptr addrspace(1) %.1, i64 112
  store i64 0, ptr addrspace(1) %.252, align 8
  %.256 = getelementptr i8, ptr addrspace(1) %.1, i64 120
  store i64 0, ptr addrspace(1) %.256, align 8
  %.260 = getelementptr i8, ptr addrspace(1) %.1, i64 128
  store i64 0, ptr addrspace(1) %.260, align 8
  %.262 = getelementptr i8, ptr addrspace(1) %.1, i64 136
  store i64 %.172, ptr addrspace(1) %.262, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.266 = atomicrmw xchg ptr addrspace(1) %.186, i64 0 release, align 8
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
