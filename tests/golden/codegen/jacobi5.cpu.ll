; gpuoff codegen golden: optimised LLVM IR for x86-64-v3, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define internal fastcc void @jacobi5.groups(i64 %.1, i64 %.2, i64 %.3, i64 %.4, i64 %.5, i64 %.6, i64 %.7, i64 %.8, ptr noalias readonly align 4 captures(none) %.10, i64 %.11, i64 %.12, ptr noalias writeonly align 4 captures(none) %.13, i64 %.14, i64 %.15, i64 %.16, i64 %.17, ptr noalias nonnull captures(none) %.18) unnamed_addr #0 {
allocas:
  %.2676 = icmp slt i64 %.16, %.17
  br i1 %.2676, label %group.body.lr.ph, label %group.end

group.body.lr.ph:                                 ; preds = %allocas
  %.72 = add i64 %.11, -1
  %.83 = add i64 %.12, -1
  %.227 = getelementptr i8, ptr %.18, i64 8
  %.229 = getelementptr i8, ptr %.18, i64 16
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
  %group77 = phi i64 [ %.16, %group.body.lr.ph ], [ %.248, %wi2.end ]
  %.28 = urem i64 %group77, %.7
  %.29 = udiv i64 %group77, %.7
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
  %.4568 = icmp slt i64 %.34, %.43
  %.4845 = icmp slt i64 %.33, %.40
  %or.cond90 = select i1 %.4568, i1 %.4845, i1 false
  %.14643 = icmp slt i64 %.32, %.37
  %or.cond91 = select i1 %or.cond90, i1 %.14643, i1 false
  br i1 %or.cond91, label %wi1.head.preheader.us.us.preheader, label %wi2.end

wi1.head.preheader.us.us.preheader:               ; preds = %group.body
  %0 = sub i64 %.37, %.32
  %.neg = add i64 %.32, 1
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
  %xtraiter = and i64 %0, 1
  %lcmp.mod.not = icmp eq i64 %xtraiter, 0
  %.172.us.us.us.prol = icmp sgt i64 %.32, 0
  %.178.us.us.us.prol = icmp slt i64 %.32, %.83
  %or.cond30.us.us.us.prol = select i1 %.172.us.us.us.prol, i1 %.178.us.us.us.prol, i1 false
  %.219.us.us.us.prol = icmp uge i64 %.32, %.15
  %.238.us51.us.us.prol = add nsw i64 %.32, 1
  %4 = icmp eq i64 %.37, %.neg
  br label %wi1.head.preheader.us.us

wi1.head.preheader.us.us:                         ; preds = %wi1.head.preheader.us.us.preheader, %wi1.head.wi1.end_crit_edge.split.us.us.us
  %wi269.us.us = phi i64 [ %.245.us.us, %wi1.head.wi1.end_crit_edge.split.us.us.us ], [ %.34, %wi1.head.preheader.us.us.preheader ]
  br label %wi0.head.preheader.us.us.us

wi0.head.preheader.us.us.us:                      ; preds = %wi0.end.endif.us.us.us, %wi1.head.preheader.us.us
  %wi146.us.us.us = phi i64 [ %.33, %wi1.head.preheader.us.us ], [ %.96.us.us.us, %wi0.end.endif.us.us.us ]
  %.69.us.us.us = icmp sgt i64 %wi146.us.us.us, 0
  %.73.us.us.us = icmp slt i64 %wi146.us.us.us, %.72
  %.75.us.us.us = select i1 %.69.us.us.us, i1 %.73.us.us.us, i1 false
  %.132.us.us.us = mul i64 %wi146.us.us.us, %.15
  %5 = getelementptr float, ptr %.13, i64 %.132.us.us.us
  %.89.us.us.us = add nsw i64 %wi146.us.us.us, -1
  %.91.us.us.us = mul i64 %.89.us.us.us, %.12
  %6 = getelementptr float, ptr %.10, i64 %.91.us.us.us
  %.96.us.us.us = add nsw i64 %wi146.us.us.us, 1
  %.98.us.us.us = mul i64 %.96.us.us.us, %.12
  %7 = getelementptr float, ptr %.10, i64 %.98.us.us.us
  %.106.us.us.us = mul i64 %wi146.us.us.us, %.12
  %8 = getelementptr float, ptr %.10, i64 %.106.us.us.us
  %.75.fr.us.us.us = freeze i1 %.75.us.us.us
  br i1 %.75.fr.us.us.us, label %wi0.body.lr.ph.split.us63.us.us, label %wi0.end.endif.us.us.us

