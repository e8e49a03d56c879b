; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tree_sum.tile = internal unnamed_addr addrspace(3) global [128 x float] zeroinitializer, align 16

; Function Attrs: norecurse nounwind
define ptx_kernel void @tree_sum(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, ptr addrspace(1) noalias readonly align 4 captures(none) %.5, i64 %.6, ptr addrspace(1) noalias writeonly align 4 captures(none) %.7, i64 %.8) local_unnamed_addr #0 {
allocas:
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
  %narrow26 = add nuw nsw i32 %narrow, %.60
  %.69 = zext nneg i32 %narrow26 to i64
  %.70 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.72 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.74 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow27 = mul nuw nsw i32 %.72, %.74
  %narrow28 = add nuw nsw i32 %narrow27, %.70
  %.79 = zext nneg i32 %narrow28 to i64
  %.80 = icmp ult i64 %.59, %.2
  %.82 = icmp ugt i64 %.3, %.69
  %.83 = and i1 %.80, %.82
  %.84 = icmp ugt i64 %.4, %.79
  %.85 = and i1 %.83, %.84
  br i1 %.85, label %body, label %done

body:                                             ; preds = %allocas
  %.91 = icmp slt i64 %.59, %.6
  br i1 %.91, label %if.then, label %if.end

done:                                             ; preds = %if.then.2, %if.then.2.if, %if.end.1.6, %allocas
  %errrec.sroa.39.0 = phi i64 [ %errrec.sroa.39.2, %if.then.2.if ], [ %.8, %if.then.2 ], [ %errrec.sroa.39.2, %if.end.1.6 ], [ 0, %allocas ]
  %errrec.sroa.13.0 = phi i64 [ %.112, %if.then.2.if ], [ %.53, %if.then.2 ], [ %.112, %if.end.1.6 ], [ 0, %allocas ]
  %errrec.sroa.0.0 = phi i64 [ %.108, %if.then.2.if ], [ 7, %if.then.2 ], [ %.108, %if.end.1.6 ], [ 0, %allocas ]
  %.255 = mul i64 %.3, %.79
  %.256 = add i64 %.255, %.69
  %.257 = mul i64 %.256, %.2
  %.258 = add i64 %.257, %.59
  %.261.not = icmp eq i64 %errrec.sroa.0.0, 0
  br i1 %.261.not, label %done.endif, label %done.if, !prof !0

if.then:                                          ; preds = %body
  %.11 = addrspacecast ptr addrspace(1) %.5 to ptr
  %.94 = getelementptr float, ptr %.11, i64 %.59
  %.95 = load float, ptr %.94, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %body
  %v.0 = phi float [ %.95, %if.then ], [ 0.000000e+00, %body ]
  %.100 = icmp samesign ugt i32 %.50, 127
  %.108 = select i1 %.100, i64 2, i64 0
  %.112 = select i1 %.100, i64 %.51, i64 0
  %.116 = select i1 %.100, i64 128, i64 0
  %.118 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.51
  br i1 %.100, label %if.end.endif, label %if.end.if, !prof !1

if.end.if:                                        ; preds = %if.end
  store float %v.0, ptr %.118, align 4
  br label %if.end.endif

if.end.endif:                                     ; preds = %if.end.if, %if.end
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.130 = icmp samesign ult i32 %.50, 64
  br i1 %.130, label %load.ok, label %if.end.1

if.end.1:                                         ; preds = %load.ok, %if.end.endif
  %errrec.sroa.39.2 = phi i64 [ 0, %load.ok ], [ %.116, %if.end.endif ]
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.130.1 = icmp samesign ult i32 %.50, 32
  br i1 %.130.1, label %load.ok.134, label %if.end.1.1

load.ok.134:                                      ; preds = %if.end.1
  %.153.1 = load float, ptr %.118, align 4
  %0 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.51
  %.177.1 = getelementptr i8, ptr %0, i64 128
  %.179.1 = load float, ptr %.177.1, align 4
  %.182.1 = fadd float %.153.1, %.179.1
  store float %.182.1, ptr %.118, align 4
  br label %if.end.1.1

if.end.1.1:                                       ; preds = %load.ok.134, %if.end.1
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.130.2 = icmp samesign ult i32 %.50, 16
  br i1 %.130.2, label %load.ok.2, label %if.end.1.2

load.ok.2:                                        ; preds = %if.end.1.1
  %.153.2 = load float, ptr %.118, align 4
  %1 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.51
  %.177.2 = getelementptr i8, ptr %1, i64 64
  %.179.2 = load float, ptr %.177.2, align 4
  %.182.2 = fadd float %.153.2, %.179.2
  store float %.182.2, ptr %.118, align 4
  br label %if.end.1.2

if.end.1.2:                                       ; preds = %load.ok.2, %if.end.1.1
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.130.3 = icmp samesign ult i32 %.50, 8
  br i1 %.130.3, label %load.ok.3, label %if.end.1.3

load.ok.3:                                        ; preds = %if.end.1.2
  %.153.3 = load float, ptr %.118, align 4
  %2 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.51
  %.177.3 = getelementptr i8, ptr %2, i64 32
  %.179.3 = load float, ptr %.177.3, align 4
  %.182.3 = fadd float %.153.3, %.179.3
  store float %.182.3, ptr %.118, align 4
  br label %if.end.1.3

