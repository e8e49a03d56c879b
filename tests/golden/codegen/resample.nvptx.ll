; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.fptosi.sat.i64.f32(float) #0

; Function Attrs: mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define ptx_kernel void @resample(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, ptr addrspace(1) noalias readonly align 4 captures(none) %.5, i64 %.6, ptr addrspace(1) noalias readonly align 4 captures(none) %.7, i64 %.8, ptr addrspace(1) noalias writeonly align 4 captures(none) %.9, i64 %.10) local_unnamed_addr #1 {
allocas:
  %.13 = addrspacecast ptr addrspace(1) %.5 to ptr
  %.15 = addrspacecast ptr addrspace(1) %.9 to ptr
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
  %narrow3 = add nuw nsw i32 %narrow, %.44
  %.53 = zext nneg i32 %narrow3 to i64
  %.54 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.56 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.58 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow4 = mul nuw nsw i32 %.56, %.58
  %narrow5 = add nuw nsw i32 %narrow4, %.54
  %.63 = zext nneg i32 %narrow5 to i64
  %.64 = icmp ult i64 %.43, %.2
  %.66 = icmp ugt i64 %.3, %.53
  %.67 = and i1 %.64, %.66
  %.68 = icmp ugt i64 %.4, %.63
  %.69 = and i1 %.67, %.68
  %.73 = icmp slt i64 %.43, %.10
  %or.cond = select i1 %.69, i1 %.73, i1 false
  br i1 %or.cond, label %if.then, label %done

done:                                             ; preds = %lerp_at__A1f32cr_f32.dev.exit, %allocas
  %errrec.sroa.8.0 = phi i64 [ %.48.i, %lerp_at__A1f32cr_f32.dev.exit ], [ 0, %allocas ]
  %errrec.sroa.0.0 = phi i64 [ %.44.i, %lerp_at__A1f32cr_f32.dev.exit ], [ 0, %allocas ]
  %.98.not = icmp eq i64 %errrec.sroa.0.0, 0
  br i1 %.98.not, label %done.endif, label %done.if, !prof !0

if.then:                                          ; preds = %allocas
  %.76 = icmp ult i64 %.43, %.8
  %.79 = select i1 %.76, i64 0, i64 3
  %.83 = select i1 %.76, i64 0, i64 %.43
  br i1 %.76, label %load.ok, label %load.end

load.ok:                                          ; preds = %if.then
  %.14 = addrspacecast ptr addrspace(1) %.7 to ptr
  %.85 = getelementptr float, ptr %.14, i64 %.43
  %.87 = load float, ptr %.85, align 4
  br label %load.end

load.end:                                         ; preds = %load.ok, %if.then
  %.89 = phi float [ %.87, %load.ok ], [ 0.000000e+00, %if.then ]
  %.13.i = tail call i64 @llvm.fptosi.sat.i64.f32(float %.89)
  %.21.i = icmp ult i64 %.13.i, %.6
  %.24.i = select i1 %.21.i, i64 %.79, i64 1
  %.28.i = select i1 %.21.i, i64 %.83, i64 %.13.i
  br i1 %.21.i, label %load.ok.i, label %load.end.i

load.ok.i:                                        ; preds = %load.end
  %.31.i = getelementptr float, ptr %.13, i64 %.13.i
  %.33.i = load float, ptr %.31.i, align 4
  br label %load.end.i

load.end.i:                                       ; preds = %load.ok.i, %load.end
  %.35.i = phi float [ %.33.i, %load.ok.i ], [ 0.000000e+00, %load.end ]
  %.40.i = add i64 %.13.i, 1
  %.41.i = icmp ult i64 %.40.i, %.6
  %.44.i = select i1 %.41.i, i64 %.24.i, i64 2
  %.48.i = select i1 %.41.i, i64 %.28.i, i64 %.40.i
  br i1 %.41.i, label %load.ok.1.i, label %lerp_at__A1f32cr_f32.dev.exit

load.ok.1.i:                                      ; preds = %load.end.i
  %.51.i = getelementptr float, ptr %.13, i64 %.40.i
  %.53.i = load float, ptr %.51.i, align 4
  br label %lerp_at__A1f32cr_f32.dev.exit

lerp_at__A1f32cr_f32.dev.exit:                    ; preds = %load.end.i, %load.ok.1.i
  %.55.i = phi float [ %.53.i, %load.ok.1.i ], [ 0.000000e+00, %load.end.i ]
  %.17.i = sitofp i64 %.13.i to float
  %.18.i = fsub float %.89, %.17.i
  %.37.i = fsub float 1.000000e+00, %.18.i
  %.38.i = fmul float %.37.i, %.35.i
  %.57.i = fmul float %.18.i, %.55.i
  %.58.i = fadd float %.38.i, %.57.i
  %.92 = getelementptr float, ptr %.15, i64 %.43
  store float %.58.i, ptr %.92, align 4
  br label %done

done.if:                                          ; preds = %done
  %.100 = cmpxchg ptr addrspace(1) %.1, i64 0, i64 %errrec.sroa.0.0 monotonic monotonic, align 8
  %.101 = extractvalue { i64, i1 } %.100, 1
  br i1 %.101, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %done.if, %done.if.if, %done
  ret void

done.if.if:                                       ; preds = %done.if
  %.105 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %errrec.sroa.8.0, ptr addrspace(1) %.105, align 8
  %.109 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.109, align 8
  %.113 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.113, align 8
  %.117 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.117, align 8
  %.121 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.121, align 8
  %.125 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.125, align 8
  %.129 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.129, align 8
  %.133 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.133, align 8
  br label %done.endif
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 64) i32 @llvm.nvvm.read.ptx.sreg.tid.z() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.z() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 65) i32 @llvm.nvvm.read.ptx.sreg.ntid.z() #2

attributes #0 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!0 = !{!"branch_weights", i32 99, i32 1}
