; gpuoff codegen golden: optimised LLVM IR for x86-64-v3, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define internal fastcc void @saxpy.groups(i64 %.1, i64 %.2, i64 %.3, i64 %.4, i64 %.5, i64 %.6, i64 %.7, i64 %.8, float %.10, ptr noalias readonly align 4 captures(none) %.11, i64 %.12, ptr noalias align 4 captures(none) %.13, i64 %.14, i64 %.15, i64 %.16, ptr noalias nonnull captures(none) %.17) unnamed_addr #0 {
allocas:
  %.2424 = icmp slt i64 %.15, %.16
  br i1 %.2424, label %group.body.lr.ph, label %group.end

group.body.lr.ph:                                 ; preds = %allocas
  %.120 = getelementptr i8, ptr %.17, i64 8
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
  %group25 = phi i64 [ %.15, %group.body.lr.ph ], [ %.148, %wi2.end ]
  %.26 = urem i64 %group25, %.7
  %.27 = udiv i64 %group25, %.7
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
  %.4316 = icmp slt i64 %.32, %.41
  %.4614 = icmp slt i64 %.31, %.38
  %or.cond = select i1 %.4316, i1 %.4614, i1 false
  %.9512 = icmp slt i64 %.30, %.35
  %or.cond29 = select i1 %or.cond, i1 %.9512, i1 false
  br i1 %or.cond29, label %wi1.head.preheader.us.us.us.preheader, label %wi2.end

wi1.head.preheader.us.us.us.preheader:            ; preds = %group.body
  %0 = sub i64 %.35, %.30
  %min.iters.check = icmp ult i64 %0, 8
  %min.iters.check1 = icmp ult i64 %0, 16
  %n.mod.vf = and i64 %0, 8
  %n.vec = and i64 %0, -16
  %1 = add i64 %.30, %n.vec
  %broadcast.splatinsert6 = insertelement <8 x i64> poison, i64 %.30, i64 0
  %broadcast.splat7 = shufflevector <8 x i64> %broadcast.splatinsert6, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction = add nsw <8 x i64> %broadcast.splat7, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %cmp.n = icmp eq i64 %0, %n.vec
  %ind.end = add i64 %.30, %n.vec
  %min.epilog.iters.check.not.not = icmp eq i64 %n.mod.vf, 0
  %n.vec16 = and i64 %0, -8
  %2 = add i64 %.30, %n.vec16
  %cmp.n35 = icmp eq i64 %0, %n.vec16
  %xtraiter = and i64 %0, 3
  %lcmp.mod.not = icmp eq i64 %xtraiter, 0
  %3 = sub i64 %.30, %.35
  %4 = icmp ugt i64 %3, -4
  br label %wi1.head.preheader.us.us.us

wi1.head.preheader.us.us.us:                      ; preds = %wi1.head.preheader.us.us.us.preheader, %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us
  %wi217.us.us.us = phi i64 [ %.145.us.us.us, %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us ], [ %.32, %wi1.head.preheader.us.us.us.preheader ]
  br label %iter.check

iter.check:                                       ; preds = %wi0.end.endif.us.us.us.us.us, %wi1.head.preheader.us.us.us
  %wi115.us.us.us.us.us = phi i64 [ %.31, %wi1.head.preheader.us.us.us ], [ %.142.us.us.us.us.us, %wi0.end.endif.us.us.us.us.us ]
  br i1 %min.iters.check, label %wi0.body.us.us.us.us.us.preheader, label %vector.main.loop.iter.check

vector.main.loop.iter.check:                      ; preds = %iter.check
  br i1 %min.iters.check1, label %vec.epilog.ph, label %vector.body