if.end.1.3:                                       ; preds = %load.ok.3, %if.end.1.2
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.130.4 = icmp samesign ult i32 %.50, 4
  br i1 %.130.4, label %load.ok.4, label %if.end.1.4

load.ok.4:                                        ; preds = %if.end.1.3
  %.153.4 = load float, ptr %.118, align 4
  %3 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.51
  %.177.4 = getelementptr i8, ptr %3, i64 16
  %.179.4 = load float, ptr %.177.4, align 4
  %.182.4 = fadd float %.153.4, %.179.4
  store float %.182.4, ptr %.118, align 4
  br label %if.end.1.4

if.end.1.4:                                       ; preds = %load.ok.4, %if.end.1.3
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.130.5 = icmp samesign ult i32 %.50, 2
  br i1 %.130.5, label %load.ok.5, label %if.end.1.5

load.ok.5:                                        ; preds = %if.end.1.4
  %.153.5 = load float, ptr %.118, align 4
  %4 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.51
  %.177.5 = getelementptr i8, ptr %4, i64 8
  %.179.5 = load float, ptr %.177.5, align 4
  %.182.5 = fadd float %.153.5, %.179.5
  store float %.182.5, ptr %.118, align 4
  br label %if.end.1.5

if.end.1.5:                                       ; preds = %load.ok.5, %if.end.1.4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.130.6 = icmp eq i32 %.50, 0
  br i1 %.130.6, label %load.ok.6, label %if.end.1.6

load.ok.6:                                        ; preds = %if.end.1.5
  %.153.6 = load float, ptr %.118, align 4
  %.179.6 = load float, ptr getelementptr (i8, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 4), align 4
  %.182.6 = fadd float %.153.6, %.179.6
  store float %.182.6, ptr %.118, align 4
  br label %if.end.1.6

if.end.1.6:                                       ; preds = %load.ok.6, %if.end.1.5
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.227 = icmp eq i32 %.50, 0
  br i1 %.227, label %if.then.2, label %done

load.ok:                                          ; preds = %if.end.endif
  %.153 = load float, ptr %.118, align 4
  %5 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.51
  %.177 = getelementptr i8, ptr %5, i64 256
  %.179 = load float, ptr %.177, align 4
  %.182 = fadd float %.153, %.179
  store float %.182, ptr %.118, align 4
  br label %if.end.1

if.then.2:                                        ; preds = %if.end.1.6
  %.231.not = icmp ugt i64 %.8, %.53
  br i1 %.231.not, label %if.then.2.if, label %done, !prof !0

if.then.2.if:                                     ; preds = %if.then.2
  %.249 = getelementptr float, ptr %.12, i64 %.53
  %.230 = load float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), align 4
  store float %.230, ptr %.249, align 4
  br label %done

done.if:                                          ; preds = %done
  %.265 = shl i64 %.258, 16
  %.266 = or disjoint i64 %errrec.sroa.0.0, %.265
  %.267 = xor i64 %.266, -1
  %.268 = getelementptr i8, ptr addrspace(1) %.1, i64 144
  %.269 = atomicrmw umax ptr addrspace(1) %.268, i64 %.267 monotonic, align 8
  %.270 = icmp ult i64 %.269, %.267
  br i1 %.270, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %done.if, %publish.held.endif, %done
  ret void

done.if.if:                                       ; preds = %done.if
  %.272 = getelementptr i8, ptr addrspace(1) %.1, i64 152
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.274 = cmpxchg ptr addrspace(1) %.272, i64 0, i64 1 acquire monotonic, align 8
  %.275 = extractvalue { i64, i1 } %.274, 1
  br i1 %.275, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.277 = atomicrmw or ptr addrspace(1) %.268, i64 0 monotonic, align 8
  %.278 = icmp eq i64 %.277, %.267
  br i1 %.278, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 %errrec.sroa.0.0, ptr addrspace(1) %.1, align 8
  %.286 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %errrec.sroa.13.0, ptr addrspace(1) %.286, align 8
  %.290 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.290, align 8
  %.294 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.294, align 8
  %.298 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.298, align 8
  %.302 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.302, align 8
  %.306 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.306, align 8
  %.310 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.310, align 8
  %.314 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.314, align 8
  %.318 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %errrec.sroa.39.0, ptr addrspace(1) %.318, align 8
  %.322 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  store i64 0, ptr addrspace(1) %.322, align 8
  %.326 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  store i64 0, ptr addrspace(1) %.326, align 8
  %.330 = getelementptr i8, ptr addrspace(1) %.1, i64 96
  store i64 0, ptr addrspace(1) %.330, align 8
  %.334 = getelementptr i8, ptr addrspace(1) %.1, i64 104
  store i64 0, ptr addrspace(1) %.334, align 8
  %.338 = getelementptr i8, ptr addrspace(1) %.1, i64 112
  store i64 0, ptr addrspace(1) %.338, align 8
  %.342 = getelementptr i8, ptr addrspace(1) %.1, i64 120
  store i64 0, ptr addrspace(1) %.342, align 8
  %.346 = getelementptr i8, ptr addrspace(1) %.1, i64 128
  store i64 0, ptr addrspace(1) %.346, align 8
  %.348 = getelementptr i8, ptr addrspace(1) %.1, i64 136
  store i64 %.258, ptr addrspace(1) %.348, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.352 = atomicrmw xchg ptr addrspace(1) %.272, i64 0 release, align 8
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

!0 = !{!"branch_weights", i32 99, i32 1}
!1 = !{!"branch_weights", i32 1, i32 99}
