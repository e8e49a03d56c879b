; gpuoff codegen golden: optimised LLVM IR for x86-64-v3, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define internal fastcc void @saxpy.groups(i64 %.1, i64 %.2, i64 %.3, i64 %.4, i64 %.5, i64 %.6, i64 %.7, i64 %.8, float %.10, ptr noalias readonly align 4 captures(none) %.11, i64 %.12, ptr noalias align 4 captures(none) %.13, i64 %.14, i64 %.15, i64 %.16, ptr noalias nonnull captures(none) %.17) unnamed_addr #0 {
allocas:
  %.2464 = icmp slt i64 %.15, %.16
  br i1 %.2464, label %group.body.lr.ph, label %group.end

group.body.lr.ph:                                 ; preds = %allocas
  %.121 = getelementptr i8, ptr %.17, i64 136
  %.132 = getelementptr i8, ptr %.17, i64 8
  %.134 = getelementptr i8, ptr %.17, i64 72
  %broadcast.splatinsert = insertelement <8 x i64> poison, i64 %.14, i64 0
  %broadcast.splat = shufflevector <8 x i64> %broadcast.splatinsert, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert2 = insertelement <8 x i64> poison, i64 %.12, i64 0
  %broadcast.splat3 = shufflevector <8 x i64> %broadcast.splatinsert2, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert4 = insertelement <8 x float> poison, float %.10, i64 0
  %broadcast.splat5 = shufflevector <8 x float> %broadcast.splatinsert4, <8 x float> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert17 = insertelement <8 x i64> poison, i64 %.14, i64 0
  %broadcast.splat18 = shufflevector <8 x i64> %broadcast.splatinsert17, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert19 = insertelement <8 x i64> poison, i64 %.12, i64 0
  %broadcast.splat20 = shufflevector <8 x i64> %broadcast.splatinsert19, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert21 = insertelement <8 x float> poison, float %.10, i64 0
  %broadcast.splat22 = shufflevector <8 x float> %broadcast.splatinsert21, <8 x float> poison, <8 x i32> zeroinitializer
  br label %group.body

group.body:                                       ; preds = %group.body.lr.ph, %wi2.end
  %group65 = phi i64 [ %.15, %group.body.lr.ph ], [ %.164, %wi2.end ]
  %.26 = urem i64 %group65, %.7
  %.27 = udiv i64 %group65, %.7
  %.28 = urem i64 %.27, %.8
  %.29 = udiv i64 %.27, %.8
  %.30 = mul i64 %.26, %.4
  %.31 = mul nsw i64 %.28, %.5
  %.32 = mul nsw i64 %.29, %.6
  %.33 = add i64 %.30, %.4
  %.35 = tail call i64 @llvm.smin.i64(i64 %.33, i64 %.1)
  %.36 = add nsw i64 %.31, %.5
  %.38 = tail call i64 @llvm.smin.i64(i64 %.36, i64 %.2)
  %.39 = add nsw i64 %.32, %.6
  %.41 = tail call i64 @llvm.smin.i64(i64 %.39, i64 %.3)
  %.4350 = icmp slt i64 %.32, %.41
  %.4614 = icmp slt i64 %.31, %.38
  %or.cond = select i1 %.4350, i1 %.4614, i1 false
  br i1 %or.cond, label %wi1.head.preheader.lr.ph.split.us, label %wi2.end

wi1.head.preheader.lr.ph.split.us:                ; preds = %group.body
  %.509 = icmp slt i64 %.30, %.35
  %.9512.fr = freeze i1 %.509
  br i1 %.9512.fr, label %wi1.head.preheader.us.us.us.preheader, label %wi2.end