vector.body:                                      ; preds = %vector.main.loop.iter.check, %vector.body
  %index = phi i64 [ %index.next, %vector.body ], [ 0, %vector.main.loop.iter.check ]
  %vec.ind = phi <8 x i64> [ %vec.ind.next, %vector.body ], [ %induction, %vector.main.loop.iter.check ]
  %vec.phi = phi <8 x i32> [ %predphi13, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %vec.phi8 = phi <8 x i32> [ %predphi14, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %step.add = add <8 x i64> %vec.ind, splat (i64 8)
  %5 = add i64 %.30, %index
  %6 = icmp slt <8 x i64> %vec.ind, %broadcast.splat
  %7 = icmp slt <8 x i64> %step.add, %broadcast.splat
  %8 = icmp uge <8 x i64> %vec.ind, %broadcast.splat3
  %9 = icmp uge <8 x i64> %step.add, %broadcast.splat3
  %10 = xor <8 x i1> %8, splat (i1 true)
  %11 = xor <8 x i1> %9, splat (i1 true)
  %12 = select <8 x i1> %6, <8 x i1> %10, <8 x i1> zeroinitializer
  %13 = select <8 x i1> %7, <8 x i1> %11, <8 x i1> zeroinitializer
  %14 = getelementptr float, ptr %.11, i64 %5
  %15 = getelementptr i8, ptr %14, i64 32
  %wide.masked.load = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %14, <8 x i1> %12, <8 x float> zeroinitializer)
  %wide.masked.load9 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %15, <8 x i1> %13, <8 x float> zeroinitializer)
  %16 = fmul <8 x float> %broadcast.splat5, %wide.masked.load
  %17 = fmul <8 x float> %broadcast.splat5, %wide.masked.load9
  %18 = getelementptr float, ptr %.13, i64 %5
  %19 = getelementptr i8, ptr %18, i64 32
  %wide.masked.load11 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %18, <8 x i1> %6, <8 x float> poison)
  %wide.masked.load12 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %19, <8 x i1> %7, <8 x float> poison)
  %20 = fadd <8 x float> %16, %wide.masked.load11
  %21 = fadd <8 x float> %17, %wide.masked.load12
  tail call void @llvm.masked.store.v8f32.p0(<8 x float> %20, ptr align 4 %18, <8 x i1> %6)
  tail call void @llvm.masked.store.v8f32.p0(<8 x float> %21, ptr align 4 %19, <8 x i1> %7)
  %narrow = select <8 x i1> %6, <8 x i1> %8, <8 x i1> zeroinitializer
  %22 = zext <8 x i1> %narrow to <8 x i32>
  %predphi13 = or <8 x i32> %vec.phi, %22
  %narrow38 = select <8 x i1> %7, <8 x i1> %9, <8 x i1> zeroinitializer
  %23 = zext <8 x i1> %narrow38 to <8 x i32>
  %predphi14 = or <8 x i32> %vec.phi8, %23
  %index.next = add nuw i64 %index, 16
  %vec.ind.next = add <8 x i64> %vec.ind, splat (i64 16)
  %24 = icmp eq i64 %index.next, %n.vec
  br i1 %24, label %middle.block, label %vector.body, !llvm.loop !0

middle.block:                                     ; preds = %vector.body
  %bin.rdx = or <8 x i32> %predphi14, %predphi13
  %25 = tail call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx)
  br i1 %cmp.n, label %wi0.head.wi0.end_crit_edge.us.us.us.us.us, label %vec.epilog.iter.check

vec.epilog.iter.check:                            ; preds = %middle.block
  br i1 %min.epilog.iters.check.not.not, label %wi0.body.us.us.us.us.us.preheader, label %vec.epilog.ph, !prof !3

