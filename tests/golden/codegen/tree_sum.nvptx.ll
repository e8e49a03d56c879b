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
  %narrow20 = add nuw nsw i32 %narrow, %.42
  %.51 = zext nneg i32 %narrow20 to i64
  %.52 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.54 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.56 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow21 = mul nuw nsw i32 %.54, %.56
  %narrow22 = add nuw nsw i32 %narrow21, %.52
  %.61 = zext nneg i32 %narrow22 to i64
  %.62 = icmp ult i64 %.41, %.2
  %.64 = icmp ugt i64 %.3, %.51
  %.65 = and i1 %.62, %.64
  %.66 = icmp ugt i64 %.4, %.61
  %.67 = and i1 %.65, %.66
  br i1 %.67, label %body, label %done

body:                                             ; preds = %allocas
  %.73 = icmp slt i64 %.41, %.6
  br i1 %.73, label %if.then, label %if.end

done:                                             ; preds = %if.then.2, %if.then.2.if, %if.end.1.6, %allocas
  %errrec.sroa.12.0 = phi i64 [ %errrec.sroa.12.2, %if.then.2.if ], [ %.35, %if.then.2 ], [ %errrec.sroa.12.2, %if.end.1.6 ], [ 0, %allocas ]
  %errrec.sroa.0.0 = phi i64 [ %errrec.sroa.0.2, %if.then.2.if ], [ 7, %if.then.2 ], [ %errrec.sroa.0.2, %if.end.1.6 ], [ 0, %allocas ]
  %.194.not = icmp eq i64 %errrec.sroa.0.0, 0
  br i1 %.194.not, label %done.endif, label %done.if, !prof !0

if.then:                                          ; preds = %body
  %.11 = addrspacecast ptr addrspace(1) %.5 to ptr
  %.76 = getelementptr float, ptr %.11, i64 %.41
  %.77 = load float, ptr %.76, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %body
  %v.0 = phi float [ %.77, %if.then ], [ 0.000000e+00, %body ]
  %.82 = icmp samesign ult i32 %.32, 128
  %.85 = select i1 %.82, i64 0, i64 2
  %.89 = select i1 %.82, i64 0, i64 %.33
  %.91 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.33
  br i1 %.82, label %if.end.if, label %if.end.endif, !prof !0

if.end.if:                                        ; preds = %if.end
  store float %v.0, ptr %.91, align 4
  br label %if.end.endif

if.end.endif:                                     ; preds = %if.end.if, %if.end
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.103 = icmp samesign ult i32 %.32, 64
  br i1 %.103, label %load.ok, label %if.end.1

if.end.1:                                         ; preds = %load.ok, %if.end.endif
  %errrec.sroa.12.2 = phi i64 [ 0, %load.ok ], [ %.89, %if.end.endif ]
  %errrec.sroa.0.2 = phi i64 [ 0, %load.ok ], [ %.85, %if.end.endif ]
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.103.1 = icmp samesign ult i32 %.32, 32
  br i1 %.103.1, label %load.ok.127, label %if.end.1.1

load.ok.127:                                      ; preds = %if.end.1
  %.117.1 = load float, ptr %.91, align 4
  %0 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.33
  %.132.1 = getelementptr i8, ptr %0, i64 128
  %.134.1 = load float, ptr %.132.1, align 4
  %.137.1 = fadd float %.117.1, %.134.1
  store float %.137.1, ptr %.91, align 4
  br label %if.end.1.1

if.end.1.1:                                       ; preds = %load.ok.127, %if.end.1
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.103.2 = icmp samesign ult i32 %.32, 16
  br i1 %.103.2, label %load.ok.2, label %if.end.1.2

load.ok.2:                                        ; preds = %if.end.1.1
  %.117.2 = load float, ptr %.91, align 4
  %1 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.33
  %.132.2 = getelementptr i8, ptr %1, i64 64
  %.134.2 = load float, ptr %.132.2, align 4
  %.137.2 = fadd float %.117.2, %.134.2
  store float %.137.2, ptr %.91, align 4
  br label %if.end.1.2