wi0.body.1.us49.us.us:                            ; preds = %wi0.body.1.us49.us.us.prol.loopexit, %if.end.1.us.us.us.1
  %wi0.144.us50.us.us = phi i64 [ %.238.us51.us.us.1, %if.end.1.us.us.us.1 ], [ %wi0.144.us50.us.us.unr, %wi0.body.1.us49.us.us.prol.loopexit ]
  %.172.us.us.us = icmp sgt i64 %wi0.144.us50.us.us, 0
  %.178.us.us.us = icmp slt i64 %wi0.144.us50.us.us, %.83
  %or.cond30.us.us.us = select i1 %.172.us.us.us, i1 %.178.us.us.us, i1 false
  %.219.us.us.us = icmp uge i64 %wi0.144.us50.us.us, %.15
  %.220.not.us.us.us = or i1 %.218.us.us.us89, %.219.us.us.us
  %or.cond = select i1 %or.cond30.us.us.us, i1 %.220.not.us.us.us, i1 false, !prof !0
  br i1 %or.cond, label %if.then.1.if.us.us.us, label %if.end.1.us.us.us, !prof !0

if.then.1.if.us.us.us:                            ; preds = %wi0.body.1.us49.us.us
  %.223.us.us.us = load i64, ptr %.18, align 8
  %.224.us.us.us = icmp eq i64 %.223.us.us.us, 0
  br i1 %.224.us.us.us, label %if.then.1.if.if.us.us.us, label %if.end.1.us.us.us

if.then.1.if.if.us.us.us:                         ; preds = %if.then.1.if.us.us.us
  store i64 5, ptr %.18, align 8
  store i64 %wi146.us.us.us, ptr %.227, align 8
  store i64 %wi0.144.us50.us.us, ptr %.229, align 8
  br label %if.end.1.us.us.us

if.end.1.us.us.us:                                ; preds = %if.then.1.if.if.us.us.us, %if.then.1.if.us.us.us, %wi0.body.1.us49.us.us
  %.238.us51.us.us = add nsw i64 %wi0.144.us50.us.us, 1
  %.172.us.us.us.1 = icmp sgt i64 %wi0.144.us50.us.us, -1
  %.178.us.us.us.1 = icmp slt i64 %.238.us51.us.us, %.83
  %or.cond30.us.us.us.1 = select i1 %.172.us.us.us.1, i1 %.178.us.us.us.1, i1 false
  %.219.us.us.us.1 = icmp uge i64 %.238.us51.us.us, %.15
  %.220.not.us.us.us.1 = or i1 %.218.us.us.us89, %.219.us.us.us.1
  %or.cond.1 = select i1 %or.cond30.us.us.us.1, i1 %.220.not.us.us.us.1, i1 false, !prof !0
  br i1 %or.cond.1, label %if.then.1.if.us.us.us.1, label %if.end.1.us.us.us.1, !prof !0

if.then.1.if.us.us.us.1:                          ; preds = %if.end.1.us.us.us
  %.223.us.us.us.1 = load i64, ptr %.18, align 8
  %.224.us.us.us.1 = icmp eq i64 %.223.us.us.us.1, 0
  br i1 %.224.us.us.us.1, label %if.then.1.if.if.us.us.us.1, label %if.end.1.us.us.us.1

if.then.1.if.if.us.us.us.1:                       ; preds = %if.then.1.if.us.us.us.1
  store i64 5, ptr %.18, align 8
  store i64 %wi146.us.us.us, ptr %.227, align 8
  store i64 %.238.us51.us.us, ptr %.229, align 8
  br label %if.end.1.us.us.us.1

if.end.1.us.us.us.1:                              ; preds = %if.then.1.if.if.us.us.us.1, %if.then.1.if.us.us.us.1, %if.end.1.us.us.us
  %.238.us51.us.us.1 = add nsw i64 %wi0.144.us50.us.us, 2
  %.146.us52.us.us.1 = icmp slt i64 %.238.us51.us.us.1, %.37
  br i1 %.146.us52.us.us.1, label %wi0.body.1.us49.us.us, label %wi0.end.endif.us.us.us