vec.epilog.ph:                                    ; preds = %vector.main.loop.iter.check, %vec.epilog.iter.check
  %vec.epilog.resume.val = phi i64 [ %n.vec, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %bc.resume.val = phi i64 [ %1, %vec.epilog.iter.check ], [ %.30, %vector.main.loop.iter.check ]
  %bc.merge.rdx = phi i32 [ %25, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %26 = insertelement <8 x i32> <i32 poison, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx, i64 0
  %broadcast.splatinsert23 = insertelement <8 x i64> poison, i64 %bc.resume.val, i64 0
  %broadcast.splat24 = shufflevector <8 x i64> %broadcast.splatinsert23, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction25 = add nsw <8 x i64> %broadcast.splat24, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  br label %vec.epilog.vector.body

vec.epilog.vector.body:                           ; preds = %vec.epilog.vector.body, %vec.epilog.ph
  %index26 = phi i64 [ %vec.epilog.resume.val, %vec.epilog.ph ], [ %index.next33, %vec.epilog.vector.body ]
  %vec.ind27 = phi <8 x i64> [ %induction25, %vec.epilog.ph ], [ %vec.ind.next34, %vec.epilog.vector.body ]
  %vec.phi28 = phi <8 x i32> [ %26, %vec.epilog.ph ], [ %predphi32, %vec.epilog.vector.body ]
  %offset.idx = add i64 %.30, %index26
  %27 = icmp slt <8 x i64> %vec.ind27, %broadcast.splat18
  %28 = icmp uge <8 x i64> %vec.ind27, %broadcast.splat20
  %29 = xor <8 x i1> %28, splat (i1 true)
  %30 = select <8 x i1> %27, <8 x i1> %29, <8 x i1> zeroinitializer
  %31 = getelementptr float, ptr %.11, i64 %offset.idx
  %wide.masked.load29 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %31, <8 x i1> %30, <8 x float> zeroinitializer)
  %32 = fmul <8 x float> %broadcast.splat22, %wide.masked.load29
  %33 = getelementptr float, ptr %.13, i64 %offset.idx
  %wide.masked.load31 = tail call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %33, <8 x i1> %27, <8 x float> poison)
  %34 = fadd <8 x float> %32, %wide.masked.load31
  tail call void @llvm.masked.store.v8f32.p0(<8 x float> %34, ptr align 4 %33, <8 x i1> %27)
  %narrow39 = select <8 x i1> %27, <8 x i1> %28, <8 x i1> zeroinitializer
  %35 = zext <8 x i1> %narrow39 to <8 x i32>
  %predphi32 = or <8 x i32> %vec.phi28, %35
  %index.next33 = add nuw i64 %index26, 8
  %vec.ind.next34 = add nsw <8 x i64> %vec.ind27, splat (i64 8)
  %36 = icmp eq i64 %index.next33, %n.vec16
  br i1 %36, label %vec.epilog.middle.block, label %vec.epilog.vector.body, !llvm.loop !4

vec.epilog.middle.block:                          ; preds = %vec.epilog.vector.body
  %37 = tail call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %predphi32)
  br i1 %cmp.n35, label %wi0.head.wi0.end_crit_edge.us.us.us.us.us, label %wi0.body.us.us.us.us.us.preheader

wi0.body.us.us.us.us.us.preheader:                ; preds = %iter.check, %vec.epilog.iter.check, %vec.epilog.middle.block
  %wi011.us.us.us.us.us.ph = phi i64 [ %.30, %iter.check ], [ %ind.end, %vec.epilog.iter.check ], [ %2, %vec.epilog.middle.block ]
  %row.bad.010.us.us.us.us.us.ph = phi i32 [ 0, %iter.check ], [ %25, %vec.epilog.iter.check ], [ %37, %vec.epilog.middle.block ]
  br label %wi0.body.us.us.us.us.us

wi0.body.1.us.us.us.us.us:                        ; preds = %wi0.body.1.us.us.us.us.us.prol.loopexit, %if.end.1.us.us.us.us.us.3
  %wi0.113.us.us.us.us.us = phi i64 [ %.138.us.us.us.us.us.3, %if.end.1.us.us.us.us.us.3 ], [ %wi0.113.us.us.us.us.us.unr, %wi0.body.1.us.us.us.us.us.prol.loopexit ]
  %.109.us.us.us.us.us = icmp sge i64 %wi0.113.us.us.us.us.us, %.14
  %.113.not.us.us.us.us.us = icmp ult i64 %wi0.113.us.us.us.us.us, %.12
  %or.cond.us.us.us.us.us = select i1 %.109.us.us.us.us.us, i1 true, i1 %.113.not.us.us.us.us.us, !prof !5
  br i1 %or.cond.us.us.us.us.us, label %if.end.1.us.us.us.us.us, label %if.then.1.if.us.us.us.us.us, !prof !5

if.then.1.if.us.us.us.us.us:                      ; preds = %wi0.body.1.us.us.us.us.us
  %.116.us.us.us.us.us = load i64, ptr %.17, align 8
  %.117.us.us.us.us.us = icmp eq i64 %.116.us.us.us.us.us, 0
  br i1 %.117.us.us.us.us.us, label %if.then.1.if.if.us.us.us.us.us, label %if.end.1.us.us.us.us.us

if.then.1.if.if.us.us.us.us.us:                   ; preds = %if.then.1.if.us.us.us.us.us
  store i64 1, ptr %.17, align 8
  store i64 %wi0.113.us.us.us.us.us, ptr %.120, align 8
  br label %if.end.1.us.us.us.us.us