wi1.head.preheader.us.us.us.preheader:            ; preds = %wi1.head.preheader.lr.ph.split.us
  %0 = add i64 %.30, 1
  %smax = tail call i64 @llvm.smax.i64(i64 %.35, i64 %0)
  %1 = sub i64 %smax, %.30
  %min.iters.check = icmp ult i64 %1, 8
  %min.iters.check1 = icmp ult i64 %1, 16
  %n.mod.vf = and i64 %1, 8
  %n.vec = and i64 %1, -16
  %2 = add i64 %.30, %n.vec
  %broadcast.splatinsert6 = insertelement <8 x i64> poison, i64 %.30, i64 0
  %broadcast.splat7 = shufflevector <8 x i64> %broadcast.splatinsert6, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction = add nsw <8 x i64> %broadcast.splat7, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %cmp.n = icmp eq i64 %1, %n.vec
  %ind.end = add i64 %.30, %n.vec
  %min.epilog.iters.check.not.not = icmp eq i64 %n.mod.vf, 0
  %n.vec16 = and i64 %1, -8
  %3 = add i64 %.30, %n.vec16
  %cmp.n35 = icmp eq i64 %1, %n.vec16
  %xtraiter = and i64 %1, 1
  %lcmp.mod.not = icmp eq i64 %xtraiter, 0
  %.109.us.us.us.us.us.prol = icmp sge i64 %.30, %.14
  %.113.not.us.us.us.us.us.prol = icmp ult i64 %.30, %.12
  %or.cond.us.us.us.us.us.prol = select i1 %.109.us.us.us.us.us.prol, i1 true, i1 %.113.not.us.us.us.us.us.prol, !prof !0
  %.154.us.us.us.us.us.prol = add nsw i64 %.30, 1
  %.not = icmp slt i64 %0, %.35
  br label %wi1.head.preheader.us.us.us

wi1.head.preheader.us.us.us:                      ; preds = %wi1.head.preheader.us.us.us.preheader, %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us
  %wi251.us.us.us = phi i64 [ %.161.us.us.us, %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us ], [ %.32, %wi1.head.preheader.us.us.us.preheader ]
  %.116.us.us.us = mul i64 %wi251.us.us.us, %.2
  br label %iter.check

iter.check:                                       ; preds = %wi0.end.endif.us.us.us.us.us, %wi1.head.preheader.us.us.us
  %wi115.us.us.us.us.us = phi i64 [ %.31, %wi1.head.preheader.us.us.us ], [ %.158.us.us.us.us.us, %wi0.end.endif.us.us.us.us.us ]
  br i1 %min.iters.check, label %wi0.body.us.us.us.us.us.preheader, label %vector.main.loop.iter.check

vector.main.loop.iter.check:                      ; preds = %iter.check
  br i1 %min.iters.check1, label %vec.epilog.ph, label %vector.body

vector.body:                                      ; preds = %vector.main.loop.iter.check, %vector.body
  %index = phi i64 [ %index.next, %vector.body ], [ 0, %vector.main.loop.iter.check ]
  %vec.ind = phi <8 x i64> [ %vec.ind.next, %vector.body ], [ %induction, %vector.main.loop.iter.check ]
  %vec.phi = phi <8 x i32> [ %predphi13, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %vec.phi8 = phi <8 x i32> [ %predphi14, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %step.add = add <8 x i64> %vec.ind, splat (i64 8)
  %4 = add i64 %.30, %index
  %5 = icmp slt <8 x i64> %vec.ind, %broadcast.splat
  %6 = icmp slt <8 x i64> %step.add, %broadcast.splat
  %7 = icmp uge <8 x i64> %vec.ind, %broadcast.splat3
  %8 = icmp uge <8 x i64> %step.add, %broadcast.splat3
  %9 = xor <8 x i1> %7, splat (i1 true)
  %10 = xor <8 x i1> %8, splat (i1 true)
  %11 = select <8 x i1> %5, <8 x i1> %9, <8 x i1> zeroinitializer
  %12 = select <8 x i1> %6, <8 x i1> %10, <8 x i1> zeroinitializer
  %13 = getelementptr float, ptr %.11, i64 %4
  %14 = getelementptr i8, ptr %13, i64 32
  %wide.masked.load = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %13, <8 x i1> %11, <8 x float> zeroinitializer)
  %wide.masked.load9 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %14, <8 x i1> %12, <8 x float> zeroinitializer)
  %15 = fmul <8 x float> %broadcast.splat5, %wide.masked.load
  %16 = fmul <8 x float> %broadcast.splat5, %wide.masked.load9
  %17 = getelementptr float, ptr %.13, i64 %4
  %18 = getelementptr i8, ptr %17, i64 32
  %wide.masked.load11 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %17, <8 x i1> %5, <8 x float> poison)
  %wide.masked.load12 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %18, <8 x i1> %6, <8 x float> poison)
  %19 = fadd <8 x float> %15, %wide.masked.load11
  %20 = fadd <8 x float> %16, %wide.masked.load12
  tail call void @llvm.masked.store.v8f32.p0(<8 x float> %19, ptr align 4 %17, <8 x i1> %5)
  tail call void @llvm.masked.store.v8f32.p0(<8 x float> %20, ptr align 4 %18, <8 x i1> %6)
  %narrow = select <8 x i1> %5, <8 x i1> %7, <8 x i1> zeroinitializer
  %21 = zext <8 x i1> %narrow to <8 x i32>
  %predphi13 = or <8 x i32> %vec.phi, %21
  %narrow38 = select <8 x i1> %6, <8 x i1> %8, <8 x i1> zeroinitializer
  %22 = zext <8 x i1> %narrow38 to <8 x i32>
  %predphi14 = or <8 x i32> %vec.phi8, %22
  %index.next = add nuw i64 %index, 16
  %vec.ind.next = add <8 x i64> %vec.ind, splat (i64 16)
  %23 = icmp eq i64 %index.next, %n.vec
  br i1 %23, label %middle.block, label %vector.body, !llvm.loop !1

