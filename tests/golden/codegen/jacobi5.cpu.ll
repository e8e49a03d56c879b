; gpuoff codegen golden: optimised LLVM IR for x86-64-v3, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define internal fastcc void @jacobi5.groups(i64 %.1, i64 %.2, i64 %.3, i64 %.4, i64 %.5, i64 %.6, i64 %.7, i64 %.8, ptr noalias readonly align 4 captures(none) %.10, i64 %.11, i64 %.12, ptr noalias writeonly align 4 captures(none) %.13, i64 %.14, i64 %.15, i64 %.16, i64 %.17, ptr noalias nonnull captures(none) %.18) unnamed_addr #0 {
allocas:
  %.2670 = icmp slt i64 %.16, %.17
  br i1 %.2670, label %group.body.lr.ph, label %group.end

group.body.lr.ph:                                 ; preds = %allocas
  %.72 = add i64 %.11, -1
  %.83 = add i64 %.12, -1
  %.228 = getelementptr i8, ptr %.18, i64 136
  %.239 = getelementptr i8, ptr %.18, i64 8
  %.241 = getelementptr i8, ptr %.18, i64 16
  %.243 = getelementptr i8, ptr %.18, i64 72
  %.245 = getelementptr i8, ptr %.18, i64 80
  %broadcast.splatinsert24 = insertelement <8 x i64> poison, i64 %.83, i64 0
  %broadcast.splat25 = shufflevector <8 x i64> %broadcast.splatinsert24, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert26 = insertelement <8 x i64> poison, i64 %.15, i64 0
  %broadcast.splat27 = shufflevector <8 x i64> %broadcast.splatinsert26, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert = insertelement <8 x i64> poison, i64 %.83, i64 0
  %broadcast.splat = shufflevector <8 x i64> %broadcast.splatinsert, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert7 = insertelement <4 x i64> poison, i64 %.83, i64 0
  %broadcast.splat8 = shufflevector <4 x i64> %broadcast.splatinsert7, <4 x i64> poison, <4 x i32> zeroinitializer
  br label %group.body

group.body:                                       ; preds = %group.body.lr.ph, %wi2.end
  %group71 = phi i64 [ %.16, %group.body.lr.ph ], [ %.266, %wi2.end ]
  %.28 = urem i64 %group71, %.7
  %.29 = udiv i64 %group71, %.7
  %.30 = urem i64 %.29, %.8
  %.31 = udiv i64 %.29, %.8
  %.32 = mul i64 %.28, %.4
  %.33 = mul nsw i64 %.30, %.5
  %.34 = mul nsw i64 %.31, %.6
  %.35 = add i64 %.32, %.4
  %.37 = tail call i64 @llvm.smin.i64(i64 %.35, i64 %.1)
  %.38 = add nsw i64 %.33, %.5
  %.40 = tail call i64 @llvm.smin.i64(i64 %.38, i64 %.2)
  %.41 = add nsw i64 %.34, %.6
  %.43 = tail call i64 @llvm.smin.i64(i64 %.41, i64 %.3)
  %.4549 = icmp slt i64 %.34, %.43
  br i1 %.4549, label %wi1.head.preheader.lr.ph, label %wi2.end

wi1.head.preheader.lr.ph:                         ; preds = %group.body
  %.4845 = icmp slt i64 %.33, %.40
  %.5231 = icmp slt i64 %.32, %.37
  br i1 %.4845, label %wi1.head.preheader.us.preheader, label %wi2.end

