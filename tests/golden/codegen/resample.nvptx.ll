; gpuoff codegen golden: optimised LLVM IR for sm_80, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.fptosi.sat.i64.f32(float) #0

; Function Attrs: nofree norecurse nounwind
define ptx_kernel void @resample(ptr addrspace(1) noalias align 8 captures(none) %.1, i64 %.2, i64 %.3, i64 %.4, ptr addrspace(1) noalias readonly align 4 captures(none) %.5, i64 %.6, ptr addrspace(1) noalias readonly align 4 captures(none) %.7, i64 %.8, ptr addrspace(1) noalias writeonly align 4 captures(none) %.9, i64 %.10) local_unnamed_addr #1 {
allocas:
  %.13 = addrspacecast ptr addrspace(1) %.5 to ptr
  %.15 = addrspacecast ptr addrspace(1) %.9 to ptr
  %.36 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.37 = zext nneg i32 %.36 to i64
  %.38 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.39 = zext nneg i32 %.38 to i64
  %.40 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.41 = zext nneg i32 %.40 to i64
  %.44 = mul nuw nsw i64 %.39, %.41
  %.45 = add nuw nsw i64 %.44, %.37
  %.46 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.48 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.50 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.48, %.50
  %narrow10 = add nuw nsw i32 %narrow, %.46
  %.55 = zext nneg i32 %narrow10 to i64
  %.56 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.58 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.60 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow11 = mul nuw nsw i32 %.58, %.60
  %narrow12 = add nuw nsw i32 %narrow11, %.56
  %.65 = zext nneg i32 %narrow12 to i64
  %.66 = icmp ult i64 %.45, %.2
  %.68 = icmp ugt i64 %.3, %.55
  %.69 = and i1 %.66, %.68
  %.70 = icmp ugt i64 %.4, %.65
  %.71 = and i1 %.69, %.70
  %.75 = icmp slt i64 %.45, %.10
  %or.cond = select i1 %.71, i1 %.75, i1 false
  br i1 %or.cond, label %if.then, label %done

done:                                             ; preds = %lerp_at__A1f32cr_f32.dev.exit, %allocas
  %errrec.sroa.0.0 = phi i64 [ %.54.i, %lerp_at__A1f32cr_f32.dev.exit ], [ 0, %allocas ]
  %errrec.sroa.9.0 = phi i64 [ %.58.i, %lerp_at__A1f32cr_f32.dev.exit ], [ 0, %allocas ]
  %.139 = mul i64 %.3, %.65
  %.140 = add i64 %.139, %.55
  %.141 = mul i64 %.140, %.2
  %.142 = add i64 %.141, %.45
  %.145.not = icmp eq i64 %errrec.sroa.0.0, 0
  br i1 %.145.not, label %done.endif, label %done.if, !prof !0

if.then:                                          ; preds = %allocas
  %.78.not = icmp ult i64 %.45, %.8
  %.86 = select i1 %.78.not, i64 0, i64 3
  %.90 = select i1 %.78.not, i64 0, i64 %.45
  br i1 %.78.not, label %load.ok, label %load.end

load.ok:                                          ; preds = %if.then
  %.14 = addrspacecast ptr addrspace(1) %.7 to ptr
  %.92 = getelementptr float, ptr %.14, i64 %.45
  %.94 = load float, ptr %.92, align 4
  br label %load.end

load.end:                                         ; preds = %load.ok, %if.then
  %.96 = phi float [ %.94, %load.ok ], [ 0.000000e+00, %if.then ]
  %.13.i = tail call i64 @llvm.fptosi.sat.i64.f32(float %.96)
  %.21.i.not = icmp ult i64 %.13.i, %.6
  %.29.i = select i1 %.21.i.not, i64 %.86, i64 1
  %.33.i = select i1 %.21.i.not, i64 %.90, i64 %.13.i
  br i1 %.21.i.not, label %load.ok.i, label %load.end.i

load.ok.i:                                        ; preds = %load.end
  %.36.i = getelementptr float, ptr %.13, i64 %.13.i
  %.38.i = load float, ptr %.36.i, align 4
  br label %load.end.i

load.end.i:                                       ; preds = %load.ok.i, %load.end
  %.40.i = phi float [ %.38.i, %load.ok.i ], [ 0.000000e+00, %load.end ]
  %.45.i = add i64 %.13.i, 1
  %.46.i = icmp uge i64 %.45.i, %.6
  %0 = add nsw i64 %.29.i, -3
  %.51.i = icmp ult i64 %0, -2
  %.53.i = and i1 %.46.i, %.51.i
  %.54.i = select i1 %.53.i, i64 2, i64 %.29.i
  %.58.i = select i1 %.53.i, i64 %.45.i, i64 %.33.i
  br i1 %.46.i, label %lerp_at__A1f32cr_f32.dev.exit, label %load.ok.1.i

load.ok.1.i:                                      ; preds = %load.end.i
  %.61.i = getelementptr float, ptr %.13, i64 %.45.i
  %.63.i = load float, ptr %.61.i, align 4
  br label %lerp_at__A1f32cr_f32.dev.exit

lerp_at__A1f32cr_f32.dev.exit:                    ; preds = %load.end.i, %load.ok.1.i
  %.65.i = phi float [ %.63.i, %load.ok.1.i ], [ 0.000000e+00, %load.end.i ]
  %.17.i = sitofp i64 %.13.i to float
  %.18.i = fsub float %.96, %.17.i
  %.42.i = fsub float 1.000000e+00, %.18.i
  %.43.i = fmul float %.42.i, %.40.i
  %.67.i = fmul float %.18.i, %.65.i
  %.68.i = fadd float %.43.i, %.67.i
  %.135 = getelementptr float, ptr %.15, i64 %.45
  store float %.68.i, ptr %.135, align 4
  br label %done

done.if:                                          ; preds = %done
  %.149 = shl i64 %.142, 16
  %.150 = add nuw nsw i64 %errrec.sroa.0.0, %.149
  %.151 = xor i64 %.150, -1
  %.152 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  %.153 = atomicrmw umax ptr addrspace(1) %.152, i64 %.151 monotonic, align 8
  %.154 = icmp ult i64 %.153, %.151
  br i1 %.154, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %done.if, %publish.held.endif, %done
  ret void

done.if.if:                                       ; preds = %done.if
  %.156 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.158 = cmpxchg ptr addrspace(1) %.156, i64 0, i64 1 acquire monotonic, align 8
  %.159 = extractvalue { i64, i1 } %.158, 1
  br i1 %.159, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.161 = atomicrmw or ptr addrspace(1) %.152, i64 0 monotonic, align 8
  %.162 = icmp eq i64 %.161, %.151
  br i1 %.162, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 %errrec.sroa.0.0, ptr addrspace(1) %.1, align 8
  %.170 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %errrec.sroa.9.0, ptr addrspace(1) %.170, align 8
  %.174 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.174, align 8
  %.178 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.178, align 8
  %.182 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.182, align 8
  %.186 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.186, align 8
  %.190 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.190, align 8
  %.194 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.194, align 8
  %.198 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.198, align 8
  %.200 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %.142, ptr addrspace(1) %.200, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.204 = atomicrmw xchg ptr addrspace(1) %.156, i64 0 release, align 8
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
attributes #1 = { nofree norecurse nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!0 = !{!"branch_weights", i32 99, i32 1}