wi0.end.endif.us.us.us:                           ; preds = %wi0.body.1.us49.us.us.prol.loopexit, %if.end.1.us.us.us.1, %wi0.head.preheader.us.us.us, %wi0.head.wi0.end_crit_edge.us.us.us.thread85, %wi0.head.wi0.end_crit_edge.us.us.us
  %.48.us.us.us = icmp slt i64 %.96.us.us.us, %.40
  br i1 %.48.us.us.us, label %wi0.head.preheader.us.us.us, label %wi1.head.wi1.end_crit_edge.split.us.us.us

wi0.body.us53.us.us:                              ; preds = %wi0.body.us53.us.us.preheader44, %if.end.us.us.us
  %wi033.us54.us.us = phi i64 [ %.140.us60.us.us, %if.end.us.us.us ], [ %wi033.us54.us.us.ph, %wi0.body.us53.us.us.preheader44 ]
  %row.bad.032.us.us.us = phi i32 [ %row.bad.1.us.us.us, %if.end.us.us.us ], [ %row.bad.032.us.us.us.ph, %wi0.body.us53.us.us.preheader44 ]
  %.78.us55.us.us = icmp sgt i64 %wi033.us54.us.us, 0
  %.84.us56.us.us = icmp slt i64 %wi033.us54.us.us, %.83
  %or.cond29.us57.us.us = select i1 %.78.us55.us.us, i1 %.84.us56.us.us, i1 false
  br i1 %or.cond29.us57.us.us, label %if.then.us58.us.us, label %if.end.us.us.us

if.then.us58.us.us:                               ; preds = %wi0.body.us53.us.us
  %.125.us.us.us = icmp uge i64 %wi033.us54.us.us, %.15
  %.129.us.us.us = zext i1 %.125.us.us.us to i32
  %.130.us59.us.us = or i32 %row.bad.032.us.us.us, %.129.us.us.us
  br i1 %.125.us.us.us, label %if.end.us.us.us, label %if.then.if.us.us.us, !prof !1

if.then.if.us.us.us:                              ; preds = %if.then.us58.us.us
  %.134.us.us.us = getelementptr float, ptr %5, i64 %wi033.us54.us.us
  %.93.us.us.us = getelementptr float, ptr %6, i64 %wi033.us54.us.us
  %.94.us.us.us = load float, ptr %.93.us.us.us, align 4
  %.100.us.us.us = getelementptr float, ptr %7, i64 %wi033.us54.us.us
  %.101.us.us.us = load float, ptr %.100.us.us.us, align 4
  %.102.us.us.us = fadd float %.94.us.us.us, %.101.us.us.us
  %9 = getelementptr float, ptr %8, i64 %wi033.us54.us.us
  %.108.us.us.us = getelementptr i8, ptr %9, i64 -4
  %.109.us.us.us = load float, ptr %.108.us.us.us, align 4
  %.110.us.us.us = fadd float %.102.us.us.us, %.109.us.us.us
  %.116.us.us.us = getelementptr i8, ptr %9, i64 4
  %.117.us.us.us = load float, ptr %.116.us.us.us, align 4
  %.118.us.us.us = fadd float %.110.us.us.us, %.117.us.us.us
  %.121.us.us.us = fmul float %.118.us.us.us, 2.500000e-01
  store float %.121.us.us.us, ptr %.134.us.us.us, align 4
  br label %if.end.us.us.us

if.end.us.us.us:                                  ; preds = %if.then.if.us.us.us, %if.then.us58.us.us, %wi0.body.us53.us.us
  %row.bad.1.us.us.us = phi i32 [ %.130.us59.us.us, %if.then.if.us.us.us ], [ %.130.us59.us.us, %if.then.us58.us.us ], [ %row.bad.032.us.us.us, %wi0.body.us53.us.us ]
  %.140.us60.us.us = add nsw i64 %wi033.us54.us.us, 1
  %.52.us61.us.us = icmp slt i64 %.140.us60.us.us, %.37
  br i1 %.52.us61.us.us, label %wi0.body.us53.us.us, label %wi0.head.wi0.end_crit_edge.us.us.us, !llvm.loop !2

wi0.body.lr.ph.split.us63.us.us:                  ; preds = %wi0.head.preheader.us.us.us
  %.124.us.us.us = icmp uge i64 %wi146.us.us.us, %.14
  %.124.fr.us.us.us = freeze i1 %.124.us.us.us
  br i1 %.124.fr.us.us.us, label %iter.check, label %wi0.body.us53.us.us.preheader, !prof !1