wi1.head.preheader.us.preheader:                  ; preds = %wi1.head.preheader.lr.ph
  %0 = sub i64 %.37, %.32
  %min.iters.check20 = icmp ult i64 %0, 8
  %n.vec23 = and i64 %0, -8
  %1 = add i64 %.32, %n.vec23
  %broadcast.splatinsert28 = insertelement <8 x i64> poison, i64 %.32, i64 0
  %broadcast.splat29 = shufflevector <8 x i64> %broadcast.splatinsert28, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction30 = add nsw <8 x i64> %broadcast.splat29, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %cmp.n41 = icmp eq i64 %0, %n.vec23
  %min.iters.check = icmp ult i64 %0, 4
  %min.iters.check1 = icmp ult i64 %0, 16
  %n.mod.vf = and i64 %0, 12
  %n.vec = and i64 %0, -16
  %2 = add i64 %.32, %n.vec
  %broadcast.splatinsert2 = insertelement <8 x i64> poison, i64 %.32, i64 0
  %broadcast.splat3 = shufflevector <8 x i64> %broadcast.splatinsert2, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction = add nsw <8 x i64> %broadcast.splat3, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %cmp.n = icmp eq i64 %0, %n.vec
  %ind.end = add i64 %.32, %n.vec
  %min.epilog.iters.check = icmp eq i64 %n.mod.vf, 0
  %n.vec6 = and i64 %0, -4
  %3 = add i64 %.32, %n.vec6
  %cmp.n17 = icmp eq i64 %0, %n.vec6
  br label %wi1.head.preheader.us

wi1.head.preheader.us:                            ; preds = %wi1.head.preheader.us.preheader, %wi1.head.wi1.end_crit_edge.us
  %wi250.us = phi i64 [ %.263.us, %wi1.head.wi1.end_crit_edge.us ], [ %.34, %wi1.head.preheader.us.preheader ]
  %.223.us = mul i64 %wi250.us, %.2
  br label %wi0.head.preheader.us

wi0.end.us:                                       ; preds = %if.end.us, %middle.block40
  %row.bad.1.us.lcssa = phi i32 [ %27, %middle.block40 ], [ %row.bad.1.us, %if.end.us ]
  %.143.not.us = icmp eq i32 %row.bad.1.us.lcssa, 0
  br i1 %.143.not.us, label %wi0.end.endif.us, label %wi0.body.1.lr.ph.us, !prof !0

wi0.end.us.thread78:                              ; preds = %wi0.body.us34.us, %vec.epilog.middle.block, %middle.block
  %spec.select.lcssa = phi i32 [ %47, %vec.epilog.middle.block ], [ %39, %middle.block ], [ %spec.select, %wi0.body.us34.us ]
  %.143.not.us80 = icmp eq i32 %spec.select.lcssa, 0
  br i1 %.143.not.us80, label %wi0.end.endif.us, label %wi0.body.1.lr.ph.us, !prof !1

wi0.body.1.us51:                                  ; preds = %wi0.body.1.lr.ph.us, %if.end.1.us
  %wi0.144.us52 = phi i64 [ %.256.us53, %if.end.1.us ], [ %.32, %wi0.body.1.lr.ph.us ]
  %.172.us = icmp sgt i64 %wi0.144.us52, 0
  %.178.us = icmp slt i64 %wi0.144.us52, %.83
  %or.cond30.us = select i1 %.172.us, i1 %.178.us, i1 false
  %.219.us = icmp uge i64 %wi0.144.us52, %.15
  %.220.not.us = or i1 %.218.us, %.219.us
  %or.cond = select i1 %or.cond30.us, i1 %.220.not.us, i1 false, !prof !2
  br i1 %or.cond, label %if.then.1.if.us, label %if.end.1.us, !prof !2

if.then.1.if.us:                                  ; preds = %wi0.body.1.us51
  %.226.us = add i64 %wi0.144.us52, %.225.us
  %.227.us = load i64, ptr %.18, align 8
  %.229.us = load i64, ptr %.228, align 8
  %.230.us = icmp eq i64 %.227.us, 0
  %.231.us = icmp ult i64 %.226.us, %.229.us
  %.232.us = icmp eq i64 %.226.us, %.229.us
  %.233.us = icmp ugt i64 %.227.us, 5
  %.234.us = and i1 %.233.us, %.232.us
  %.235.us = or i1 %.231.us, %.234.us
  %.236.us = or i1 %.230.us, %.235.us
  br i1 %.236.us, label %if.then.1.if.if.us, label %if.end.1.us

