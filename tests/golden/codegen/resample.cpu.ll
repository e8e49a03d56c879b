; gpuoff codegen golden: optimised LLVM IR for x86-64-v3, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.fptosi.sat.i64.f32(float) #0

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define internal fastcc void @resample.groups(i64 %.1, i64 %.2, i64 %.3, i64 %.4, i64 %.5, i64 %.6, i64 %.7, i64 %.8, ptr noalias readonly align 4 captures(none) %.10, i64 %.11, ptr noalias readonly align 4 captures(none) %.12, i64 %.13, ptr noalias writeonly align 4 captures(none) %.14, i64 %.15, i64 %.16, i64 %.17, ptr noalias nonnull captures(none) %.18) unnamed_addr #1 {
allocas:
  %.24107 = icmp slt i64 %.16, %.17
  br i1 %.24107, label %group.body.lr.ph, label %group.end

group.body.lr.ph:                                 ; preds = %allocas
  %.115 = getelementptr i8, ptr %.18, i64 136
  %.126 = getelementptr i8, ptr %.18, i64 8
  %.128 = getelementptr i8, ptr %.18, i64 72
  br label %group.body

group.body:                                       ; preds = %group.body.lr.ph, %wi2.end
  %group108 = phi i64 [ %.16, %group.body.lr.ph ], [ %.190, %wi2.end ]
  %.26 = urem i64 %group108, %.7
  %.27 = udiv i64 %group108, %.7
  %.28 = urem i64 %.27, %.8
  %.29 = udiv i64 %.27, %.8
  %.30 = mul nsw i64 %.26, %.4
  %.31 = mul nsw i64 %.28, %.5
  %.32 = mul nsw i64 %.29, %.6
  %.33 = add nsw i64 %.30, %.4
  %.35 = tail call i64 @llvm.smin.i64(i64 %.33, i64 %.1)
  %.36 = add nsw i64 %.31, %.5
  %.38 = tail call i64 @llvm.smin.i64(i64 %.36, i64 %.2)
  %.39 = add nsw i64 %.32, %.6
  %.41 = tail call i64 @llvm.smin.i64(i64 %.39, i64 %.3)
  %.4393 = icmp slt i64 %.32, %.41
  %.4641 = icmp slt i64 %.31, %.38
  %or.cond = select i1 %.4393, i1 %.4641, i1 false
  br i1 %or.cond, label %wi1.head.preheader.lr.ph.split.us, label %wi2.end

wi1.head.preheader.lr.ph.split.us:                ; preds = %group.body
  %.5036 = icmp slt i64 %.30, %.35
  %.9039.fr = freeze i1 %.5036
  br i1 %.9039.fr, label %wi1.head.preheader.us.us, label %wi2.end

wi1.head.preheader.us.us:                         ; preds = %wi1.head.preheader.lr.ph.split.us, %wi1.head.wi1.end_crit_edge.split.us.us.us
  %wi294.us.us = phi i64 [ %.187.us.us, %wi1.head.wi1.end_crit_edge.split.us.us.us ], [ %.32, %wi1.head.preheader.lr.ph.split.us ]
  %.110.us.us = mul i64 %wi294.us.us, %.2
  br label %wi0.body.us.us.us.preheader

wi0.body.us.us.us.preheader:                      ; preds = %wi1.head.preheader.us.us, %wi0.end.endif.us.us.us
  %wi142.us.us.us = phi i64 [ %.31, %wi1.head.preheader.us.us ], [ %.184.us.us.us, %wi0.end.endif.us.us.us ]
  br label %wi0.body.us.us.us

wi0.end.us.us.us:                                 ; preds = %if.end.us.us.us
  %0 = icmp eq i32 %row.bad.1.us.us.us, 0
  br i1 %0, label %wi0.end.endif.us.us.us, label %wi0.head.1.preheader.us.us.us, !prof !0

wi0.body.1.us.us.us:                              ; preds = %wi0.head.1.preheader.us.us.us, %if.end.1.us.us.us
  %wi0.140.us.us.us = phi i64 [ %.30, %wi0.head.1.preheader.us.us.us ], [ %.180.us.us.us, %if.end.1.us.us.us ]
  %.104.us.us.us = icmp slt i64 %wi0.140.us.us.us, %.15
  br i1 %.104.us.us.us, label %if.then.1.us.us.us, label %if.end.1.us.us.us