middle.block:                                     ; preds = %vector.body
  %bin.rdx = or <8 x i32> %predphi14, %predphi13
  %24 = tail call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx)
  br i1 %cmp.n, label %wi0.head.wi0.end_crit_edge.us.us.us.us.us, label %vec.epilog.iter.check

vec.epilog.iter.check:                            ; preds = %middle.block
  br i1 %min.epilog.iters.check.not.not, label %wi0.body.us.us.us.us.us.preheader, label %vec.epilog.ph, !prof !4

vec.epilog.ph:                                    ; preds = %vector.main.loop.iter.check, %vec.epilog.iter.check
  %vec.epilog.resume.val = phi i64 [ %n.vec, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %bc.resume.val = phi i64 [ %2, %vec.epilog.iter.check ], [ %.30, %vector.main.loop.iter.check ]
  %bc.merge.rdx = phi i32 [ %24, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %25 = insertelement <8 x i32> <i32 poison, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx, i64 0
  %broadcast.splatinsert23 = insertelement <8 x i64> poison, i64 %bc.resume.val, i64 0
  %broadcast.splat24 = shufflevector <8 x i64> %broadcast.splatinsert23, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction25 = add nsw <8 x i64> %broadcast.splat24, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  br label %vec.epilog.vector.body

vec.epilog.vector.body:                           ; preds = %vec.epilog.vector.body, %vec.epilog.ph
  %index26 = phi i64 [ %vec.epilog.resume.val, %vec.epilog.ph ], [ %index.next33, %vec.epilog.vector.body ]
  %vec.ind27 = phi <8 x i64> [ %induction25, %vec.epilog.ph ], [ %vec.ind.next34, %vec.epilog.vector.body ]
  %vec.phi28 = phi <8 x i32> [ %25, %vec.epilog.ph ], [ %predphi32, %vec.epilog.vector.body ]
  %offset.idx = add i64 %.30, %index26
  %26 = icmp slt <8 x i64> %vec.ind27, %broadcast.splat18
  %27 = icmp uge <8 x i64> %vec.ind27, %broadcast.splat20
  %28 = xor <8 x i1> %27, splat (i1 true)
  %29 = select <8 x i1> %26, <8 x i1> %28, <8 x i1> zeroinitializer
  %30 = getelementptr float, ptr %.11, i64 %offset.idx
  %wide.masked.load29 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %30, <8 x i1> %29, <8 x float> zeroinitializer)
  %31 = fmul <8 x float> %broadcast.splat22, %wide.masked.load29
  %32 = getelementptr float, ptr %.13, i64 %offset.idx
  %wide.masked.load31 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %32, <8 x i1> %26, <8 x float> poison)
  %33 = fadd <8 x float> %31, %wide.masked.load31
  tail call void @llvm.masked.store.v8f32.p0(<8 x float> %33, ptr align 4 %32, <8 x i1> %26)
  %narrow39 = select <8 x i1> %26, <8 x i1> %27, <8 x i1> zeroinitializer
  %34 = zext <8 x i1> %narrow39 to <8 x i32>
  %predphi32 = or <8 x i32> %vec.phi28, %34
  %index.next33 = add nuw i64 %index26, 8
  %vec.ind.next34 = add nsw <8 x i64> %vec.ind27, splat (i64 8)
  %35 = icmp eq i64 %index.next33, %n.vec16
  br i1 %35, label %vec.epilog.middle.block, label %vec.epilog.vector.body, !llvm.loop !5