if.then.1.if.if.us:                               ; preds = %if.then.1.if.us
  store i64 5, ptr %.18, align 8
  store i64 %wi146.us, ptr %.239, align 8
  store i64 %wi0.144.us52, ptr %.241, align 8
  store i64 %.14, ptr %.243, align 8
  store i64 %.15, ptr %.245, align 8
  store i64 %.226.us, ptr %.228, align 8
  br label %if.end.1.us

if.end.1.us:                                      ; preds = %if.then.1.if.if.us, %if.then.1.if.us, %wi0.body.1.us51
  %.256.us53 = add nsw i64 %wi0.144.us52, 1
  %.146.us54 = icmp slt i64 %.256.us53, %.37
  br i1 %.146.us54, label %wi0.body.1.us51, label %wi0.end.endif.us

wi0.end.endif.us:                                 ; preds = %if.end.1.us, %wi0.end.us, %wi0.body.lr.ph.us, %wi0.head.preheader.us, %wi0.body.1.lr.ph.us, %wi0.end.us.thread78
  %.260.us = add nsw i64 %wi146.us, 1
  %.48.us = icmp slt i64 %.260.us, %.40
  br i1 %.48.us, label %wi0.head.preheader.us, label %wi1.head.wi1.end_crit_edge.us

wi0.body.us55:                                    ; preds = %wi0.body.us55.preheader44, %if.end.us
  %wi033.us56 = phi i64 [ %.140.us62, %if.end.us ], [ %wi033.us56.ph, %wi0.body.us55.preheader44 ]
  %row.bad.032.us = phi i32 [ %row.bad.1.us, %if.end.us ], [ %row.bad.032.us.ph, %wi0.body.us55.preheader44 ]
  %.78.us57 = icmp sgt i64 %wi033.us56, 0
  %.84.us58 = icmp slt i64 %wi033.us56, %.83
  %or.cond29.us59 = select i1 %.78.us57, i1 %.84.us58, i1 false
  br i1 %or.cond29.us59, label %if.then.us60, label %if.end.us

if.then.us60:                                     ; preds = %wi0.body.us55
  %.125.us = icmp uge i64 %wi033.us56, %.15
  %.129.us = zext i1 %.125.us to i32
  %.130.us61 = or i32 %row.bad.032.us, %.129.us
  br i1 %.125.us, label %if.end.us, label %if.then.if.us, !prof !3

if.then.if.us:                                    ; preds = %if.then.us60
  %.134.us = getelementptr float, ptr %5, i64 %wi033.us56
  %.93.us = getelementptr float, ptr %6, i64 %wi033.us56
  %.94.us = load float, ptr %.93.us, align 4
  %.100.us = getelementptr float, ptr %7, i64 %wi033.us56
  %.101.us = load float, ptr %.100.us, align 4
  %.102.us = fadd float %.94.us, %.101.us
  %4 = getelementptr float, ptr %8, i64 %wi033.us56
  %.108.us = getelementptr i8, ptr %4, i64 -4
  %.109.us = load float, ptr %.108.us, align 4
  %.110.us = fadd float %.102.us, %.109.us
  %.116.us = getelementptr i8, ptr %4, i64 4
  %.117.us = load float, ptr %.116.us, align 4
  %.118.us = fadd float %.110.us, %.117.us
  %.121.us = fmul float %.118.us, 2.500000e-01
  store float %.121.us, ptr %.134.us, align 4
  br label %if.end.us

if.end.us:                                        ; preds = %if.then.if.us, %if.then.us60, %wi0.body.us55
  %row.bad.1.us = phi i32 [ %.130.us61, %if.then.if.us ], [ %.130.us61, %if.then.us60 ], [ %row.bad.032.us, %wi0.body.us55 ]
  %.140.us62 = add nsw i64 %wi033.us56, 1
  %.52.us63 = icmp slt i64 %.140.us62, %.37
  br i1 %.52.us63, label %wi0.body.us55, label %wi0.end.us, !llvm.loop !4

