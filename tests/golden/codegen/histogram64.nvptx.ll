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
  %.32 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.33 = zext nneg i32 %.32 to i64
  %.34 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.35 = zext nneg i32 %.34 to i64
  %.36 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.37 = zext nneg i32 %.36 to i64
  %.40 = mul nuw nsw i64 %.35, %.37
  %.41 = add nuw nsw i64 %.40, %.33
  %.42 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.44 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.46 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.44, %.46
  %narrow11 = add nuw nsw i32 %narrow, %.42
  %.51 = zext nneg i32 %narrow11 to i64
  %.52 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.54 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.56 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow12 = mul nuw nsw i32 %.54, %.56
  %narrow13 = add nuw nsw i32 %narrow12, %.52
  %.61 = zext nneg i32 %narrow13 to i64
  %.62 = icmp ult i64 %.41, %.2
  %.64 = icmp ugt i64 %.3, %.51
  %.65 = and i1 %.62, %.64
  %.66 = icmp ugt i64 %.4, %.61
  %.67 = and i1 %.65, %.66
  br i1 %.67, label %body, label %done.endif

body:                                             ; preds = %allocas
  %.71 = icmp samesign ult i32 %.32, 64
  br i1 %.71, label %if.then, label %if.end

if.then:                                          ; preds = %body
  %.74 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.33
  store i32 0, ptr %.74, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %body
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.8114 = icmp slt i64 %.41, %.6
  br i1 %.8114, label %atomic.ok, label %while.end

while.end:                                        ; preds = %atomic.ok, %if.end
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %.71, label %if.then.1, label %done.endif

atomic.ok:                                        ; preds = %if.end, %atomic.ok
  %i.015 = phi i64 [ %.106, %atomic.ok ], [ %.41, %if.end ]
  %.84 = getelementptr i8, ptr %.11, i64 %i.015
  %.85 = load i8, ptr %.84, align 1
  %.88 = and i8 %.85, 63
  %.90 = zext nneg i8 %.88 to i64
  %.100 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.90
  %.102 = atomicrmw add ptr %.100, i32 1 syncscope("device") monotonic, align 4
  %.106 = add i64 %i.015, %.2
  %.81 = icmp slt i64 %.106, %.6
  br i1 %.81, label %atomic.ok, label %while.end

if.then.1:                                        ; preds = %while.end
  %.114 = icmp ugt i64 %.8, %.33
  br i1 %.114, label %atomic.ok.1, label %done.if

atomic.ok.1:                                      ; preds = %if.then.1
  %.123 = getelementptr i32, ptr %.12, i64 %.33
  %.125 = getelementptr i32, ptr addrspacecast (ptr addrspace(3) @histogram64.local to ptr), i64 %.33
  %.126 = load i32, ptr %.125, align 4
  %.128 = atomicrmw add ptr %.123, i32 %.126 syncscope("device") monotonic, align 4
  br label %done.endif

done.if:                                          ; preds = %if.then.1
  %.137 = cmpxchg ptr addrspace(1) %.1, i64 0, i64 5 monotonic monotonic, align 8
  %.138 = extractvalue { i64, i1 } %.137, 1
  br i1 %.138, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %atomic.ok.1, %while.end, %allocas, %done.if, %done.if.if
  ret void

done.if.if:                                       ; preds = %done.if
  %.142 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %.33, ptr addrspace(1) %.142, align 8
  %.146 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.146, align 8
  %.150 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.150, align 8
  %.154 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.154, align 8
  %.158 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.158, align 8
  %.162 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.162, align 8
  %.166 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.166, align 8
  %.170 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.170, align 8
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