vec.epilog.middle.block:                          ; preds = %vec.epilog.vector.body
  %36 = tail call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %predphi32)
  br i1 %cmp.n35, label %wi0.head.wi0.end_crit_edge.us.us.us.us.us, label %wi0.body.us.us.us.us.us.preheader

wi0.body.us.us.us.us.us.preheader:                ; preds = %iter.check, %vec.epilog.iter.check, %vec.epilog.middle.block
  %wi011.us.us.us.us.us.ph = phi i64 [ %.30, %iter.check ], [ %ind.end, %vec.epilog.iter.check ], [ %3, %vec.epilog.middle.block ]
  %row.bad.010.us.us.us.us.us.ph = phi i32 [ 0, %iter.check ], [ %24, %vec.epilog.iter.check ], [ %36, %vec.epilog.middle.block ]
  br label %wi0.body.us.us.us.us.us

wi0.body.1.us.us.us.us.us:                        ; preds = %wi0.body.1.us.us.us.us.us.prol.loopexit, %if.end.1.us.us.us.us.us.1
  %wi0.113.us.us.us.us.us = phi i64 [ %.154.us.us.us.us.us.1, %if.end.1.us.us.us.us.us.1 ], [ %wi0.113.us.us.us.us.us.unr, %wi0.body.1.us.us.us.us.us.prol.loopexit ]
  %.109.us.us.us.us.us = icmp sge i64 %wi0.113.us.us.us.us.us, %.14
  %.113.not.us.us.us.us.us = icmp ult i64 %wi0.113.us.us.us.us.us, %.12
  %or.cond.us.us.us.us.us = select i1 %.109.us.us.us.us.us, i1 true, i1 %.113.not.us.us.us.us.us, !prof !0
  br i1 %or.cond.us.us.us.us.us, label %if.end.1.us.us.us.us.us, label %if.then.1.if.us.us.us.us.us, !prof !0

if.then.1.if.us.us.us.us.us:                      ; preds = %wi0.body.1.us.us.us.us.us
  %.119.us.us.us.us.us = add i64 %wi0.113.us.us.us.us.us, %.118.us.us.us.us.us
  %.120.us.us.us.us.us = load i64, ptr %.17, align 8
  %.122.us.us.us.us.us = load i64, ptr %.121, align 8
  %.123.us.us.us.us.us = icmp eq i64 %.120.us.us.us.us.us, 0
  %.124.us.us.us.us.us = icmp ult i64 %.119.us.us.us.us.us, %.122.us.us.us.us.us
  %.125.us.us.us.us.us = icmp eq i64 %.119.us.us.us.us.us, %.122.us.us.us.us.us
  %.126.us.us.us.us.us = icmp ugt i64 %.120.us.us.us.us.us, 1
  %.127.us.us.us.us.us = and i1 %.126.us.us.us.us.us, %.125.us.us.us.us.us
  %.128.us.us.us.us.us = or i1 %.124.us.us.us.us.us, %.127.us.us.us.us.us
  %.129.us.us.us.us.us = or i1 %.123.us.us.us.us.us, %.128.us.us.us.us.us
  br i1 %.129.us.us.us.us.us, label %if.then.1.if.if.us.us.us.us.us, label %if.end.1.us.us.us.us.us

if.then.1.if.if.us.us.us.us.us:                   ; preds = %if.then.1.if.us.us.us.us.us
  store i64 1, ptr %.17, align 8
  store i64 %wi0.113.us.us.us.us.us, ptr %.132, align 8
  store i64 %.12, ptr %.134, align 8
  store i64 %.119.us.us.us.us.us, ptr %.121, align 8
  br label %if.end.1.us.us.us.us.us