wi0.body.us53.us.us.preheader:                    ; preds = %wi0.body.lr.ph.split.us63.us.us
  br i1 %min.iters.check20, label %wi0.body.us53.us.us.preheader44, label %vector.body31

vector.body31:                                    ; preds = %wi0.body.us53.us.us.preheader, %vector.body31
  %index32 = phi i64 [ %index.next38, %vector.body31 ], [ 0, %wi0.body.us53.us.us.preheader ]
  %vec.ind33 = phi <8 x i64> [ %vec.ind.next39, %vector.body31 ], [ %induction30, %wi0.body.us53.us.us.preheader ]
  %vec.phi34 = phi <8 x i32> [ %predphi, %vector.body31 ], [ zeroinitializer, %wi0.body.us53.us.us.preheader ]
  %offset.idx = add i64 %.32, %index32
  %10 = icmp sgt <8 x i64> %vec.ind33, zeroinitializer
  %11 = icmp slt <8 x i64> %vec.ind33, %broadcast.splat25
  %12 = select <8 x i1> %10, <8 x i1> %11, <8 x i1> zeroinitializer
  %13 = icmp uge <8 x i64> %vec.ind33, %broadcast.splat27
  %14 = xor <8 x i1> %13, splat (i1 true)
  %15 = select <8 x i1> %12, <8 x i1> %14, <8 x i1> zeroinitializer
  %16 = getelementptr float, ptr %5, i64 %offset.idx
  %17 = getelementptr float, ptr %6, i64 %offset.idx
  %wide.masked.load = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %17, <8 x i1> %15, <8 x float> poison)
  %18 = getelementptr float, ptr %7, i64 %offset.idx
  %wide.masked.load35 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %18, <8 x i1> %15, <8 x float> poison)
  %19 = fadd <8 x float> %wide.masked.load, %wide.masked.load35
  %20 = getelementptr float, ptr %8, i64 %offset.idx
  %21 = getelementptr i8, ptr %20, i64 -4
  %wide.masked.load36 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %21, <8 x i1> %15, <8 x float> poison)
  %22 = fadd <8 x float> %19, %wide.masked.load36
  %23 = getelementptr i8, ptr %20, i64 4
  %wide.masked.load37 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %23, <8 x i1> %15, <8 x float> poison)
  %24 = fadd <8 x float> %22, %wide.masked.load37
  %25 = fmul <8 x float> %24, splat (float 2.500000e-01)
  tail call void @llvm.masked.store.v8f32.p0(<8 x float> %25, ptr align 4 %16, <8 x i1> %15)
  %narrow = select <8 x i1> %12, <8 x i1> %13, <8 x i1> zeroinitializer
  %26 = zext <8 x i1> %narrow to <8 x i32>
  %predphi = or <8 x i32> %vec.phi34, %26
  %index.next38 = add nuw i64 %index32, 8
  %vec.ind.next39 = add nsw <8 x i64> %vec.ind33, splat (i64 8)
  %27 = icmp eq i64 %index.next38, %n.vec23
  br i1 %27, label %middle.block40, label %vector.body31, !llvm.loop !5

middle.block40:                                   ; preds = %vector.body31
  %28 = tail call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %predphi)
  br i1 %cmp.n41, label %wi0.head.wi0.end_crit_edge.us.us.us, label %wi0.body.us53.us.us.preheader44

wi0.body.us53.us.us.preheader44:                  ; preds = %wi0.body.us53.us.us.preheader, %middle.block40
  %wi033.us54.us.us.ph = phi i64 [ %.32, %wi0.body.us53.us.us.preheader ], [ %1, %middle.block40 ]
  %row.bad.032.us.us.us.ph = phi i32 [ 0, %wi0.body.us53.us.us.preheader ], [ %28, %middle.block40 ]
  br label %wi0.body.us53.us.us

iter.check:                                       ; preds = %wi0.body.lr.ph.split.us63.us.us
  br i1 %min.iters.check, label %wi0.body.us34.us.us.us.preheader, label %vector.main.loop.iter.check

vector.main.loop.iter.check:                      ; preds = %iter.check
  br i1 %min.iters.check1, label %vec.epilog.ph, label %vector.body