if.then.1.us.us.us:                               ; preds = %wi0.body.1.us.us.us
  %.107.not.us.us.us = icmp ult i64 %wi0.140.us.us.us, %.13
  br i1 %.107.not.us.us.us, label %load.ok.1.us.us.us, label %if.then.1.if.us.us.us, !prof !0

if.then.1.if.us.us.us:                            ; preds = %if.then.1.us.us.us
  %.113.us.us.us = add i64 %wi0.140.us.us.us, %.112.us.us.us
  %.114.us.us.us = load i64, ptr %.18, align 8
  %.116.us.us.us = load i64, ptr %.115, align 8
  %.117.us.us.us = icmp eq i64 %.114.us.us.us, 0
  %.118.us.us.us = icmp ult i64 %.113.us.us.us, %.116.us.us.us
  %.119.us.us.us = icmp eq i64 %.113.us.us.us, %.116.us.us.us
  %.120.us.us.us = icmp ugt i64 %.114.us.us.us, 3
  %.121.us.us.us = and i1 %.120.us.us.us, %.119.us.us.us
  %.122.us.us.us = or i1 %.118.us.us.us, %.121.us.us.us
  %.123.us.us.us = or i1 %.117.us.us.us, %.122.us.us.us
  br i1 %.123.us.us.us, label %if.then.1.if.if.us.us.us, label %load.end.1.us.us.us

if.then.1.if.if.us.us.us:                         ; preds = %if.then.1.if.us.us.us
  store i64 3, ptr %.18, align 8
  store i64 %wi0.140.us.us.us, ptr %.126, align 8
  store i64 %.13, ptr %.128, align 8
  store i64 %.113.us.us.us, ptr %.115, align 8
  br label %load.end.1.us.us.us

load.ok.1.us.us.us:                               ; preds = %if.then.1.us.us.us
  %.134.us.us.us = getelementptr float, ptr %.12, i64 %wi0.140.us.us.us
  %.136.us.us.us = load float, ptr %.134.us.us.us, align 4
  %1 = tail call i64 @llvm.fptosi.sat.i64.f32(float %.136.us.us.us)
  br label %load.end.1.us.us.us

load.end.1.us.us.us:                              ; preds = %load.ok.1.us.us.us, %if.then.1.if.if.us.us.us, %if.then.1.if.us.us.us
  %.138.us.us.us = phi i64 [ %1, %load.ok.1.us.us.us ], [ 0, %if.then.1.if.us.us.us ], [ 0, %if.then.1.if.if.us.us.us ]
  %.21.i.not.us.us.us = icmp ult i64 %.138.us.us.us, %.11
  br i1 %.21.i.not.us.us.us, label %load.end.i.us.us.us, label %entry.else.if.i.us.us.us, !prof !0

entry.else.if.i.us.us.us:                         ; preds = %load.end.1.us.us.us
  %.45.i.us.us.us = add i64 %wi0.140.us.us.us, %.112.us.us.us
  %.46.i.us.us.us = load i64, ptr %.18, align 8
  %.48.i.us.us.us = load i64, ptr %.115, align 8
  %.49.i.us.us.us = icmp eq i64 %.46.i.us.us.us, 0
  %.50.i.us.us.us = icmp ult i64 %.45.i.us.us.us, %.48.i.us.us.us
  %.51.i.us.us.us = icmp eq i64 %.45.i.us.us.us, %.48.i.us.us.us
  %.52.i.us.us.us = icmp ugt i64 %.46.i.us.us.us, 1
  %.53.i.us.us.us = and i1 %.52.i.us.us.us, %.51.i.us.us.us
  %.54.i.us.us.us = or i1 %.50.i.us.us.us, %.53.i.us.us.us
  %.55.i.us.us.us = or i1 %.49.i.us.us.us, %.54.i.us.us.us
  br i1 %.55.i.us.us.us, label %entry.else.if.if.i.us.us.us, label %load.end.i.us.us.us

entry.else.if.if.i.us.us.us:                      ; preds = %entry.else.if.i.us.us.us
  store i64 1, ptr %.18, align 8
  store i64 %.138.us.us.us, ptr %.126, align 8
  store i64 %.11, ptr %.128, align 8
  store i64 %.45.i.us.us.us, ptr %.115, align 8
  br label %load.end.i.us.us.us

load.end.i.us.us.us:                              ; preds = %entry.else.if.if.i.us.us.us, %entry.else.if.i.us.us.us, %load.end.1.us.us.us
  %.77.i.us.us.us = add i64 %.138.us.us.us, 1
  %.78.i.not.us.us.us = icmp ult i64 %.77.i.us.us.us, %.11
  br i1 %.78.i.not.us.us.us, label %if.end.1.us.us.us, label %load.end.else.if.i.us.us.us, !prof !0