if.end.1.us.us.us.us.us:                          ; preds = %if.then.1.if.if.us.us.us.us.us, %if.then.1.if.us.us.us.us.us, %wi0.body.1.us.us.us.us.us
  %.154.us.us.us.us.us = add nsw i64 %wi0.113.us.us.us.us.us, 1
  %.109.us.us.us.us.us.1 = icmp sge i64 %.154.us.us.us.us.us, %.14
  %.113.not.us.us.us.us.us.1 = icmp ult i64 %.154.us.us.us.us.us, %.12
  %or.cond.us.us.us.us.us.1 = select i1 %.109.us.us.us.us.us.1, i1 true, i1 %.113.not.us.us.us.us.us.1, !prof !0
  br i1 %or.cond.us.us.us.us.us.1, label %if.end.1.us.us.us.us.us.1, label %if.then.1.if.us.us.us.us.us.1, !prof !0

if.then.1.if.us.us.us.us.us.1:                    ; preds = %if.end.1.us.us.us.us.us
  %.119.us.us.us.us.us.1 = add i64 %.154.us.us.us.us.us, %.118.us.us.us.us.us
  %.120.us.us.us.us.us.1 = load i64, ptr %.17, align 8
  %.122.us.us.us.us.us.1 = load i64, ptr %.121, align 8
  %.123.us.us.us.us.us.1 = icmp eq i64 %.120.us.us.us.us.us.1, 0
  %.124.us.us.us.us.us.1 = icmp ult i64 %.119.us.us.us.us.us.1, %.122.us.us.us.us.us.1
  %.125.us.us.us.us.us.1 = icmp eq i64 %.119.us.us.us.us.us.1, %.122.us.us.us.us.us.1
  %.126.us.us.us.us.us.1 = icmp ugt i64 %.120.us.us.us.us.us.1, 1
  %.127.us.us.us.us.us.1 = and i1 %.126.us.us.us.us.us.1, %.125.us.us.us.us.us.1
  %.128.us.us.us.us.us.1 = or i1 %.124.us.us.us.us.us.1, %.127.us.us.us.us.us.1
  %.129.us.us.us.us.us.1 = or i1 %.123.us.us.us.us.us.1, %.128.us.us.us.us.us.1
  br i1 %.129.us.us.us.us.us.1, label %if.then.1.if.if.us.us.us.us.us.1, label %if.end.1.us.us.us.us.us.1

if.then.1.if.if.us.us.us.us.us.1:                 ; preds = %if.then.1.if.us.us.us.us.us.1
  store i64 1, ptr %.17, align 8
  store i64 %.154.us.us.us.us.us, ptr %.132, align 8
  store i64 %.12, ptr %.134, align 8
  store i64 %.119.us.us.us.us.us.1, ptr %.121, align 8
  br label %if.end.1.us.us.us.us.us.1

if.end.1.us.us.us.us.us.1:                        ; preds = %if.then.1.if.if.us.us.us.us.us.1, %if.then.1.if.us.us.us.us.us.1, %if.end.1.us.us.us.us.us
  %.154.us.us.us.us.us.1 = add nsw i64 %wi0.113.us.us.us.us.us, 2
  %.95.us.us.us.us.us.1 = icmp slt i64 %.154.us.us.us.us.us.1, %.35
  br i1 %.95.us.us.us.us.us.1, label %wi0.body.1.us.us.us.us.us, label %wi0.end.endif.us.us.us.us.us

wi0.end.endif.us.us.us.us.us:                     ; preds = %wi0.body.1.us.us.us.us.us.prol.loopexit, %if.end.1.us.us.us.us.us.1, %wi0.head.wi0.end_crit_edge.us.us.us.us.us
  %.158.us.us.us.us.us = add nsw i64 %wi115.us.us.us.us.us, 1
  %.46.us.us.us.us.us = icmp slt i64 %.158.us.us.us.us.us, %.38
  br i1 %.46.us.us.us.us.us, label %iter.check, label %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us