vector.body:                                      ; preds = %vector.main.loop.iter.check, %vector.body
  %index = phi i64 [ %index.next, %vector.body ], [ 0, %vector.main.loop.iter.check ]
  %vec.ind = phi <8 x i64> [ %vec.ind.next, %vector.body ], [ %induction, %vector.main.loop.iter.check ]
  %vec.phi = phi <8 x i32> [ %37, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %vec.phi4 = phi <8 x i32> [ %38, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %step.add = add <8 x i64> %vec.ind, splat (i64 8)
  %29 = icmp sgt <8 x i64> %vec.ind, zeroinitializer
  %30 = icmp sgt <8 x i64> %step.add, zeroinitializer
  %31 = icmp slt <8 x i64> %vec.ind, %broadcast.splat
  %32 = icmp slt <8 x i64> %step.add, %broadcast.splat
  %33 = select <8 x i1> %29, <8 x i1> %31, <8 x i1> zeroinitializer
  %34 = select <8 x i1> %30, <8 x i1> %32, <8 x i1> zeroinitializer
  %35 = zext <8 x i1> %33 to <8 x i32>
  %36 = zext <8 x i1> %34 to <8 x i32>
  %37 = or <8 x i32> %vec.phi, %35
  %38 = or <8 x i32> %vec.phi4, %36
  %index.next = add nuw i64 %index, 16
  %vec.ind.next = add <8 x i64> %vec.ind, splat (i64 16)
  %39 = icmp eq i64 %index.next, %n.vec
  br i1 %39, label %middle.block, label %vector.body, !llvm.loop !6

middle.block:                                     ; preds = %vector.body
  %bin.rdx = or <8 x i32> %38, %37
  %40 = tail call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx)
  br i1 %cmp.n, label %wi0.head.wi0.end_crit_edge.us.us.us.thread85, label %vec.epilog.iter.check

vec.epilog.iter.check:                            ; preds = %middle.block
  br i1 %min.epilog.iters.check, label %wi0.body.us34.us.us.us.preheader, label %vec.epilog.ph, !prof !7

vec.epilog.ph:                                    ; preds = %vector.main.loop.iter.check, %vec.epilog.iter.check
  %vec.epilog.resume.val = phi i64 [ %n.vec, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %bc.resume.val = phi i64 [ %2, %vec.epilog.iter.check ], [ %.32, %vector.main.loop.iter.check ]
  %bc.merge.rdx = phi i32 [ %40, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %41 = insertelement <4 x i32> <i32 poison, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx, i64 0
  %broadcast.splatinsert9 = insertelement <4 x i64> poison, i64 %bc.resume.val, i64 0
  %broadcast.splat10 = shufflevector <4 x i64> %broadcast.splatinsert9, <4 x i64> poison, <4 x i32> zeroinitializer
  %induction11 = add nsw <4 x i64> %broadcast.splat10, <i64 0, i64 1, i64 2, i64 3>
  br label %vec.epilog.vector.body

vec.epilog.vector.body:                           ; preds = %vec.epilog.vector.body, %vec.epilog.ph
  %index12 = phi i64 [ %vec.epilog.resume.val, %vec.epilog.ph ], [ %index.next15, %vec.epilog.vector.body ]
  %vec.ind13 = phi <4 x i64> [ %induction11, %vec.epilog.ph ], [ %vec.ind.next16, %vec.epilog.vector.body ]
  %vec.phi14 = phi <4 x i32> [ %41, %vec.epilog.ph ], [ %46, %vec.epilog.vector.body ]
  %42 = icmp sgt <4 x i64> %vec.ind13, zeroinitializer
  %43 = icmp slt <4 x i64> %vec.ind13, %broadcast.splat8
  %44 = select <4 x i1> %42, <4 x i1> %43, <4 x i1> zeroinitializer
  %45 = zext <4 x i1> %44 to <4 x i32>
  %46 = or <4 x i32> %vec.phi14, %45
  %index.next15 = add nuw i64 %index12, 4
  %vec.ind.next16 = add nsw <4 x i64> %vec.ind13, splat (i64 4)
  %47 = icmp eq i64 %index.next15, %n.vec6
  br i1 %47, label %vec.epilog.middle.block, label %vec.epilog.vector.body, !llvm.loop !8

vec.epilog.middle.block:                          ; preds = %vec.epilog.vector.body
  %48 = tail call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %46)
  br i1 %cmp.n17, label %wi0.head.wi0.end_crit_edge.us.us.us.thread85, label %wi0.body.us34.us.us.us.preheader

wi0.body.us34.us.us.us.preheader:                 ; preds = %iter.check, %vec.epilog.iter.check, %vec.epilog.middle.block
  %wi033.us35.us.us.us.ph = phi i64 [ %.32, %iter.check ], [ %ind.end, %vec.epilog.iter.check ], [ %3, %vec.epilog.middle.block ]
  %row.bad.032.us36.us.us.us.ph = phi i32 [ 0, %iter.check ], [ %40, %vec.epilog.iter.check ], [ %48, %vec.epilog.middle.block ]
  br label %wi0.body.us34.us.us.us

wi0.head.wi0.end_crit_edge.us.us.us:              ; preds = %if.end.us.us.us, %middle.block40
  %row.bad.1.us.us.us.lcssa = phi i32 [ %28, %middle.block40 ], [ %row.bad.1.us.us.us, %if.end.us.us.us ]
  %.143.not.us.us.us = icmp eq i32 %row.bad.1.us.us.us.lcssa, 0
  br i1 %.143.not.us.us.us, label %wi0.end.endif.us.us.us, label %wi0.body.1.us49.us.us.preheader, !prof !9

wi0.head.wi0.end_crit_edge.us.us.us.thread85:     ; preds = %wi0.body.us34.us.us.us, %vec.epilog.middle.block, %middle.block
  %spec.select.lcssa = phi i32 [ %48, %vec.epilog.middle.block ], [ %40, %middle.block ], [ %spec.select, %wi0.body.us34.us.us.us ]
  %.143.not.us.us.us87 = icmp eq i32 %spec.select.lcssa, 0
  br i1 %.143.not.us.us.us87, label %wi0.end.endif.us.us.us, label %wi0.body.1.us49.us.us.preheader, !prof !9

wi0.body.us34.us.us.us:                           ; preds = %wi0.body.us34.us.us.us.preheader, %wi0.body.us34.us.us.us
  %wi033.us35.us.us.us = phi i64 [ %.140.us39.us.us.us, %wi0.body.us34.us.us.us ], [ %wi033.us35.us.us.us.ph, %wi0.body.us34.us.us.us.preheader ]
  %row.bad.032.us36.us.us.us = phi i32 [ %spec.select, %wi0.body.us34.us.us.us ], [ %row.bad.032.us36.us.us.us.ph, %wi0.body.us34.us.us.us.preheader ]
  %.78.us.us.us.us = icmp sgt i64 %wi033.us35.us.us.us, 0
  %.84.us.us.us.us = icmp slt i64 %wi033.us35.us.us.us, %.83
  %or.cond29.us.us.us.us = select i1 %.78.us.us.us.us, i1 %.84.us.us.us.us, i1 false
  %.130.us.us.us.us = zext i1 %or.cond29.us.us.us.us to i32
  %spec.select = or i32 %row.bad.032.us36.us.us.us, %.130.us.us.us.us
  %.140.us39.us.us.us = add nsw i64 %wi033.us35.us.us.us, 1
  %.52.us40.us.us.us = icmp slt i64 %.140.us39.us.us.us, %.37
  br i1 %.52.us40.us.us.us, label %wi0.body.us34.us.us.us, label %wi0.head.wi0.end_crit_edge.us.us.us.thread85, !llvm.loop !10

wi0.body.1.us49.us.us.preheader:                  ; preds = %wi0.head.wi0.end_crit_edge.us.us.us, %wi0.head.wi0.end_crit_edge.us.us.us.thread85
  %.218.us.us.us89 = icmp uge i64 %wi146.us.us.us, %.14
  br i1 %lcmp.mod.not, label %wi0.body.1.us49.us.us.prol.loopexit, label %wi0.body.1.us49.us.us.prol

wi0.body.1.us49.us.us.prol:                       ; preds = %wi0.body.1.us49.us.us.preheader
  %.220.not.us.us.us.prol = or i1 %.218.us.us.us89, %.219.us.us.us.prol
  %or.cond.prol = select i1 %or.cond30.us.us.us.prol, i1 %.220.not.us.us.us.prol, i1 false, !prof !0
  br i1 %or.cond.prol, label %if.then.1.if.us.us.us.prol, label %wi0.body.1.us49.us.us.prol.loopexit, !prof !0

if.then.1.if.us.us.us.prol:                       ; preds = %wi0.body.1.us49.us.us.prol
  %.223.us.us.us.prol = load i64, ptr %.18, align 8
  %.224.us.us.us.prol = icmp eq i64 %.223.us.us.us.prol, 0
  br i1 %.224.us.us.us.prol, label %if.then.1.if.if.us.us.us.prol, label %wi0.body.1.us49.us.us.prol.loopexit

if.then.1.if.if.us.us.us.prol:                    ; preds = %if.then.1.if.us.us.us.prol
  store i64 5, ptr %.18, align 8
  store i64 %wi146.us.us.us, ptr %.227, align 8
  store i64 %.32, ptr %.229, align 8
  br label %wi0.body.1.us49.us.us.prol.loopexit

wi0.body.1.us49.us.us.prol.loopexit:              ; preds = %wi0.body.1.us49.us.us.prol, %if.then.1.if.us.us.us.prol, %if.then.1.if.if.us.us.us.prol, %wi0.body.1.us49.us.us.preheader
  %wi0.144.us50.us.us.unr = phi i64 [ %.32, %wi0.body.1.us49.us.us.preheader ], [ %.238.us51.us.us.prol, %if.then.1.if.if.us.us.us.prol ], [ %.238.us51.us.us.prol, %if.then.1.if.us.us.us.prol ], [ %.238.us51.us.us.prol, %wi0.body.1.us49.us.us.prol ]
  br i1 %4, label %wi0.end.endif.us.us.us, label %wi0.body.1.us49.us.us

wi1.head.wi1.end_crit_edge.split.us.us.us:        ; preds = %wi0.end.endif.us.us.us
  %.245.us.us = add nsw i64 %wi269.us.us, 1
  %.45.us.us = icmp slt i64 %.245.us.us, %.43
  br i1 %.45.us.us, label %wi1.head.preheader.us.us, label %wi2.end

group.end:                                        ; preds = %wi2.end, %allocas
  ret void

wi2.end:                                          ; preds = %wi1.head.wi1.end_crit_edge.split.us.us.us, %group.body
  %.248 = add nsw i64 %group77, 1
  %exitcond.not = icmp eq i64 %.248, %.17
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
  %errrec = alloca [9 x i64], align 8
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(72) %errrec, i8 0, i64 72, i1 false)
  call fastcc void @jacobi5.groups(i64 %.7, i64 %.9, i64 %.11, i64 %.13, i64 %.15, i64 %.17, i64 %.19, i64 %.21, ptr %.25, i64 %.27, i64 %.29, ptr %.31, i64 %.33, i64 %.35, i64 %.2, i64 %.3, ptr %errrec)
  %.39 = load i64, ptr %errrec, align 8
  %.41 = load i64, ptr %.4, align 8
  %.42 = icmp ne i64 %.39, 0
  %.43 = icmp eq i64 %.41, 0
  %.44 = and i1 %.42, %.43
  br i1 %.44, label %entry.if, label %entry.endif, !prof !1

entry.if:                                         ; preds = %entry
  %.fca.5.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 40
  %.fca.1.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 8
  store i64 %.39, ptr %.4, align 8
  %.52 = getelementptr i8, ptr %.4, i64 8
  %0 = load <4 x i64>, ptr %.fca.1.gep, align 8
  store <4 x i64> %0, ptr %.52, align 8
  %.68 = getelementptr i8, ptr %.4, i64 40
  %1 = load <4 x i64>, ptr %.fca.5.gep, align 8
  store <4 x i64> %1, ptr %.68, align 8
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

!0 = !{!"branch_weights", i32 1, i32 199}
!1 = !{!"branch_weights", i32 1, i32 99}
!2 = distinct !{!2, !3, !4}
!3 = !{!"llvm.loop.unroll.runtime.disable"}
!4 = !{!"llvm.loop.isvectorized", i32 1}
!5 = distinct !{!5, !4, !3}
!6 = distinct !{!6, !4, !3}
!7 = !{!"branch_weights", i32 4, i32 12}
!8 = distinct !{!8, !4, !3}
!9 = !{!"branch_weights", i32 2104533976, i32 42949672}
!10 = distinct !{!10, !3, !4}