if.end.1.2:                                       ; preds = %load.ok.2, %if.end.1.1
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.103.3 = icmp samesign ult i32 %.32, 8
  br i1 %.103.3, label %load.ok.3, label %if.end.1.3

load.ok.3:                                        ; preds = %if.end.1.2
  %.117.3 = load float, ptr %.91, align 4
  %2 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.33
  %.132.3 = getelementptr i8, ptr %2, i64 32
  %.134.3 = load float, ptr %.132.3, align 4
  %.137.3 = fadd float %.117.3, %.134.3
  store float %.137.3, ptr %.91, align 4
  br label %if.end.1.3

if.end.1.3:                                       ; preds = %load.ok.3, %if.end.1.2
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.103.4 = icmp samesign ult i32 %.32, 4
  br i1 %.103.4, label %load.ok.4, label %if.end.1.4

load.ok.4:                                        ; preds = %if.end.1.3
  %.117.4 = load float, ptr %.91, align 4
  %3 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.33
  %.132.4 = getelementptr i8, ptr %3, i64 16
  %.134.4 = load float, ptr %.132.4, align 4
  %.137.4 = fadd float %.117.4, %.134.4
  store float %.137.4, ptr %.91, align 4
  br label %if.end.1.4

if.end.1.4:                                       ; preds = %load.ok.4, %if.end.1.3
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.103.5 = icmp samesign ult i32 %.32, 2
  br i1 %.103.5, label %load.ok.5, label %if.end.1.5

load.ok.5:                                        ; preds = %if.end.1.4
  %.117.5 = load float, ptr %.91, align 4
  %4 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.33
  %.132.5 = getelementptr i8, ptr %4, i64 8
  %.134.5 = load float, ptr %.132.5, align 4
  %.137.5 = fadd float %.117.5, %.134.5
  store float %.137.5, ptr %.91, align 4
  br label %if.end.1.5

if.end.1.5:                                       ; preds = %load.ok.5, %if.end.1.4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.103.6 = icmp eq i32 %.32, 0
  br i1 %.103.6, label %load.ok.6, label %if.end.1.6

load.ok.6:                                        ; preds = %if.end.1.5
  %.117.6 = load float, ptr %.91, align 4
  %.134.6 = load float, ptr getelementptr (i8, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 4), align 4
  %.137.6 = fadd float %.117.6, %.134.6
  store float %.137.6, ptr %.91, align 4
  br label %if.end.1.6

if.end.1.6:                                       ; preds = %load.ok.6, %if.end.1.5
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %.173 = icmp eq i32 %.32, 0
  br i1 %.173, label %if.then.2, label %done

load.ok:                                          ; preds = %if.end.endif
  %.117 = load float, ptr %.91, align 4
  %5 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), i64 %.33
  %.132 = getelementptr i8, ptr %5, i64 256
  %.134 = load float, ptr %.132, align 4
  %.137 = fadd float %.117, %.134
  store float %.137, ptr %.91, align 4
  br label %if.end.1

if.then.2:                                        ; preds = %if.end.1.6
  %.177 = icmp ugt i64 %.8, %.35
  br i1 %.177, label %if.then.2.if, label %done, !prof !0

if.then.2.if:                                     ; preds = %if.then.2
  %.186 = getelementptr float, ptr %.12, i64 %.35
  %.176 = load float, ptr addrspacecast (ptr addrspace(3) @tree_sum.tile to ptr), align 4
  store float %.176, ptr %.186, align 4
  br label %done

done.if:                                          ; preds = %done
  %.196 = cmpxchg ptr addrspace(1) %.1, i64 0, i64 %errrec.sroa.0.0 monotonic monotonic, align 8
  %.197 = extractvalue { i64, i1 } %.196, 1
  br i1 %.197, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %done.if, %done.if.if, %done
  ret void

done.if.if:                                       ; preds = %done.if
  %.201 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %errrec.sroa.12.0, ptr addrspace(1) %.201, align 8
  %.205 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.205, align 8
  %.209 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.209, align 8
  %.213 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.213, align 8
  %.217 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.217, align 8
  %.221 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.221, align 8
  %.225 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.225, align 8
  %.229 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.229, align 8
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