if.end.1.us.us.us.us.us:                          ; preds = %if.then.1.if.if.us.us.us.us.us, %if.then.1.if.us.us.us.us.us, %wi0.body.1.us.us.us.us.us
  %.138.us.us.us.us.us = add nsw i64 %wi0.113.us.us.us.us.us, 1
  %.109.us.us.us.us.us.1 = icmp sge i64 %.138.us.us.us.us.us, %.14
  %.113.not.us.us.us.us.us.1 = icmp ult i64 %.138.us.us.us.us.us, %.12
  %or.cond.us.us.us.us.us.1 = select i1 %.109.us.us.us.us.us.1, i1 true, i1 %.113.not.us.us.us.us.us.1, !prof !5
  br i1 %or.cond.us.us.us.us.us.1, label %if.end.1.us.us.us.us.us.1, label %if.then.1.if.us.us.us.us.us.1, !prof !5

if.then.1.if.us.us.us.us.us.1:                    ; preds = %if.end.1.us.us.us.us.us
  %.116.us.us.us.us.us.1 = load i64, ptr %.17, align 8
  %.117.us.us.us.us.us.1 = icmp eq i64 %.116.us.us.us.us.us.1, 0
  br i1 %.117.us.us.us.us.us.1, label %if.then.1.if.if.us.us.us.us.us.1, label %if.end.1.us.us.us.us.us.1

if.then.1.if.if.us.us.us.us.us.1:                 ; preds = %if.then.1.if.us.us.us.us.us.1
  store i64 1, ptr %.17, align 8
  store i64 %.138.us.us.us.us.us, ptr %.120, align 8
  br label %if.end.1.us.us.us.us.us.1

if.end.1.us.us.us.us.us.1:                        ; preds = %if.then.1.if.if.us.us.us.us.us.1, %if.then.1.if.us.us.us.us.us.1, %if.end.1.us.us.us.us.us
  %.138.us.us.us.us.us.1 = add nsw i64 %wi0.113.us.us.us.us.us, 2
  %.109.us.us.us.us.us.2 = icmp sge i64 %.138.us.us.us.us.us.1, %.14
  %.113.not.us.us.us.us.us.2 = icmp ult i64 %.138.us.us.us.us.us.1, %.12
  %or.cond.us.us.us.us.us.2 = select i1 %.109.us.us.us.us.us.2, i1 true, i1 %.113.not.us.us.us.us.us.2, !prof !5
  br i1 %or.cond.us.us.us.us.us.2, label %if.end.1.us.us.us.us.us.2, label %if.then.1.if.us.us.us.us.us.2, !prof !5

if.then.1.if.us.us.us.us.us.2:                    ; preds = %if.end.1.us.us.us.us.us.1
  %.116.us.us.us.us.us.2 = load i64, ptr %.17, align 8
  %.117.us.us.us.us.us.2 = icmp eq i64 %.116.us.us.us.us.us.2, 0
  br i1 %.117.us.us.us.us.us.2, label %if.then.1.if.if.us.us.us.us.us.2, label %if.end.1.us.us.us.us.us.2

if.then.1.if.if.us.us.us.us.us.2:                 ; preds = %if.then.1.if.us.us.us.us.us.2
  store i64 1, ptr %.17, align 8
  store i64 %.138.us.us.us.us.us.1, ptr %.120, align 8
  br label %if.end.1.us.us.us.us.us.2

if.end.1.us.us.us.us.us.2:                        ; preds = %if.then.1.if.if.us.us.us.us.us.2, %if.then.1.if.us.us.us.us.us.2, %if.end.1.us.us.us.us.us.1
  %.138.us.us.us.us.us.2 = add nsw i64 %wi0.113.us.us.us.us.us, 3
  %.109.us.us.us.us.us.3 = icmp sge i64 %.138.us.us.us.us.us.2, %.14
  %.113.not.us.us.us.us.us.3 = icmp ult i64 %.138.us.us.us.us.us.2, %.12
  %or.cond.us.us.us.us.us.3 = select i1 %.109.us.us.us.us.us.3, i1 true, i1 %.113.not.us.us.us.us.us.3, !prof !5
  br i1 %or.cond.us.us.us.us.us.3, label %if.end.1.us.us.us.us.us.3, label %if.then.1.if.us.us.us.us.us.3, !prof !5