wi0.body.us.us.us.us.us:                          ; preds = %wi0.body.us.us.us.us.us.preheader, %if.end.us.us.us.us.us
  %wi011.us.us.us.us.us = phi i64 [ %.89.us.us.us.us.us, %if.end.us.us.us.us.us ], [ %wi011.us.us.us.us.us.ph, %wi0.body.us.us.us.us.us.preheader ]
  %row.bad.010.us.us.us.us.us = phi i32 [ %row.bad.1.us.us.us.us.us, %if.end.us.us.us.us.us ], [ %row.bad.010.us.us.us.us.us.ph, %wi0.body.us.us.us.us.us.preheader ]
  %.64.us.us.us.us.us = icmp slt i64 %wi011.us.us.us.us.us, %.14
  br i1 %.64.us.us.us.us.us, label %if.then.us.us.us.us.us, label %if.end.us.us.us.us.us

if.then.us.us.us.us.us:                           ; preds = %wi0.body.us.us.us.us.us
  %.68.us.us.us.us.us = icmp uge i64 %wi011.us.us.us.us.us, %.12
  %.71.us.us.us.us.us = zext i1 %.68.us.us.us.us.us to i32
  %.72.us.us.us.us.us = or i32 %row.bad.010.us.us.us.us.us, %.71.us.us.us.us.us
  br i1 %.68.us.us.us.us.us, label %load.end.us.us.us.us.us, label %load.ok.us.us.us.us.us

load.ok.us.us.us.us.us:                           ; preds = %if.then.us.us.us.us.us
  %.74.us.us.us.us.us = getelementptr float, ptr %.11, i64 %wi011.us.us.us.us.us
  %.76.us.us.us.us.us = load float, ptr %.74.us.us.us.us.us, align 4
  br label %load.end.us.us.us.us.us

load.end.us.us.us.us.us:                          ; preds = %load.ok.us.us.us.us.us, %if.then.us.us.us.us.us
  %.78.us.us.us.us.us = phi float [ %.76.us.us.us.us.us, %load.ok.us.us.us.us.us ], [ 0.000000e+00, %if.then.us.us.us.us.us ]
  %.79.us.us.us.us.us = fmul float %.10, %.78.us.us.us.us.us
  %.81.us.us.us.us.us = getelementptr float, ptr %.13, i64 %wi011.us.us.us.us.us
  %.82.us.us.us.us.us = load float, ptr %.81.us.us.us.us.us, align 4
  %.83.us.us.us.us.us = fadd float %.79.us.us.us.us.us, %.82.us.us.us.us.us
  store float %.83.us.us.us.us.us, ptr %.81.us.us.us.us.us, align 4
  br label %if.end.us.us.us.us.us

if.end.us.us.us.us.us:                            ; preds = %load.end.us.us.us.us.us, %wi0.body.us.us.us.us.us
  %row.bad.1.us.us.us.us.us = phi i32 [ %.72.us.us.us.us.us, %load.end.us.us.us.us.us ], [ %row.bad.010.us.us.us.us.us, %wi0.body.us.us.us.us.us ]
  %.89.us.us.us.us.us = add nsw i64 %wi011.us.us.us.us.us, 1
  %.50.us.us.us.us.us = icmp slt i64 %.89.us.us.us.us.us, %.35
  br i1 %.50.us.us.us.us.us, label %wi0.body.us.us.us.us.us, label %wi0.head.wi0.end_crit_edge.us.us.us.us.us, !llvm.loop !6

wi0.head.1.preheader.us.us.us.us.us:              ; preds = %wi0.head.wi0.end_crit_edge.us.us.us.us.us
  %.117.us.us.us.us.us = add i64 %wi115.us.us.us.us.us, %.116.us.us.us
  %.118.us.us.us.us.us = mul i64 %.117.us.us.us.us.us, %.1
  %brmerge = select i1 %lcmp.mod.not, i1 true, i1 %or.cond.us.us.us.us.us.prol, !prof !7
  %.30.mux = select i1 %lcmp.mod.not, i64 %.30, i64 %.154.us.us.us.us.us.prol, !prof !7
  br i1 %brmerge, label %wi0.body.1.us.us.us.us.us.prol.loopexit, label %if.then.1.if.us.us.us.us.us.prol, !prof !8

