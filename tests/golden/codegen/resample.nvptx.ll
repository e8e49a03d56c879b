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
  %.52 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %.53 = zext nneg i32 %.52 to i64
  %.54 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %.55 = zext nneg i32 %.54 to i64
  %.56 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %.57 = zext nneg i32 %.56 to i64
  %.60 = mul nuw nsw i64 %.55, %.57
  %.61 = add nuw nsw i64 %.60, %.53
  %.62 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %.64 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %.66 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %narrow = mul nuw nsw i32 %.64, %.66
  %narrow13 = add nuw nsw i32 %narrow, %.62
  %.71 = zext nneg i32 %narrow13 to i64
  %.72 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %.74 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %.76 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %narrow14 = mul nuw nsw i32 %.74, %.76
  %narrow15 = add nuw nsw i32 %narrow14, %.72
  %.81 = zext nneg i32 %narrow15 to i64
  %.82 = icmp ult i64 %.61, %.2
  %.84 = icmp ugt i64 %.3, %.71
  %.85 = and i1 %.82, %.84
  %.86 = icmp ugt i64 %.4, %.81
  %.87 = and i1 %.85, %.86
  %.91 = icmp slt i64 %.61, %.10
  %or.cond = select i1 %.87, i1 %.91, i1 false
  br i1 %or.cond, label %if.then, label %done

done:                                             ; preds = %lerp_at__A1f32cr_f32.dev.exit, %allocas
  %errrec.sroa.0.0 = phi i64 [ %.58.i, %lerp_at__A1f32cr_f32.dev.exit ], [ 0, %allocas ]
  %errrec.sroa.9.0 = phi i64 [ %.62.i, %lerp_at__A1f32cr_f32.dev.exit ], [ 0, %allocas ]
  %errrec.sroa.31.0 = phi i64 [ %.66.i, %lerp_at__A1f32cr_f32.dev.exit ], [ 0, %allocas ]
  %.159 = mul i64 %.3, %.81
  %.160 = add i64 %.159, %.71
  %.161 = mul i64 %.160, %.2
  %.162 = add i64 %.161, %.61
  %.165.not = icmp eq i64 %errrec.sroa.0.0, 0
  br i1 %.165.not, label %done.endif, label %done.if, !prof !0

if.then:                                          ; preds = %allocas
  %.94.not = icmp ult i64 %.61, %.8
  %.102 = select i1 %.94.not, i64 0, i64 3
  %.106 = select i1 %.94.not, i64 0, i64 %.61
  %.110 = select i1 %.94.not, i64 0, i64 %.8
  br i1 %.94.not, label %load.ok, label %load.end

load.ok:                                          ; preds = %if.then
  %.14 = addrspacecast ptr addrspace(1) %.7 to ptr
  %.112 = getelementptr float, ptr %.14, i64 %.61
  %.114 = load float, ptr %.112, align 4
  br label %load.end

load.end:                                         ; preds = %load.ok, %if.then
  %.116 = phi float [ %.114, %load.ok ], [ 0.000000e+00, %if.then ]
  %.13.i = tail call i64 @llvm.fptosi.sat.i64.f32(float %.116)
  %.21.i.not = icmp ult i64 %.13.i, %.6
  %.29.i = select i1 %.21.i.not, i64 %.102, i64 1
  %.33.i = select i1 %.21.i.not, i64 %.106, i64 %.13.i
  %.37.i = select i1 %.21.i.not, i64 %.110, i64 %.6
  br i1 %.21.i.not, label %load.ok.i, label %load.end.i

load.ok.i:                                        ; preds = %load.end
  %.40.i = getelementptr float, ptr %.13, i64 %.13.i
  %.42.i = load float, ptr %.40.i, align 4
  br label %load.end.i

load.end.i:                                       ; preds = %load.ok.i, %load.end
  %.44.i = phi float [ %.42.i, %load.ok.i ], [ 0.000000e+00, %load.end ]
  %.49.i = add i64 %.13.i, 1
  %.50.i = icmp uge i64 %.49.i, %.6
  %0 = add nsw i64 %.29.i, -3
  %.55.i = icmp ult i64 %0, -2
  %.57.i = and i1 %.50.i, %.55.i
  %.58.i = select i1 %.57.i, i64 2, i64 %.29.i
  %.62.i = select i1 %.57.i, i64 %.49.i, i64 %.33.i
  %.66.i = select i1 %.57.i, i64 %.6, i64 %.37.i
  br i1 %.50.i, label %lerp_at__A1f32cr_f32.dev.exit, label %load.ok.1.i

load.ok.1.i:                                      ; preds = %load.end.i
  %.69.i = getelementptr float, ptr %.13, i64 %.49.i
  %.71.i = load float, ptr %.69.i, align 4
  br label %lerp_at__A1f32cr_f32.dev.exit