if.then.1.if.us.us.us.us.us.3:                    ; preds = %if.end.1.us.us.us.us.us.2
  %.116.us.us.us.us.us.3 = load i64, ptr %.17, align 8
  %.117.us.us.us.us.us.3 = icmp eq i64 %.116.us.us.us.us.us.3, 0
  br i1 %.117.us.us.us.us.us.3, label %if.then.1.if.if.us.us.us.us.us.3, label %if.end.1.us.us.us.us.us.3

if.then.1.if.if.us.us.us.us.us.3:                 ; preds = %if.then.1.if.us.us.us.us.us.3
  store i64 1, ptr %.17, align 8
  store i64 %.138.us.us.us.us.us.2, ptr %.120, align 8
  br label %if.end.1.us.us.us.us.us.3

if.end.1.us.us.us.us.us.3:                        ; preds = %if.then.1.if.if.us.us.us.us.us.3, %if.then.1.if.us.us.us.us.us.3, %if.end.1.us.us.us.us.us.2
  %.138.us.us.us.us.us.3 = add nsw i64 %wi0.113.us.us.us.us.us, 4
  %.95.us.us.us.us.us.3 = icmp slt i64 %.138.us.us.us.us.us.3, %.35
  br i1 %.95.us.us.us.us.us.3, label %wi0.body.1.us.us.us.us.us, label %wi0.end.endif.us.us.us.us.us

wi0.end.endif.us.us.us.us.us:                     ; preds = %wi0.body.1.us.us.us.us.us.prol.loopexit, %if.end.1.us.us.us.us.us.3, %wi0.head.wi0.end_crit_edge.us.us.us.us.us
  %.142.us.us.us.us.us = add nsw i64 %wi115.us.us.us.us.us, 1
  %.46.us.us.us.us.us = icmp slt i64 %.142.us.us.us.us.us, %.38
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

wi0.head.wi0.end_crit_edge.us.us.us.us.us:        ; preds = %if.end.us.us.us.us.us, %vec.epilog.middle.block, %middle.block
  %row.bad.1.us.us.us.us.us.lcssa = phi i32 [ %37, %vec.epilog.middle.block ], [ %25, %middle.block ], [ %row.bad.1.us.us.us.us.us, %if.end.us.us.us.us.us ]
  %.92.not.us.us.us.us.us = icmp eq i32 %row.bad.1.us.us.us.us.us.lcssa, 0
  br i1 %.92.not.us.us.us.us.us, label %wi0.end.endif.us.us.us.us.us, label %wi0.body.1.us.us.us.us.us.preheader, !prof !7

wi0.body.1.us.us.us.us.us.preheader:              ; preds = %wi0.head.wi0.end_crit_edge.us.us.us.us.us
  br i1 %lcmp.mod.not, label %wi0.body.1.us.us.us.us.us.prol.loopexit, label %wi0.body.1.us.us.us.us.us.prol

wi0.body.1.us.us.us.us.us.prol:                   ; preds = %wi0.body.1.us.us.us.us.us.preheader, %if.end.1.us.us.us.us.us.prol
  %wi0.113.us.us.us.us.us.prol = phi i64 [ %.138.us.us.us.us.us.prol, %if.end.1.us.us.us.us.us.prol ], [ %.30, %wi0.body.1.us.us.us.us.us.preheader ]
  %prol.iter = phi i64 [ %prol.iter.next, %if.end.1.us.us.us.us.us.prol ], [ 0, %wi0.body.1.us.us.us.us.us.preheader ]
  %.109.us.us.us.us.us.prol = icmp sge i64 %wi0.113.us.us.us.us.us.prol, %.14
  %.113.not.us.us.us.us.us.prol = icmp ult i64 %wi0.113.us.us.us.us.us.prol, %.12
  %or.cond.us.us.us.us.us.prol = select i1 %.109.us.us.us.us.us.prol, i1 true, i1 %.113.not.us.us.us.us.us.prol, !prof !5
  br i1 %or.cond.us.us.us.us.us.prol, label %if.end.1.us.us.us.us.us.prol, label %if.then.1.if.us.us.us.us.us.prol, !prof !5

if.then.1.if.us.us.us.us.us.prol:                 ; preds = %wi0.body.1.us.us.us.us.us.prol
  %.116.us.us.us.us.us.prol = load i64, ptr %.17, align 8
  %.117.us.us.us.us.us.prol = icmp eq i64 %.116.us.us.us.us.us.prol, 0
  br i1 %.117.us.us.us.us.us.prol, label %if.then.1.if.if.us.us.us.us.us.prol, label %if.end.1.us.us.us.us.us.prol