load.end.else.if.i.us.us.us:                      ; preds = %load.end.i.us.us.us
  %.102.i.us.us.us = add i64 %wi0.140.us.us.us, %.112.us.us.us
  %.103.i.us.us.us = load i64, ptr %.18, align 8
  %.105.i.us.us.us = load i64, ptr %.115, align 8
  %.106.i.us.us.us = icmp eq i64 %.103.i.us.us.us, 0
  %.107.i.us.us.us = icmp ult i64 %.102.i.us.us.us, %.105.i.us.us.us
  %.108.i.us.us.us = icmp eq i64 %.102.i.us.us.us, %.105.i.us.us.us
  %.109.i.us.us.us = icmp ugt i64 %.103.i.us.us.us, 2
  %.110.i.us.us.us = and i1 %.109.i.us.us.us, %.108.i.us.us.us
  %.111.i.us.us.us = or i1 %.107.i.us.us.us, %.110.i.us.us.us
  %.112.i.us.us.us = or i1 %.106.i.us.us.us, %.111.i.us.us.us
  br i1 %.112.i.us.us.us, label %load.end.else.if.if.i.us.us.us, label %if.end.1.us.us.us

load.end.else.if.if.i.us.us.us:                   ; preds = %load.end.else.if.i.us.us.us
  store i64 2, ptr %.18, align 8
  store i64 %.77.i.us.us.us, ptr %.126, align 8
  store i64 %.11, ptr %.128, align 8
  store i64 %.102.i.us.us.us, ptr %.115, align 8
  br label %if.end.1.us.us.us

if.end.1.us.us.us:                                ; preds = %load.end.else.if.if.i.us.us.us, %load.end.else.if.i.us.us.us, %load.end.i.us.us.us, %wi0.body.1.us.us.us
  %.180.us.us.us = add nsw i64 %wi0.140.us.us.us, 1
  %.90.us.us.us = icmp slt i64 %.180.us.us.us, %.35
  br i1 %.90.us.us.us, label %wi0.body.1.us.us.us, label %wi0.end.endif.us.us.us

wi0.end.endif.us.us.us:                           ; preds = %if.end.1.us.us.us, %wi0.end.us.us.us
  %.184.us.us.us = add nsw i64 %wi142.us.us.us, 1
  %.46.us.us.us = icmp slt i64 %.184.us.us.us, %.38
  br i1 %.46.us.us.us, label %wi0.body.us.us.us.preheader, label %wi1.head.wi1.end_crit_edge.split.us.us.us

wi0.body.us.us.us:                                ; preds = %wi0.body.us.us.us.preheader, %if.end.us.us.us
  %wi038.us.us.us = phi i64 [ %.84.us.us.us, %if.end.us.us.us ], [ %.30, %wi0.body.us.us.us.preheader ]
  %row.bad.037.us.us.us = phi i32 [ %row.bad.1.us.us.us, %if.end.us.us.us ], [ 0, %wi0.body.us.us.us.preheader ]
  %.64.us.us.us = icmp slt i64 %wi038.us.us.us, %.15
  br i1 %.64.us.us.us, label %if.then.us.us.us, label %if.end.us.us.us

if.then.us.us.us:                                 ; preds = %wi0.body.us.us.us
  %.67.us.us.us = icmp uge i64 %wi038.us.us.us, %.13
  br i1 %.67.us.us.us, label %load.end.us.us.us, label %load.ok.us.us.us

load.ok.us.us.us:                                 ; preds = %if.then.us.us.us
  %.73.us.us.us = getelementptr float, ptr %.12, i64 %wi038.us.us.us
  %.75.us.us.us = load float, ptr %.73.us.us.us, align 4
  br label %load.end.us.us.us

load.end.us.us.us:                                ; preds = %load.ok.us.us.us, %if.then.us.us.us
  %.77.us.us.us = phi float [ %.75.us.us.us, %load.ok.us.us.us ], [ 0.000000e+00, %if.then.us.us.us ]
  %.13.i6.us.us.us = tail call i64 @llvm.fptosi.sat.i64.f32(float %.77.us.us.us)
  %.21.i7.us.us.us = icmp uge i64 %.13.i6.us.us.us, %.11
  %2 = or i1 %.67.us.us.us, %.21.i7.us.us.us
  br i1 %.21.i7.us.us.us, label %load.end.i12.us.us.us, label %load.ok.i9.us.us.us