lerp_at__A1f32cr_f32.dev.exit:                    ; preds = %load.end.i, %load.ok.1.i
  %.73.i = phi float [ %.71.i, %load.ok.1.i ], [ 0.000000e+00, %load.end.i ]
  %.17.i = sitofp i64 %.13.i to float
  %.18.i = fsub float %.116, %.17.i
  %.46.i = fsub float 1.000000e+00, %.18.i
  %.47.i = fmul float %.46.i, %.44.i
  %.75.i = fmul float %.18.i, %.73.i
  %.76.i = fadd float %.47.i, %.75.i
  %.155 = getelementptr float, ptr %.15, i64 %.61
  store float %.76.i, ptr %.155, align 4
  br label %done

done.if:                                          ; preds = %done
  %.169 = shl i64 %.162, 16
  %.170 = add nuw nsw i64 %errrec.sroa.0.0, %.169
  %.171 = xor i64 %.170, -1
  %.172 = getelementptr i8, ptr addrspace(1) %.1, i64 144
  %.173 = atomicrmw umax ptr addrspace(1) %.172, i64 %.171 monotonic, align 8
  %.174 = icmp ult i64 %.173, %.171
  br i1 %.174, label %done.if.if, label %done.endif

done.endif:                                       ; preds = %done.if, %publish.held.endif, %done
  ret void

done.if.if:                                       ; preds = %done.if
  %.176 = getelementptr i8, ptr addrspace(1) %.1, i64 152
  br label %publish.try

publish.try:                                      ; preds = %publish.try, %done.if.if
  %.178 = cmpxchg ptr addrspace(1) %.176, i64 0, i64 1 acquire monotonic, align 8
  %.179 = extractvalue { i64, i1 } %.178, 1
  br i1 %.179, label %publish.held, label %publish.try

publish.held:                                     ; preds = %publish.try
  %.181 = atomicrmw or ptr addrspace(1) %.172, i64 0 monotonic, align 8
  %.182 = icmp eq i64 %.181, %.171
  br i1 %.182, label %publish.held.if, label %publish.held.endif

publish.held.if:                                  ; preds = %publish.held
  store i64 %errrec.sroa.0.0, ptr addrspace(1) %.1, align 8
  %.190 = getelementptr i8, ptr addrspace(1) %.1, i64 8
  store i64 %errrec.sroa.9.0, ptr addrspace(1) %.190, align 8
  %.194 = getelementptr i8, ptr addrspace(1) %.1, i64 16
  store i64 0, ptr addrspace(1) %.194, align 8
  %.198 = getelementptr i8, ptr addrspace(1) %.1, i64 24
  store i64 0, ptr addrspace(1) %.198, align 8
  %.202 = getelementptr i8, ptr addrspace(1) %.1, i64 32
  store i64 0, ptr addrspace(1) %.202, align 8
  %.206 = getelementptr i8, ptr addrspace(1) %.1, i64 40
  store i64 0, ptr addrspace(1) %.206, align 8
  %.210 = getelementptr i8, ptr addrspace(1) %.1, i64 48
  store i64 0, ptr addrspace(1) %.210, align 8
  %.214 = getelementptr i8, ptr addrspace(1) %.1, i64 56
  store i64 0, ptr addrspace(1) %.214, align 8
  %.218 = getelementptr i8, ptr addrspace(1) %.1, i64 64
  store i64 0, ptr addrspace(1) %.218, align 8
  %.222 = getelementptr i8, ptr addrspace(1) %.1, i64 72
  store i64 %errrec.sroa.31.0, ptr addrspace(1) %.222, align 8
  %.226 = getelementptr i8, ptr addrspace(1) %.1, i64 80
  store i64 0, ptr addrspace(1) %.226, align 8
  %.230 = getelementptr i8, ptr addrspace(1) %.1, i64 88
  store i64 0, ptr addrspace(1) %.230, align 8
  %.234 = getelementptr i8, ptr addrspace(1) %.1, i64 96
  store i64 0, ptr addrspace(1) %.234, align 8
  %.238 = getelementptr i8, ptr addrspace(1) %.1, i64 104
  store i64 0, ptr addrspace(1) %.238, align 8
  %.242 = getelementptr i8, ptr addrspace(1) %.1, i64 112
  store i64 0, ptr addrspace(1) %.242, align 8
  %.246 = getelementptr i8, ptr addrspace(1) %.1, i64 120
  store i64 0, ptr addrspace(1) %.246, align 8
  %.250 = getelementptr i8, ptr addrspace(1) %.1, i64 128
  store i64 0, ptr addrspace(1) %.250, align 8
  %.252 = getelementptr i8, ptr addrspace(1) %.1, i64 136
  store i64 %.162, ptr addrspace(1) %.252, align 8
  br label %publish.held.endif

publish.held.endif:                               ; preds = %publish.held.if, %publish.held
  fence release
  %.256 = atomicrmw xchg ptr addrspace(1) %.176, i64 0 release, align 8
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