if.then.1.if.if.us.us.us.us.us.prol:              ; preds = %if.then.1.if.us.us.us.us.us.prol
  store i64 1, ptr %.17, align 8
  store i64 %wi0.113.us.us.us.us.us.prol, ptr %.120, align 8
  br label %if.end.1.us.us.us.us.us.prol

if.end.1.us.us.us.us.us.prol:                     ; preds = %if.then.1.if.if.us.us.us.us.us.prol, %if.then.1.if.us.us.us.us.us.prol, %wi0.body.1.us.us.us.us.us.prol
  %.138.us.us.us.us.us.prol = add nsw i64 %wi0.113.us.us.us.us.us.prol, 1
  %prol.iter.next = add i64 %prol.iter, 1
  %prol.iter.cmp.not = icmp eq i64 %prol.iter.next, %xtraiter
  br i1 %prol.iter.cmp.not, label %wi0.body.1.us.us.us.us.us.prol.loopexit, label %wi0.body.1.us.us.us.us.us.prol, !llvm.loop !8

wi0.body.1.us.us.us.us.us.prol.loopexit:          ; preds = %if.end.1.us.us.us.us.us.prol, %wi0.body.1.us.us.us.us.us.preheader
  %wi0.113.us.us.us.us.us.unr = phi i64 [ %.30, %wi0.body.1.us.us.us.us.us.preheader ], [ %.138.us.us.us.us.us.prol, %if.end.1.us.us.us.us.us.prol ]
  br i1 %4, label %wi0.end.endif.us.us.us.us.us, label %wi0.body.1.us.us.us.us.us

wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us: ; preds = %wi0.end.endif.us.us.us.us.us
  %.145.us.us.us = add nsw i64 %wi217.us.us.us, 1
  %.43.us.us.us = icmp slt i64 %.145.us.us.us, %.41
  br i1 %.43.us.us.us, label %wi1.head.preheader.us.us.us, label %wi2.end

group.end:                                        ; preds = %wi2.end, %allocas
  ret void

wi2.end:                                          ; preds = %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us, %group.body
  %.148 = add nsw i64 %group25, 1
  %exitcond.not = icmp eq i64 %.148, %.16
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
  %errrec = alloca [9 x i64], align 8
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(72) %errrec, i8 0, i64 72, i1 false)
  call fastcc void @saxpy.groups(i64 %.7, i64 %.9, i64 %.11, i64 %.13, i64 %.15, i64 %.17, i64 %.19, i64 %.21, float %.25, ptr %.27, i64 %.29, ptr %.31, i64 %.33, i64 %.2, i64 %.3, ptr %errrec)
  %.37 = load i64, ptr %errrec, align 8
  %.39 = load i64, ptr %.4, align 8
  %.40 = icmp ne i64 %.37, 0
  %.41 = icmp eq i64 %.39, 0
  %.42 = and i1 %.40, %.41
  br i1 %.42, label %entry.if, label %entry.endif, !prof !10

entry.if:                                         ; preds = %entry
  %.fca.5.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 40
  %.fca.1.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 8
  store i64 %.37, ptr %.4, align 8
  %.50 = getelementptr i8, ptr %.4, i64 8
  %0 = load <4 x i64>, ptr %.fca.1.gep, align 8
  store <4 x i64> %0, ptr %.50, align 8
  %.66 = getelementptr i8, ptr %.4, i64 40
  %1 = load <4 x i64>, ptr %.fca.5.gep, align 8
  store <4 x i64> %1, ptr %.66, align 8
  br label %entry.endif

entry.endif:                                      ; preds = %entry.if, %entry
  ret void
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #3

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

!0 = distinct !{!0, !1, !2}
!1 = !{!"llvm.loop.isvectorized", i32 1}
!2 = !{!"llvm.loop.unroll.runtime.disable"}
!3 = !{!"branch_weights", i32 8, i32 8}
!4 = distinct !{!4, !1, !2}
!5 = !{!"branch_weights", i32 199, i32 1}
!6 = distinct !{!6, !2, !1}
!7 = !{!"branch_weights", i32 99, i32 1}
!8 = distinct !{!8, !9}
!9 = !{!"llvm.loop.unroll.disable"}
!10 = !{!"branch_weights", i32 1, i32 99}