load.ok.i9.us.us.us:                              ; preds = %load.end.us.us.us
  %.68.i10.us.us.us = getelementptr float, ptr %.10, i64 %.13.i6.us.us.us
  %.70.i11.us.us.us = load float, ptr %.68.i10.us.us.us, align 4
  br label %load.end.i12.us.us.us

load.end.i12.us.us.us:                            ; preds = %load.ok.i9.us.us.us, %load.end.us.us.us
  %.72.i13.us.us.us = phi float [ %.70.i11.us.us.us, %load.ok.i9.us.us.us ], [ 0.000000e+00, %load.end.us.us.us ]
  %.77.i14.us.us.us = add i64 %.13.i6.us.us.us, 1
  %.78.i15.us.us.us = icmp uge i64 %.77.i14.us.us.us, %.11
  %3 = or i1 %2, %.78.i15.us.us.us
  %4 = zext i1 %3 to i32
  %.84.i.us.us.us = or i32 %row.bad.037.us.us.us, %4
  br i1 %.78.i15.us.us.us, label %lerp_at__A1f32cr_f32.dev.exit27.us.us.us, label %load.ok.1.i17.us.us.us

load.ok.1.i17.us.us.us:                           ; preds = %load.end.i12.us.us.us
  %.125.i18.us.us.us = getelementptr float, ptr %.10, i64 %.77.i14.us.us.us
  %.127.i19.us.us.us = load float, ptr %.125.i18.us.us.us, align 4
  br label %lerp_at__A1f32cr_f32.dev.exit27.us.us.us

lerp_at__A1f32cr_f32.dev.exit27.us.us.us:         ; preds = %load.ok.1.i17.us.us.us, %load.end.i12.us.us.us
  %.129.i20.us.us.us = phi float [ %.127.i19.us.us.us, %load.ok.1.i17.us.us.us ], [ 0.000000e+00, %load.end.i12.us.us.us ]
  %.17.i21.us.us.us = sitofp i64 %.13.i6.us.us.us to float
  %.18.i22.us.us.us = fsub float %.77.us.us.us, %.17.i21.us.us.us
  %.74.i23.us.us.us = fsub float 1.000000e+00, %.18.i22.us.us.us
  %.75.i24.us.us.us = fmul float %.74.i23.us.us.us, %.72.i13.us.us.us
  %.131.i25.us.us.us = fmul float %.18.i22.us.us.us, %.129.i20.us.us.us
  %.132.i26.us.us.us = fadd float %.75.i24.us.us.us, %.131.i25.us.us.us
  %.80.us.us.us = getelementptr float, ptr %.14, i64 %wi038.us.us.us
  store float %.132.i26.us.us.us, ptr %.80.us.us.us, align 4
  br label %if.end.us.us.us

if.end.us.us.us:                                  ; preds = %lerp_at__A1f32cr_f32.dev.exit27.us.us.us, %wi0.body.us.us.us
  %row.bad.1.us.us.us = phi i32 [ %.84.i.us.us.us, %lerp_at__A1f32cr_f32.dev.exit27.us.us.us ], [ %row.bad.037.us.us.us, %wi0.body.us.us.us ]
  %.84.us.us.us = add nsw i64 %wi038.us.us.us, 1
  %.50.us.us.us = icmp slt i64 %.84.us.us.us, %.35
  br i1 %.50.us.us.us, label %wi0.body.us.us.us, label %wi0.end.us.us.us

wi0.head.1.preheader.us.us.us:                    ; preds = %wi0.end.us.us.us
  %.111.us.us.us = add i64 %wi142.us.us.us, %.110.us.us
  %.112.us.us.us = mul i64 %.111.us.us.us, %.1
  br label %wi0.body.1.us.us.us

wi1.head.wi1.end_crit_edge.split.us.us.us:        ; preds = %wi0.end.endif.us.us.us
  %.187.us.us = add nsw i64 %wi294.us.us, 1
  %.43.us.us = icmp slt i64 %.187.us.us, %.41
  br i1 %.43.us.us, label %wi1.head.preheader.us.us, label %wi2.end

group.end:                                        ; preds = %wi2.end, %allocas
  ret void