wi0.head.preheader.us:                            ; preds = %wi1.head.preheader.us, %wi0.end.endif.us
  %wi146.us = phi i64 [ %.33, %wi1.head.preheader.us ], [ %.260.us, %wi0.end.endif.us ]
  br i1 %.5231, label %wi0.body.lr.ph.us, label %wi0.end.endif.us

wi0.body.lr.ph.us:                                ; preds = %wi0.head.preheader.us
  %.69.us = icmp sgt i64 %wi146.us, 0
  %.73.us = icmp slt i64 %wi146.us, %.72
  %.75.us = select i1 %.69.us, i1 %.73.us, i1 false
  %.132.us = mul i64 %wi146.us, %.15
  %5 = getelementptr float, ptr %.13, i64 %.132.us
  %.89.us = add nsw i64 %wi146.us, -1
  %.91.us = mul i64 %.89.us, %.12
  %6 = getelementptr float, ptr %.10, i64 %.91.us
  %.96.us = add nuw nsw i64 %wi146.us, 1
  %.98.us = mul i64 %.96.us, %.12
  %7 = getelementptr float, ptr %.10, i64 %.98.us
  %.106.us = mul i64 %wi146.us, %.12
  %8 = getelementptr float, ptr %.10, i64 %.106.us
  %.75.fr.us = freeze i1 %.75.us
  br i1 %.75.fr.us, label %wi0.body.lr.ph.split.us65, label %wi0.end.endif.us

wi0.body.lr.ph.split.us65:                        ; preds = %wi0.body.lr.ph.us
  %.124.us = icmp uge i64 %wi146.us, %.14
  %.124.fr.us = freeze i1 %.124.us
  br i1 %.124.fr.us, label %iter.check, label %wi0.body.us55.preheader, !prof !3

wi0.body.us55.preheader:                          ; preds = %wi0.body.lr.ph.split.us65
  br i1 %min.iters.check20, label %wi0.body.us55.preheader44, label %vector.body31

vector.body31:                                    ; preds = %wi0.body.us55.preheader, %vector.body31
  %index32 = phi i64 [ %index.next38, %vector.body31 ], [ 0, %wi0.body.us55.preheader ]
  %vec.ind33 = phi <8 x i64> [ %vec.ind.next39, %vector.body31 ], [ %induction30, %wi0.body.us55.preheader ]
  %vec.phi34 = phi <8 x i32> [ %predphi, %vector.body31 ], [ zeroinitializer, %wi0.body.us55.preheader ]
  %offset.idx = add i64 %.32, %index32
  %9 = icmp sgt <8 x i64> %vec.ind33, zeroinitializer
  %10 = icmp slt <8 x i64> %vec.ind33, %broadcast.splat25
  %11 = select <8 x i1> %9, <8 x i1> %10, <8 x i1> zeroinitializer
  %12 = icmp uge <8 x i64> %vec.ind33, %broadcast.splat27
  %13 = xor <8 x i1> %12, splat (i1 true)
  %14 = select <8 x i1> %11, <8 x i1> %13, <8 x i1> zeroinitializer
  %15 = getelementptr float, ptr %5, i64 %offset.idx
  %16 = getelementptr float, ptr %6, i64 %offset.idx
  %wide.masked.load = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %16, <8 x i1> %14, <8 x float> poison)
  %17 = getelementptr float, ptr %7, i64 %offset.idx
  %wide.masked.load35 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %17, <8 x i1> %14, <8 x float> poison)
  %18 = fadd <8 x float> %wide.masked.load, %wide.masked.load35
  %19 = getelementptr float, ptr %8, i64 %offset.idx
  %20 = getelementptr i8, ptr %19, i64 -4
  %wide.masked.load36 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %20, <8 x i1> %14, <8 x float> poison)
  %21 = fadd <8 x float> %18, %wide.masked.load36
  %22 = getelementptr i8, ptr %19, i64 4
  %wide.masked.load37 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %22, <8 x i1> %14, <8 x float> poison)
  %23 = fadd <8 x float> %21, %wide.masked.load37
  %24 = fmul <8 x float> %23, splat (float 2.500000e-01)
  tail call void @llvm.masked.store.v8f32.p0(<8 x float> %24, ptr align 4 %15, <8 x i1> %14)
  %narrow = select <8 x i1> %11, <8 x i1> %12, <8 x i1> zeroinitializer
  %25 = zext <8 x i1> %narrow to <8 x i32>
  %predphi = or <8 x i32> %vec.phi34, %25
  %index.next38 = add nuw i64 %index32, 8
  %vec.ind.next39 = add nsw <8 x i64> %vec.ind33, splat (i64 8)
  %26 = icmp eq i64 %index.next38, %n.vec23
  br i1 %26, label %middle.block40, label %vector.body31, !llvm.loop !7