if.then.1.if.us.us.us.us.us.prol:                 ; preds = %wi0.head.1.preheader.us.us.us.us.us
  %.119.us.us.us.us.us.prol = add i64 %.30, %.118.us.us.us.us.us
  %.120.us.us.us.us.us.prol = load i64, ptr %.17, align 8
  %.122.us.us.us.us.us.prol = load i64, ptr %.121, align 8
  %.123.us.us.us.us.us.prol = icmp eq i64 %.120.us.us.us.us.us.prol, 0
  %.124.us.us.us.us.us.prol = icmp ult i64 %.119.us.us.us.us.us.prol, %.122.us.us.us.us.us.prol
  %.125.us.us.us.us.us.prol = icmp eq i64 %.119.us.us.us.us.us.prol, %.122.us.us.us.us.us.prol
  %.126.us.us.us.us.us.prol = icmp ugt i64 %.120.us.us.us.us.us.prol, 1
  %.127.us.us.us.us.us.prol = and i1 %.126.us.us.us.us.us.prol, %.125.us.us.us.us.us.prol
  %.128.us.us.us.us.us.prol = or i1 %.124.us.us.us.us.us.prol, %.127.us.us.us.us.us.prol
  %.129.us.us.us.us.us.prol = or i1 %.123.us.us.us.us.us.prol, %.128.us.us.us.us.us.prol
  br i1 %.129.us.us.us.us.us.prol, label %if.then.1.if.if.us.us.us.us.us.prol, label %wi0.body.1.us.us.us.us.us.prol.loopexit

if.then.1.if.if.us.us.us.us.us.prol:              ; preds = %if.then.1.if.us.us.us.us.us.prol
  store i64 1, ptr %.17, align 8
  store i64 %.30, ptr %.132, align 8
  store i64 %.12, ptr %.134, align 8
  store i64 %.119.us.us.us.us.us.prol, ptr %.121, align 8
  br label %wi0.body.1.us.us.us.us.us.prol.loopexit

wi0.body.1.us.us.us.us.us.prol.loopexit:          ; preds = %wi0.head.1.preheader.us.us.us.us.us, %if.then.1.if.us.us.us.us.us.prol, %if.then.1.if.if.us.us.us.us.us.prol
  %wi0.113.us.us.us.us.us.unr = phi i64 [ %.30.mux, %wi0.head.1.preheader.us.us.us.us.us ], [ %.154.us.us.us.us.us.prol, %if.then.1.if.if.us.us.us.us.us.prol ], [ %.154.us.us.us.us.us.prol, %if.then.1.if.us.us.us.us.us.prol ]
  br i1 %.not, label %wi0.body.1.us.us.us.us.us, label %wi0.end.endif.us.us.us.us.us

wi0.head.wi0.end_crit_edge.us.us.us.us.us:        ; preds = %if.end.us.us.us.us.us, %vec.epilog.middle.block, %middle.block
  %row.bad.1.us.us.us.us.us.lcssa = phi i32 [ %36, %vec.epilog.middle.block ], [ %24, %middle.block ], [ %row.bad.1.us.us.us.us.us, %if.end.us.us.us.us.us ]
  %.92.not.us.us.us.us.us = icmp eq i32 %row.bad.1.us.us.us.us.us.lcssa, 0
  br i1 %.92.not.us.us.us.us.us, label %wi0.end.endif.us.us.us.us.us, label %wi0.head.1.preheader.us.us.us.us.us, !prof !9

wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us: ; preds = %wi0.end.endif.us.us.us.us.us
  %.161.us.us.us = add nsw i64 %wi251.us.us.us, 1
  %.43.us.us.us = icmp slt i64 %.161.us.us.us, %.41
  br i1 %.43.us.us.us, label %wi1.head.preheader.us.us.us, label %wi2.end

group.end:                                        ; preds = %wi2.end, %allocas
  ret void