wi2.end:                                          ; preds = %wi1.head.wi1.end_crit_edge.split.us.us.us, %wi1.head.preheader.lr.ph.split.us, %group.body
  %.190 = add nsw i64 %group108, 1
  %exitcond.not = icmp eq i64 %.190, %.17
  br i1 %exitcond.not, label %group.end, label %group.body
}

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define void @resample__gpuoff_entry(ptr readonly captures(none) %.1, i64 %.2, i64 %.3, ptr captures(none) %.4) local_unnamed_addr #2 {
entry:
  %.7 = load i64, ptr %.1, align 8
  %.8 = getelementptr i8, ptr %.1, i64 8
  %.9 = load i64, ptr %.8, align 8
  %.10 = getelementptr i8, ptr %.1, i64 16
  %.11 = load i64, ptr %.10, align 8
  %.12 = getelementptr i8, ptr %.1, i64 24
  %.13 = load i64, ptr %.12, align 8
  %.14 = getelementptr i8, ptr %.1, i64 32
  %.15 = load i64, ptr %.14, align 8
  %.16 = getelementptr i8, ptr %.1, i64 40
  %.17 = load i64, ptr %.16, align 8
  %.18 = getelementptr i8, ptr %.1, i64 48
  %.19 = load i64, ptr %.18, align 8
  %.20 = getelementptr i8, ptr %.1, i64 56
  %.21 = load i64, ptr %.20, align 8
  %.24 = getelementptr i8, ptr %.1, i64 72
  %.25 = load ptr, ptr %.24, align 8
  %.26 = getelementptr i8, ptr %.1, i64 80
  %.27 = load i64, ptr %.26, align 8
  %.28 = getelementptr i8, ptr %.1, i64 96
  %.29 = load ptr, ptr %.28, align 8
  %.30 = getelementptr i8, ptr %.1, i64 104
  %.31 = load i64, ptr %.30, align 8
  %.32 = getelementptr i8, ptr %.1, i64 120
  %.33 = load ptr, ptr %.32, align 8
  %.34 = getelementptr i8, ptr %.1, i64 128
  %.35 = load i64, ptr %.34, align 8
  %errrec = alloca [18 x i64], align 8
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(144) %errrec, i8 0, i64 144, i1 false)
  call fastcc void @resample.groups(i64 %.7, i64 %.9, i64 %.11, i64 %.13, i64 %.15, i64 %.17, i64 %.19, i64 %.21, ptr %.25, i64 %.27, ptr %.29, i64 %.31, ptr %.33, i64 %.35, i64 %.2, i64 %.3, ptr %errrec)
  %.39 = load i64, ptr %errrec, align 8
  %.41 = load i64, ptr %.4, align 8
  %.42 = icmp ne i64 %.39, 0
  %.43 = icmp eq i64 %.41, 0
  %.44 = and i1 %.42, %.43
  br i1 %.44, label %entry.if, label %entry.endif, !prof !1

entry.if:                                         ; preds = %entry
  %.fca.17.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 136
  %.fca.13.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 104
  %.fca.9.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 72
  %.fca.5.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 40
  %.fca.1.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 8
  store i64 %.39, ptr %.4, align 8
  %.52 = getelementptr i8, ptr %.4, i64 8
  %0 = load <4 x i64>, ptr %.fca.1.gep, align 8
  store <4 x i64> %0, ptr %.52, align 8
  %.68 = getelementptr i8, ptr %.4, i64 40
  %1 = load <4 x i64>, ptr %.fca.5.gep, align 8
  store <4 x i64> %1, ptr %.68, align 8
  %.84 = getelementptr i8, ptr %.4, i64 72
  %2 = load <4 x i64>, ptr %.fca.9.gep, align 8
  store <4 x i64> %2, ptr %.84, align 8
  %.100 = getelementptr i8, ptr %.4, i64 104
  %3 = load <4 x i64>, ptr %.fca.13.gep, align 8
  store <4 x i64> %3, ptr %.100, align 8
  %.115 = load i64, ptr %.fca.17.gep, align 8
  %.116 = getelementptr i8, ptr %.4, i64 136
  store i64 %.115, ptr %.116, align 8
  br label %entry.endif

entry.endif:                                      ; preds = %entry.if, %entry
  ret void
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #3

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #4

attributes #0 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { nofree noinline norecurse nosync nounwind memory(argmem: readwrite) }
attributes #2 = { nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { nocallback nofree nounwind willreturn memory(argmem: write) }

!0 = !{!"branch_weights", i32 99, i32 1}
!1 = !{!"branch_weights", i32 1, i32 99}