middle.block40:                                   ; preds = %vector.body31
  %27 = tail call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %predphi)
  br i1 %cmp.n41, label %wi0.end.us, label %wi0.body.us55.preheader44

wi0.body.us55.preheader44:                        ; preds = %wi0.body.us55.preheader, %middle.block40
  %wi033.us56.ph = phi i64 [ %.32, %wi0.body.us55.preheader ], [ %1, %middle.block40 ]
  %row.bad.032.us.ph = phi i32 [ 0, %wi0.body.us55.preheader ], [ %27, %middle.block40 ]
  br label %wi0.body.us55

iter.check:                                       ; preds = %wi0.body.lr.ph.split.us65
  br i1 %min.iters.check, label %wi0.body.us34.us.preheader, label %vector.main.loop.iter.check

vector.main.loop.iter.check:                      ; preds = %iter.check
  br i1 %min.iters.check1, label %vec.epilog.ph, label %vector.body

vector.body:                                      ; preds = %vector.main.loop.iter.check, %vector.body
  %index = phi i64 [ %index.next, %vector.body ], [ 0, %vector.main.loop.iter.check ]
  %vec.ind = phi <8 x i64> [ %vec.ind.next, %vector.body ], [ %induction, %vector.main.loop.iter.check ]
  %vec.phi = phi <8 x i32> [ %36, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %vec.phi4 = phi <8 x i32> [ %37, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %step.add = add <8 x i64> %vec.ind, splat (i64 8)
  %28 = icmp sgt <8 x i64> %vec.ind, zeroinitializer
  %29 = icmp sgt <8 x i64> %step.add, zeroinitializer
  %30 = icmp slt <8 x i64> %vec.ind, %broadcast.splat
  %31 = icmp slt <8 x i64> %step.add, %broadcast.splat
  %32 = select <8 x i1> %28, <8 x i1> %30, <8 x i1> zeroinitializer
  %33 = select <8 x i1> %29, <8 x i1> %31, <8 x i1> zeroinitializer
  %34 = zext <8 x i1> %32 to <8 x i32>
  %35 = zext <8 x i1> %33 to <8 x i32>
  %36 = or <8 x i32> %vec.phi, %34
  %37 = or <8 x i32> %vec.phi4, %35
  %index.next = add nuw i64 %index, 16
  %vec.ind.next = add <8 x i64> %vec.ind, splat (i64 16)
  %38 = icmp eq i64 %index.next, %n.vec
  br i1 %38, label %middle.block, label %vector.body, !llvm.loop !8

middle.block:                                     ; preds = %vector.body
  %bin.rdx = or <8 x i32> %37, %36
  %39 = tail call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx)
  br i1 %cmp.n, label %wi0.end.us.thread78, label %vec.epilog.iter.check

vec.epilog.iter.check:                            ; preds = %middle.block
  br i1 %min.epilog.iters.check, label %wi0.body.us34.us.preheader, label %vec.epilog.ph, !prof !9

vec.epilog.ph:                                    ; preds = %vector.main.loop.iter.check, %vec.epilog.iter.check
  %vec.epilog.resume.val = phi i64 [ %n.vec, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %bc.resume.val = phi i64 [ %2, %vec.epilog.iter.check ], [ %.32, %vector.main.loop.iter.check ]
  %bc.merge.rdx = phi i32 [ %39, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %40 = insertelement <4 x i32> <i32 poison, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx, i64 0
  %broadcast.splatinsert9 = insertelement <4 x i64> poison, i64 %bc.resume.val, i64 0
  %broadcast.splat10 = shufflevector <4 x i64> %broadcast.splatinsert9, <4 x i64> poison, <4 x i32> zeroinitializer
  %induction11 = add nsw <4 x i64> %broadcast.splat10, <i64 0, i64 1, i64 2, i64 3>
  br label %vec.epilog.vector.body

vec.epilog.vector.body:                           ; preds = %vec.epilog.vector.body, %vec.epilog.ph
  %index12 = phi i64 [ %vec.epilog.resume.val, %vec.epilog.ph ], [ %index.next15, %vec.epilog.vector.body ]
  %vec.ind13 = phi <4 x i64> [ %induction11, %vec.epilog.ph ], [ %vec.ind.next16, %vec.epilog.vector.body ]
  %vec.phi14 = phi <4 x i32> [ %40, %vec.epilog.ph ], [ %45, %vec.epilog.vector.body ]
  %41 = icmp sgt <4 x i64> %vec.ind13, zeroinitializer
  %42 = icmp slt <4 x i64> %vec.ind13, %broadcast.splat8
  %43 = select <4 x i1> %41, <4 x i1> %42, <4 x i1> zeroinitializer
  %44 = zext <4 x i1> %43 to <4 x i32>
  %45 = or <4 x i32> %vec.phi14, %44
  %index.next15 = add nuw i64 %index12, 4
  %vec.ind.next16 = add nsw <4 x i64> %vec.ind13, splat (i64 4)
  %46 = icmp eq i64 %index.next15, %n.vec6
  br i1 %46, label %vec.epilog.middle.block, label %vec.epilog.vector.body, !llvm.loop !10

vec.epilog.middle.block:                          ; preds = %vec.epilog.vector.body
  %47 = tail call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %45)
  br i1 %cmp.n17, label %wi0.end.us.thread78, label %wi0.body.us34.us.preheader

wi0.body.us34.us.preheader:                       ; preds = %iter.check, %vec.epilog.iter.check, %vec.epilog.middle.block
  %wi033.us35.us.ph = phi i64 [ %.32, %iter.check ], [ %ind.end, %vec.epilog.iter.check ], [ %3, %vec.epilog.middle.block ]
  %row.bad.032.us36.us.ph = phi i32 [ 0, %iter.check ], [ %39, %vec.epilog.iter.check ], [ %47, %vec.epilog.middle.block ]
  br label %wi0.body.us34.us

wi0.body.us34.us:                                 ; preds = %wi0.body.us34.us.preheader, %wi0.body.us34.us
  %wi033.us35.us = phi i64 [ %.140.us39.us, %wi0.body.us34.us ], [ %wi033.us35.us.ph, %wi0.body.us34.us.preheader ]
  %row.bad.032.us36.us = phi i32 [ %spec.select, %wi0.body.us34.us ], [ %row.bad.032.us36.us.ph, %wi0.body.us34.us.preheader ]
  %.78.us.us = icmp sgt i64 %wi033.us35.us, 0
  %.84.us.us = icmp slt i64 %wi033.us35.us, %.83
  %or.cond29.us.us = select i1 %.78.us.us, i1 %.84.us.us, i1 false
  %.130.us.us = zext i1 %or.cond29.us.us to i32
  %spec.select = or i32 %row.bad.032.us36.us, %.130.us.us
  %.140.us39.us = add nsw i64 %wi033.us35.us, 1
  %.52.us40.us = icmp slt i64 %.140.us39.us, %.37
  br i1 %.52.us40.us, label %wi0.body.us34.us, label %wi0.end.us.thread78, !llvm.loop !11

wi0.body.1.lr.ph.us:                              ; preds = %wi0.end.us, %wi0.end.us.thread78
  %.163.us = icmp sgt i64 %wi146.us, 0
  %.167.us = icmp slt i64 %wi146.us, %.72
  %.169.us = select i1 %.163.us, i1 %.167.us, i1 false
  %.218.us = icmp uge i64 %wi146.us, %.14
  %.224.us = add i64 %wi146.us, %.223.us
  %.225.us = mul i64 %.224.us, %.1
  %.169.fr.us = freeze i1 %.169.us
  br i1 %.169.fr.us, label %wi0.body.1.us51, label %wi0.end.endif.us

wi1.head.wi1.end_crit_edge.us:                    ; preds = %wi0.end.endif.us
  %.263.us = add nsw i64 %wi250.us, 1
  %.45.us = icmp slt i64 %.263.us, %.43
  br i1 %.45.us, label %wi1.head.preheader.us, label %wi2.end

group.end:                                        ; preds = %wi2.end, %allocas
  ret void

wi2.end:                                          ; preds = %wi1.head.wi1.end_crit_edge.us, %wi1.head.preheader.lr.ph, %group.body
  %.266 = add nsw i64 %group71, 1
  %exitcond.not = icmp eq i64 %.266, %.17
  br i1 %exitcond.not, label %group.end, label %group.body
}

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define void @jacobi5__gpuoff_entry(ptr readonly captures(none) %.1, i64 %.2, i64 %.3, ptr captures(none) %.4) local_unnamed_addr #1 {
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
  %.28 = getelementptr i8, ptr %.1, i64 88
  %.29 = load i64, ptr %.28, align 8
  %.30 = getelementptr i8, ptr %.1, i64 112
  %.31 = load ptr, ptr %.30, align 8
  %.32 = getelementptr i8, ptr %.1, i64 120
  %.33 = load i64, ptr %.32, align 8
  %.34 = getelementptr i8, ptr %.1, i64 128
  %.35 = load i64, ptr %.34, align 8
  %errrec = alloca [18 x i64], align 8
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(144) %errrec, i8 0, i64 144, i1 false)
  call fastcc void @jacobi5.groups(i64 %.7, i64 %.9, i64 %.11, i64 %.13, i64 %.15, i64 %.17, i64 %.19, i64 %.21, ptr %.25, i64 %.27, i64 %.29, ptr %.31, i64 %.33, i64 %.35, i64 %.2, i64 %.3, ptr %errrec)
  %.39 = load i64, ptr %errrec, align 8
  %.41 = load i64, ptr %.4, align 8
  %.42 = icmp ne i64 %.39, 0
  %.43 = icmp eq i64 %.41, 0
  %.44 = and i1 %.42, %.43
  br i1 %.44, label %entry.if, label %entry.endif, !prof !3

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
declare i64 @llvm.smin.i64(i64, i64) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.or.v8i32(<8 x i32>) #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: read)
declare <8 x float> @llvm.masked.load.v8f32.p0(ptr captures(none), <8 x i1>, <8 x float>) #5

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: write)
declare void @llvm.masked.store.v8f32.p0(<8 x float>, ptr captures(none), <8 x i1>) #6

attributes #0 = { nofree noinline norecurse nosync nounwind memory(argmem: readwrite) }
attributes #1 = { nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { nocallback nofree nosync nounwind willreturn memory(argmem: read) }
attributes #6 = { nocallback nofree nosync nounwind willreturn memory(argmem: write) }

!0 = !{!"branch_weights", i32 -85899344, i32 85899344}
!1 = !{!"branch_weights", i32 2061584304, i32 85899344}
!2 = !{!"branch_weights", i32 1, i32 199}
!3 = !{!"branch_weights", i32 1, i32 99}
!4 = distinct !{!4, !5, !6}
!5 = !{!"llvm.loop.unroll.runtime.disable"}
!6 = !{!"llvm.loop.isvectorized", i32 1}
!7 = distinct !{!7, !6, !5}
!8 = distinct !{!8, !6, !5}
!9 = !{!"branch_weights", i32 4, i32 12}
!10 = distinct !{!10, !6, !5}
!11 = distinct !{!11, !5, !6}