wi2.end:                                          ; preds = %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us, %wi1.head.preheader.lr.ph.split.us, %group.body
  %.164 = add nsw i64 %group65, 1
  %exitcond.not = icmp eq i64 %.164, %.16
  br i1 %exitcond.not, label %group.end, label %group.body
}

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define void @saxpy__gpuoff_entry(ptr readonly captures(none) %.1, i64 %.2, i64 %.3, ptr captures(none) %.4) local_unnamed_addr #1 {
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
  %.25 = load float, ptr %.24, align 8
  %.26 = getelementptr i8, ptr %.1, i64 80
  %.27 = load ptr, ptr %.26, align 8
  %.28 = getelementptr i8, ptr %.1, i64 88
  %.29 = load i64, ptr %.28, align 8
  %.30 = getelementptr i8, ptr %.1, i64 104
  %.31 = load ptr, ptr %.30, align 8
  %.32 = getelementptr i8, ptr %.1, i64 112
  %.33 = load i64, ptr %.32, align 8
  %errrec = alloca [18 x i64], align 8
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(144) %errrec, i8 0, i64 144, i1 false)
  call fastcc void @saxpy.groups(i64 %.7, i64 %.9, i64 %.11, i64 %.13, i64 %.15, i64 %.17, i64 %.19, i64 %.21, float %.25, ptr %.27, i64 %.29, ptr %.31, i64 %.33, i64 %.2, i64 %.3, ptr %errrec)
  %.37 = load i64, ptr %errrec, align 8
  %.39 = load i64, ptr %.4, align 8
  %.40 = icmp ne i64 %.37, 0
  %.41 = icmp eq i64 %.39, 0
  %.42 = and i1 %.40, %.41
  br i1 %.42, label %entry.if, label %entry.endif, !prof !10

entry.if:                                         ; preds = %entry
  %.fca.17.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 136
  %.fca.13.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 104
  %.fca.9.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 72
  %.fca.5.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 40
  %.fca.1.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 8
  store i64 %.37, ptr %.4, align 8
  %.50 = getelementptr i8, ptr %.4, i64 8
  %0 = load <4 x i64>, ptr %.fca.1.gep, align 8
  store <4 x i64> %0, ptr %.50, align 8
  %.66 = getelementptr i8, ptr %.4, i64 40
  %1 = load <4 x i64>, ptr %.fca.5.gep, align 8
  store <4 x i64> %1, ptr %.66, align 8
  %.82 = getelementptr i8, ptr %.4, i64 72
  %2 = load <4 x i64>, ptr %.fca.9.gep, align 8
  store <4 x i64> %2, ptr %.82, align 8
  %.98 = getelementptr i8, ptr %.4, i64 104
  %3 = load <4 x i64>, ptr %.fca.13.gep, align 8
  store <4 x i64> %3, ptr %.98, align 8
  %.113 = load i64, ptr %.fca.17.gep, align 8
  %.114 = getelementptr i8, ptr %.4, i64 136
  store i64 %.113, ptr %.114, align 8
  br label %entry.endif

entry.endif:                                      ; preds = %entry.if, %entry
  ret void
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smax.i64(i64, i64) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: read)
declare <8 x float> @llvm.masked.load.v8f32.p0(ptr captures(none), <8 x i1>, <8 x float>) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: write)
declare void @llvm.masked.store.v8f32.p0(<8 x float>, ptr captures(none), <8 x i1>) #5

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.or.v8i32(<8 x i32>) #6

attributes #0 = { nofree noinline norecurse nosync nounwind memory(argmem: readwrite) }
attributes #1 = { nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(argmem: read) }
attributes #5 = { nocallback nofree nosync nounwind willreturn memory(argmem: write) }
attributes #6 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!0 = !{!"branch_weights", i32 199, i32 1}
!1 = distinct !{!1, !2, !3}
!2 = !{!"llvm.loop.isvectorized", i32 1}
!3 = !{!"llvm.loop.unroll.runtime.disable"}
!4 = !{!"branch_weights", i32 8, i32 8}
!5 = distinct !{!5, !2, !3}
!6 = distinct !{!6, !3, !2}
!7 = !{!"branch_weights", i32 1, i32 1}
!8 = !{!"branch_weights", i32 399, i32 1}
!9 = !{!"branch_weights", i32 99, i32 1}
!10 = !{!"branch_weights", i32 1, i32 99}
