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
  %narrow21 = add nuw nsw i32 %narrow, %.44
  %.53 = zext nneg i32 %narrow21 to i64
  %.54 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.56 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.58 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow22 = mul nuw nsw i32 %.56, %.58
  %narrow23 = add nuw nsw i32 %narrow22, %.54
  %.63 = zext nneg i32 %narrow23 to i64
  %.64 = icmp ult i64 %.43, %.2
  %.66 = icmp ugt i64 %.3, %.53
  %.67 = and i1 %.64, %.66
  %.68 = icmp ugt i64 %.4, %.63
  %.69 = and i1 %.67, %.68
  br i1 %.69, label %body, label %done

body:                                             ; preds = %allocas
  %.75 = icmp slt i64 %.43, %.6
  br i1 %.75, label %if.then, label %if.end

done:                                             ; preds = %if.then.2, %if.then.2.if, %if.end.1.6, %allocas
  %errrec.sroa.13.0 = phi i64 [ %.96, %if.then.2.if ], [ %.37, %if.then.2 ], [ %.96, %if.end.1.6 ], [ 0, %allocas ]
  %errrec.sroa.0.0 = phi i64 [ %.92, %if.then.2.if ], [ 7, %if.then.2 ], [ %.92, %if.end.1.6 ], [ 0, %allocas ]
  %.219 = mul i64 %.3, %.63
  %.220 = add i64 %.219, %.53
  %.221 = mul i64 %.220, %.2
  %.222 = add i64 %.221, %.43
  %.225.not = icmp eq i64 %errrec.sroa.0.0, 0
  br i1 %.225.not, label %done.endif, label %done.if, !prof !0

if.then:                                          ; preds = %body
  %.11 = addrspacecast ptr addrspace(1) %.5 to ptr
  %.78 = getelementptr float, ptr %.11, i64 %.43
  %.79 = load float, ptr %.78, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %body
  %v.0 = phi float [ %.79, %if.then ], [ 0.000000e+00, %body ]
  %.84 = icmp samesign ugt i32 %.34, 127
  %.92 = select i1 %.84, i64 2, i64 0
  %.96 = select i1 %.84, i64 %.35, i64 0
  %.98 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.35
  br i1 %.84, label %if.end.endif, label %if.end.if, !prof !1

if.end.if:                                        ; preds = %if.end
  store float %v.0, ptr %.98, align 4
  br label %if.end.endif

if.end.endif:                                     ; preds = %if.end.if, %if.end
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.110 = icmp samesign ult i32 %.34, 64
  br i1 %.110, label %load.ok, label %if.end.1

if.end.1:                                         ; preds = %load.ok, %if.end.endif
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.110.1 = icmp samesign ult i32 %.34, 32
  br i1 %.110.1, label %load.ok.128, label %if.end.1.1

load.ok.128:                                      ; preds = %if.end.1
  %.129.1 = load float, ptr %.98, align 4
  %0 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.35
  %.149.1 = getelementptr i8, ptr %0, i64 128
  %.151.1 = load float, ptr %.149.1, align 4
  %.154.1 = fadd float %.129.1, %.151.1
  store float %.154.1, ptr %.98, align 4
  br label %if.end.1.1

if.end.1.1:                                       ; preds = %load.ok.128, %if.end.1
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.110.2 = icmp samesign ult i32 %.34, 16
  br i1 %.110.2, label %load.ok.2, label %if.end.1.2

load.ok.2:                                        ; preds = %if.end.1.1
  %.129.2 = load float, ptr %.98, align 4
  %1 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.35
  %.149.2 = getelementptr i8, ptr %1, i64 64
  %.151.2 = load float, ptr %.149.2, align 4
  %.154.2 = fadd float %.129.2, %.151.2
  store float %.154.2, ptr %.98, align 4
  br label %if.end.1.2

if.end.1.2:                                       ; preds = %load.ok.2, %if.end.1.1
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.110.3 = icmp samesign ult i32 %.34, 8
  br i1 %.110.3, label %load.ok.3, label %if.end.1.3

load.ok.3:                                        ; preds = %if.end.1.2
  %.129.3 = load float, ptr %.98, align 4
  %2 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.35
  %.149.3 = getelementptr i8, ptr %2, i64 32
  %.151.3 = load float, ptr %.149.3, align 4
  %.154.3 = fadd float %.129.3, %.151.3
  store float %.154.3, ptr %.98, align 4
  br label %if.end.1.3

if.end.1.3:                                       ; preds = %load.ok.3, %if.end.1.2
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.110.4 = icmp samesign ult i32 %.34, 4
  br i1 %.110.4, label %load.ok.4, label %if.end.1.4

load.ok.4:                                        ; preds = %if.end.1.3
  %.129.4 = load float, ptr %.98, align 4
  %3 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.35
  %.149.4 = getelementptr i8, ptr %3, i64 16
  %.151.4 = load float, ptr %.149.4, align 4
  %.154.4 = fadd float %.129.4, %.151.4
  store float %.154.4, ptr %.98, align 4
  br label %if.end.1.4

if.end.1.4:                                       ; preds = %load.ok.4, %if.end.1.3
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.110.5 = icmp samesign ult i32 %.34, 2
  br i1 %.110.5, label %load.ok.5, label %if.end.1.5

load.ok.5:                                        ; preds = %if.end.1.4
  %.129.5 = load float, ptr %.98, align 4
  %4 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.35
  %.149.5 = getelementptr i8, ptr %4, i64 8
  %.151.5 = load float, ptr %.149.5, align 4
  %.154.5 = fadd float %.129.5, %.151.5
  store float %.154.5, ptr %.98, align 4
  br label %if.end.1.5

if.end.1.5:                                       ; preds = %load.ok.5, %if.end.1.4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.110.6 = icmp eq i32 %.34, 0
  br i1 %.110.6, label %load.ok.6, label %if.end.1.6

load.ok.6:                                        ; preds = %if.end.1.5
  %.129.6 = load float, ptr %.98, align 4
  %.151.6 = load float, ptr getelementptr (i8, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 4), align 4
  %.154.6 = fadd float %.129.6, %.151.6
  store float %.154.6, ptr %.98, align 4
  br label %if.end.1.6

if.end.1.6:                                       ; preds = %load.ok.6, %if.end.1.5
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.195 = icmp eq i32 %.34, 0
  br i1 %.195, label %if.then.2, label %done

load.ok:                                          ; preds = %if.end.endif
  %.129 = load float, ptr %.98, align 4
  %5 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.35
  %.149 = getelementptr i8, ptr %5, i64 256
  %.151 = load float, ptr %.149, align 4
  %.154 = fadd float %.129, %.151
  store float %.154, ptr %.98, align 4
  br label %if.end.1

if.then.2:                                        ; preds = %if.end.1.6
  %.199.not = icmp ugt i64 %.8, %.37
  br i1 %.199.not, label %if.then.2.if, label %done, !prof !0

if.then.2.if:                                     ; preds = %if.then.2
  %.213 = getelementptr float, ptr %.12, i64 %.37
  %.198 = load float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), align 4
  store float %.198, ptr %.213, align 4
  br label %done

done.if:                                          ; preds = %done
  %.229 = shl i64 %.222, 16
  %.230 = or disjoint i64 %errrec.sroa.0.0, %.229
  %.231 = xor i64 %.230, -1
  %.232 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  %.233 = atomicrmw umax ptr addrspace(1) %.232, i64 %.231 monotonic, align 8
  %.234 = icmp ult i64 %.233, %.231
  br i1 %.234, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %done.if, %publish.held.endif, %done
  ret void

done.if.if:                                       ; preds = %done.if
  %.236 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.238 = cmpxchg ptr addrspace(1) %.236, i64 0, i64 1 acquire monotonic, align 8
  %.239 = extractvalue { i64, i1 } %.238, 1
  br i1 %.239, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.241 = atomicrmw or ptr addrspace(1) %.232, i64 0 monotonic, align 8
  %.242 = icmp eq i64 %.241, %.231
  br i1 %.242, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 %errrec.sroa.0.0, ptr addrspace(1) %.1, align 8
  %.250 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %errrec.sroa.13.0, ptr addrspace(1) %.250, align 8
  %.254 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.254, align 8
  %.258 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.258, align 8
  %.262 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.262, align 8
  %.266 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.266, align 8
  %.270 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.270, align 8
  %.274 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.274, align 8
  %.278 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.278, align 8
  %.280 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %.222, ptr addrspace(1) %.280, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.284 = atomicrmw xchg ptr addrspace(1) %.236, i64 0 release, align 8
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
