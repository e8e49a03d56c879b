; gpuoff codegen golden: optimised LLVM IR for x86-64-v3, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define internal fastcc void @tree_sum.groups(i64 %.1, i64 %.2, i64 %.3, i64 %.4, i64 %.5, i64 %.6, i64 %.7, i64 %.8, ptr noalias readonly align 4 captures(none) %.10, i64 %.11, ptr noalias writeonly align 4 captures(none) %.12, i64 %.13, i64 %.14, i64 %.15, ptr noalias nonnull captures(none) %.16) unnamed_addr #0 {
allocas:
  %tile = alloca [128 x float], align 64
  %.27211 = icmp slt i64 %.14, %.15
  br i1 %.27211, label %group.body.lr.ph, label %group.end

group.body.lr.ph:                                 ; preds = %allocas
  %.133 = getelementptr i8, ptr %.16, i64 8
  %0 = mul i64 %.4, -4
  %broadcast.splatinsert88 = insertelement <8 x i64> poison, i64 %.11, i64 0
  %broadcast.splat89 = shufflevector <8 x i64> %broadcast.splatinsert88, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert117 = insertelement <8 x i64> poison, i64 %.11, i64 0
  %broadcast.splat118 = shufflevector <8 x i64> %broadcast.splatinsert117, <8 x i64> poison, <8 x i32> zeroinitializer
  br label %group.body

group.body:                                       ; preds = %group.body.lr.ph, %wi2.end.2
  %group212 = phi i64 [ %.14, %group.body.lr.ph ], [ %.460, %wi2.end.2 ]
  %.29 = urem i64 %group212, %.7
  %.30 = udiv i64 %group212, %.7
  %.31 = urem i64 %.30, %.8
  %.32 = udiv i64 %.30, %.8
  %.33 = mul i64 %.29, %.4
  %.34 = mul nsw i64 %.31, %.5
  %.35 = mul nsw i64 %.32, %.6
  %.36 = add i64 %.33, %.4
  %.38 = tail call i64 @llvm.smin.i64(i64 %.36, i64 %.1)
  %.39 = add nsw i64 %.34, %.5
  %.41 = tail call i64 @llvm.smin.i64(i64 %.39, i64 %.2)
  %.42 = add nsw i64 %.35, %.6
  %.44 = tail call i64 @llvm.smin.i64(i64 %.42, i64 %.3)
  %.4632 = icmp slt i64 %.35, %.44
  %.4930 = icmp slt i64 %.34, %.41
  %or.cond = select i1 %.4632, i1 %.4930, i1 false
  %.9728 = icmp slt i64 %.33, %.38
  %or.cond256 = select i1 %or.cond, i1 %.9728, i1 false
  br i1 %or.cond256, label %wi1.head.preheader.us.us.us.preheader, label %gwhile.head.preheader

wi1.head.preheader.us.us.us.preheader:            ; preds = %group.body
  %1 = sub i64 %.38, %.33
  %min.iters.check80 = icmp ult i64 %1, 8
  %min.iters.check83 = icmp ult i64 %1, 16
  %n.mod.vf86 = and i64 %1, 8
  %n.vec87 = and i64 %1, -16
  %2 = add i64 %.33, %n.vec87
  %broadcast.splatinsert90 = insertelement <8 x i64> poison, i64 %.33, i64 0
  %broadcast.splat91 = shufflevector <8 x i64> %broadcast.splatinsert90, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction92 = add nsw <8 x i64> %broadcast.splat91, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %3 = insertelement <8 x i64> poison, i64 %.33, i64 0
  %4 = shufflevector <8 x i64> %3, <8 x i64> poison, <8 x i32> zeroinitializer
  %5 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.33, i64 1
  %6 = shufflevector <8 x i64> %5, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %cmp.n107 = icmp eq i64 %1, %n.vec87
  %ind.end135 = add i64 %.33, %n.vec87
  %min.epilog.iters.check113.not.not = icmp eq i64 %n.mod.vf86, 0
  %n.vec116 = and i64 %1, -8
  %7 = add i64 %.33, %n.vec116
  %8 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.33, i64 1
  %9 = shufflevector <8 x i64> %8, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %cmp.n132 = icmp eq i64 %1, %n.vec116
  %xtraiter = and i64 %1, 3
  %lcmp.mod.not = icmp eq i64 %xtraiter, 0
  %10 = sub i64 %.33, %.38
  %11 = icmp ugt i64 %10, -4
  br label %wi1.head.preheader.us.us.us

wi1.head.preheader.us.us.us:                      ; preds = %wi1.head.preheader.us.us.us.preheader, %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us
  %wi233.us.us.us = phi i64 [ %.146.us.us.us, %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us ], [ %.35, %wi1.head.preheader.us.us.us.preheader ]
  br label %iter.check82

iter.check82:                                     ; preds = %wi0.end.endif.us.us.us.us.us, %wi1.head.preheader.us.us.us
  %wi131.us.us.us.us.us = phi i64 [ %.34, %wi1.head.preheader.us.us.us ], [ %.143.us.us.us.us.us, %wi0.end.endif.us.us.us.us.us ]
  br i1 %min.iters.check80, label %wi0.body.us.us.us.us.us.preheader, label %vector.main.loop.iter.check84

vector.main.loop.iter.check84:                    ; preds = %iter.check82
  br i1 %min.iters.check83, label %vec.epilog.ph114, label %vector.body93

vector.body93:                                    ; preds = %vector.main.loop.iter.check84, %vector.body93
  %index94 = phi i64 [ %index.next103, %vector.body93 ], [ 0, %vector.main.loop.iter.check84 ]
  %vec.ind95 = phi <8 x i64> [ %vec.ind.next104, %vector.body93 ], [ %induction92, %vector.main.loop.iter.check84 ]
  %vec.phi96 = phi <8 x i32> [ %30, %vector.body93 ], [ zeroinitializer, %vector.main.loop.iter.check84 ]
  %vec.phi97 = phi <8 x i32> [ %31, %vector.body93 ], [ zeroinitializer, %vector.main.loop.iter.check84 ]
  %step.add98 = add <8 x i64> %vec.ind95, splat (i64 8)
  %12 = add i64 %.33, %index94
  %13 = insertelement <8 x i64> poison, i64 %index94, i64 0
  %14 = insertelement <8 x i64> %13, i64 %12, i64 1
  %15 = shufflevector <8 x i64> %14, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %16 = add <8 x i64> %15, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %17 = sub <8 x i64> %16, %6
  %18 = insertelement <8 x i64> poison, i64 %12, i64 0
  %19 = shufflevector <8 x i64> %18, <8 x i64> poison, <8 x i32> zeroinitializer
  %20 = add <8 x i64> %19, <i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %21 = sub <8 x i64> %20, %4
  %22 = icmp slt <8 x i64> %vec.ind95, %broadcast.splat89
  %23 = icmp slt <8 x i64> %step.add98, %broadcast.splat89
  %24 = getelementptr float, ptr %.10, i64 %12
  %25 = getelementptr i8, ptr %24, i64 32
  %wide.masked.load99 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %24, <8 x i1> %22, <8 x float> zeroinitializer)
  %wide.masked.load100 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %25, <8 x i1> %23, <8 x float> zeroinitializer)
  %26 = icmp ugt <8 x i64> %17, splat (i64 127)
  %27 = icmp ugt <8 x i64> %21, splat (i64 127)
  %28 = zext <8 x i1> %26 to <8 x i32>
  %29 = zext <8 x i1> %27 to <8 x i32>
  %30 = or <8 x i32> %vec.phi96, %28
  %31 = or <8 x i32> %vec.phi97, %29
  %32 = xor <8 x i1> %26, splat (i1 true)
  %33 = xor <8 x i1> %27, splat (i1 true)
  %34 = getelementptr float, ptr %tile, i64 %index94
  %35 = getelementptr i8, ptr %34, i64 32
  call void @llvm.masked.store.v8f32.p0(<8 x float> %wide.masked.load99, ptr align 64 %34, <8 x i1> %32)
  call void @llvm.masked.store.v8f32.p0(<8 x float> %wide.masked.load100, ptr align 32 %35, <8 x i1> %33)
  %index.next103 = add nuw i64 %index94, 16
  %vec.ind.next104 = add <8 x i64> %vec.ind95, splat (i64 16)
  %36 = icmp eq i64 %index.next103, %n.vec87
  br i1 %36, label %middle.block105, label %vector.body93, !llvm.loop !0

middle.block105:                                  ; preds = %vector.body93
  %bin.rdx106 = or <8 x i32> %31, %30
  %37 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx106)
  br i1 %cmp.n107, label %wi0.head.wi0.end_crit_edge.us.us.us.us.us, label %vec.epilog.iter.check112

vec.epilog.iter.check112:                         ; preds = %middle.block105
  br i1 %min.epilog.iters.check113.not.not, label %wi0.body.us.us.us.us.us.preheader, label %vec.epilog.ph114, !prof !3

vec.epilog.ph114:                                 ; preds = %vector.main.loop.iter.check84, %vec.epilog.iter.check112
  %vec.epilog.resume.val108 = phi i64 [ %n.vec87, %vec.epilog.iter.check112 ], [ 0, %vector.main.loop.iter.check84 ]
  %bc.resume.val109 = phi i64 [ %2, %vec.epilog.iter.check112 ], [ %.33, %vector.main.loop.iter.check84 ]
  %bc.merge.rdx110 = phi i32 [ %37, %vec.epilog.iter.check112 ], [ 0, %vector.main.loop.iter.check84 ]
  %38 = insertelement <8 x i32> <i32 poison, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx110, i64 0
  %broadcast.splatinsert119 = insertelement <8 x i64> poison, i64 %bc.resume.val109, i64 0
  %broadcast.splat120 = shufflevector <8 x i64> %broadcast.splatinsert119, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction121 = add nsw <8 x i64> %broadcast.splat120, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  br label %vec.epilog.vector.body122

vec.epilog.vector.body122:                        ; preds = %vec.epilog.vector.body122, %vec.epilog.ph114
  %index123 = phi i64 [ %vec.epilog.resume.val108, %vec.epilog.ph114 ], [ %index.next129, %vec.epilog.vector.body122 ]
  %vec.ind124 = phi <8 x i64> [ %induction121, %vec.epilog.ph114 ], [ %vec.ind.next130, %vec.epilog.vector.body122 ]
  %vec.phi125 = phi <8 x i32> [ %38, %vec.epilog.ph114 ], [ %48, %vec.epilog.vector.body122 ]
  %offset.idx126 = add i64 %.33, %index123
  %39 = insertelement <8 x i64> poison, i64 %index123, i64 0
  %40 = insertelement <8 x i64> %39, i64 %offset.idx126, i64 1
  %41 = shufflevector <8 x i64> %40, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %42 = add <8 x i64> %41, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %43 = sub <8 x i64> %42, %9
  %44 = icmp slt <8 x i64> %vec.ind124, %broadcast.splat118
  %45 = getelementptr float, ptr %.10, i64 %offset.idx126
  %wide.masked.load127 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %45, <8 x i1> %44, <8 x float> zeroinitializer)
  %46 = icmp ugt <8 x i64> %43, splat (i64 127)
  %47 = zext <8 x i1> %46 to <8 x i32>
  %48 = or <8 x i32> %vec.phi125, %47
  %49 = xor <8 x i1> %46, splat (i1 true)
  %50 = getelementptr float, ptr %tile, i64 %index123
  call void @llvm.masked.store.v8f32.p0(<8 x float> %wide.masked.load127, ptr align 32 %50, <8 x i1> %49)
  %index.next129 = add nuw i64 %index123, 8
  %vec.ind.next130 = add nsw <8 x i64> %vec.ind124, splat (i64 8)
  %51 = icmp eq i64 %index.next129, %n.vec116
  br i1 %51, label %vec.epilog.middle.block131, label %vec.epilog.vector.body122, !llvm.loop !4

vec.epilog.middle.block131:                       ; preds = %vec.epilog.vector.body122
  %52 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %48)
  br i1 %cmp.n132, label %wi0.head.wi0.end_crit_edge.us.us.us.us.us, label %wi0.body.us.us.us.us.us.preheader

wi0.body.us.us.us.us.us.preheader:                ; preds = %iter.check82, %vec.epilog.iter.check112, %vec.epilog.middle.block131
  %wi027.us.us.us.us.us.ph = phi i64 [ %.33, %iter.check82 ], [ %ind.end135, %vec.epilog.iter.check112 ], [ %7, %vec.epilog.middle.block131 ]
  %row.bad.026.us.us.us.us.us.ph = phi i32 [ 0, %iter.check82 ], [ %37, %vec.epilog.iter.check112 ], [ %52, %vec.epilog.middle.block131 ]
  br label %wi0.body.us.us.us.us.us

wi0.body.1.us.us.us.us.us:                        ; preds = %wi0.body.1.us.us.us.us.us.prol.loopexit, %if.end.1.endif.us.us.us.us.us.3
  %wi0.129.us.us.us.us.us = phi i64 [ %.139.us.us.us.us.us.3, %if.end.1.endif.us.us.us.us.us.3 ], [ %wi0.129.us.us.us.us.us.unr, %wi0.body.1.us.us.us.us.us.prol.loopexit ]
  %.105.us.us.us.us.us = sub nsw i64 %wi0.129.us.us.us.us.us, %.33
  %.126.us.us.us.us.us = icmp ugt i64 %.105.us.us.us.us.us, 127
  br i1 %.126.us.us.us.us.us, label %if.end.1.if.us.us.us.us.us, label %if.end.1.endif.us.us.us.us.us, !prof !5

if.end.1.if.us.us.us.us.us:                       ; preds = %wi0.body.1.us.us.us.us.us
  %.129.us.us.us.us.us = load i64, ptr %.16, align 8
  %.130.us.us.us.us.us = icmp eq i64 %.129.us.us.us.us.us, 0
  br i1 %.130.us.us.us.us.us, label %if.end.1.if.if.us.us.us.us.us, label %if.end.1.endif.us.us.us.us.us

if.end.1.if.if.us.us.us.us.us:                    ; preds = %if.end.1.if.us.us.us.us.us
  store i64 2, ptr %.16, align 8
  store i64 %.105.us.us.us.us.us, ptr %.133, align 8
  br label %if.end.1.endif.us.us.us.us.us

if.end.1.endif.us.us.us.us.us:                    ; preds = %if.end.1.if.if.us.us.us.us.us, %if.end.1.if.us.us.us.us.us, %wi0.body.1.us.us.us.us.us
  %.139.us.us.us.us.us = add nsw i64 %wi0.129.us.us.us.us.us, 1
  %.105.us.us.us.us.us.1 = sub nsw i64 %.139.us.us.us.us.us, %.33
  %.126.us.us.us.us.us.1 = icmp ugt i64 %.105.us.us.us.us.us.1, 127
  br i1 %.126.us.us.us.us.us.1, label %if.end.1.if.us.us.us.us.us.1, label %if.end.1.endif.us.us.us.us.us.1, !prof !5

if.end.1.if.us.us.us.us.us.1:                     ; preds = %if.end.1.endif.us.us.us.us.us
  %.129.us.us.us.us.us.1 = load i64, ptr %.16, align 8
  %.130.us.us.us.us.us.1 = icmp eq i64 %.129.us.us.us.us.us.1, 0
  br i1 %.130.us.us.us.us.us.1, label %if.end.1.if.if.us.us.us.us.us.1, label %if.end.1.endif.us.us.us.us.us.1

if.end.1.if.if.us.us.us.us.us.1:                  ; preds = %if.end.1.if.us.us.us.us.us.1
  store i64 2, ptr %.16, align 8
  store i64 %.105.us.us.us.us.us.1, ptr %.133, align 8
  br label %if.end.1.endif.us.us.us.us.us.1

if.end.1.endif.us.us.us.us.us.1:                  ; preds = %if.end.1.if.if.us.us.us.us.us.1, %if.end.1.if.us.us.us.us.us.1, %if.end.1.endif.us.us.us.us.us
  %.139.us.us.us.us.us.1 = add nsw i64 %wi0.129.us.us.us.us.us, 2
  %.105.us.us.us.us.us.2 = sub nsw i64 %.139.us.us.us.us.us.1, %.33
  %.126.us.us.us.us.us.2 = icmp ugt i64 %.105.us.us.us.us.us.2, 127
  br i1 %.126.us.us.us.us.us.2, label %if.end.1.if.us.us.us.us.us.2, label %if.end.1.endif.us.us.us.us.us.2, !prof !5

if.end.1.if.us.us.us.us.us.2:                     ; preds = %if.end.1.endif.us.us.us.us.us.1
  %.129.us.us.us.us.us.2 = load i64, ptr %.16, align 8
  %.130.us.us.us.us.us.2 = icmp eq i64 %.129.us.us.us.us.us.2, 0
  br i1 %.130.us.us.us.us.us.2, label %if.end.1.if.if.us.us.us.us.us.2, label %if.end.1.endif.us.us.us.us.us.2

if.end.1.if.if.us.us.us.us.us.2:                  ; preds = %if.end.1.if.us.us.us.us.us.2
  store i64 2, ptr %.16, align 8
  store i64 %.105.us.us.us.us.us.2, ptr %.133, align 8
  br label %if.end.1.endif.us.us.us.us.us.2

if.end.1.endif.us.us.us.us.us.2:                  ; preds = %if.end.1.if.if.us.us.us.us.us.2, %if.end.1.if.us.us.us.us.us.2, %if.end.1.endif.us.us.us.us.us.1
  %.139.us.us.us.us.us.2 = add nsw i64 %wi0.129.us.us.us.us.us, 3
  %.105.us.us.us.us.us.3 = sub nsw i64 %.139.us.us.us.us.us.2, %.33
  %.126.us.us.us.us.us.3 = icmp ugt i64 %.105.us.us.us.us.us.3, 127
  br i1 %.126.us.us.us.us.us.3, label %if.end.1.if.us.us.us.us.us.3, label %if.end.1.endif.us.us.us.us.us.3, !prof !5

if.end.1.if.us.us.us.us.us.3:                     ; preds = %if.end.1.endif.us.us.us.us.us.2
  %.129.us.us.us.us.us.3 = load i64, ptr %.16, align 8
  %.130.us.us.us.us.us.3 = icmp eq i64 %.129.us.us.us.us.us.3, 0
  br i1 %.130.us.us.us.us.us.3, label %if.end.1.if.if.us.us.us.us.us.3, label %if.end.1.endif.us.us.us.us.us.3

if.end.1.if.if.us.us.us.us.us.3:                  ; preds = %if.end.1.if.us.us.us.us.us.3
  store i64 2, ptr %.16, align 8
  store i64 %.105.us.us.us.us.us.3, ptr %.133, align 8
  br label %if.end.1.endif.us.us.us.us.us.3

if.end.1.endif.us.us.us.us.us.3:                  ; preds = %if.end.1.if.if.us.us.us.us.us.3, %if.end.1.if.us.us.us.us.us.3, %if.end.1.endif.us.us.us.us.us.2
  %.139.us.us.us.us.us.3 = add nsw i64 %wi0.129.us.us.us.us.us, 4
  %.97.us.us.us.us.us.3 = icmp slt i64 %.139.us.us.us.us.us.3, %.38
  br i1 %.97.us.us.us.us.us.3, label %wi0.body.1.us.us.us.us.us, label %wi0.end.endif.us.us.us.us.us

wi0.end.endif.us.us.us.us.us:                     ; preds = %wi0.body.1.us.us.us.us.us.prol.loopexit, %if.end.1.endif.us.us.us.us.us.3, %wi0.head.wi0.end_crit_edge.us.us.us.us.us
  %.143.us.us.us.us.us = add nsw i64 %wi131.us.us.us.us.us, 1
  %.49.us.us.us.us.us = icmp slt i64 %.143.us.us.us.us.us, %.41
  br i1 %.49.us.us.us.us.us, label %iter.check82, label %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us

wi0.body.us.us.us.us.us:                          ; preds = %wi0.body.us.us.us.us.us.preheader, %if.end.endif.us.us.us.us.us
  %wi027.us.us.us.us.us = phi i64 [ %.91.us.us.us.us.us, %if.end.endif.us.us.us.us.us ], [ %wi027.us.us.us.us.us.ph, %wi0.body.us.us.us.us.us.preheader ]
  %row.bad.026.us.us.us.us.us = phi i32 [ %.84.us.us.us.us.us, %if.end.endif.us.us.us.us.us ], [ %row.bad.026.us.us.us.us.us.ph, %wi0.body.us.us.us.us.us.preheader ]
  %.61.us.us.us.us.us = sub nsw i64 %wi027.us.us.us.us.us, %.33
  %.71.us.us.us.us.us = icmp slt i64 %wi027.us.us.us.us.us, %.11
  br i1 %.71.us.us.us.us.us, label %if.then.us.us.us.us.us, label %if.end.us.us.us.us.us

if.then.us.us.us.us.us:                           ; preds = %wi0.body.us.us.us.us.us
  %.74.us.us.us.us.us = getelementptr float, ptr %.10, i64 %wi027.us.us.us.us.us
  %.75.us.us.us.us.us = load float, ptr %.74.us.us.us.us.us, align 4
  br label %if.end.us.us.us.us.us

if.end.us.us.us.us.us:                            ; preds = %if.then.us.us.us.us.us, %wi0.body.us.us.us.us.us
  %.78.us.us.us.us.us = phi float [ %.75.us.us.us.us.us, %if.then.us.us.us.us.us ], [ 0.000000e+00, %wi0.body.us.us.us.us.us ]
  %.80.us.us.us.us.us = icmp ugt i64 %.61.us.us.us.us.us, 127
  %.83.us.us.us.us.us = zext i1 %.80.us.us.us.us.us to i32
  %.84.us.us.us.us.us = or i32 %row.bad.026.us.us.us.us.us, %.83.us.us.us.us.us
  br i1 %.80.us.us.us.us.us, label %if.end.endif.us.us.us.us.us, label %if.end.if.us.us.us.us.us, !prof !5

if.end.if.us.us.us.us.us:                         ; preds = %if.end.us.us.us.us.us
  %.86.us.us.us.us.us = getelementptr float, ptr %tile, i64 %.61.us.us.us.us.us
  store float %.78.us.us.us.us.us, ptr %.86.us.us.us.us.us, align 4
  br label %if.end.endif.us.us.us.us.us

if.end.endif.us.us.us.us.us:                      ; preds = %if.end.if.us.us.us.us.us, %if.end.us.us.us.us.us
  %.91.us.us.us.us.us = add nsw i64 %wi027.us.us.us.us.us, 1
  %.53.us.us.us.us.us = icmp slt i64 %.91.us.us.us.us.us, %.38
  br i1 %.53.us.us.us.us.us, label %wi0.body.us.us.us.us.us, label %wi0.head.wi0.end_crit_edge.us.us.us.us.us, !llvm.loop !6

wi0.head.wi0.end_crit_edge.us.us.us.us.us:        ; preds = %if.end.endif.us.us.us.us.us, %vec.epilog.middle.block131, %middle.block105
  %.84.us.us.us.us.us.lcssa = phi i32 [ %52, %vec.epilog.middle.block131 ], [ %37, %middle.block105 ], [ %.84.us.us.us.us.us, %if.end.endif.us.us.us.us.us ]
  %.94.not.us.us.us.us.us = icmp eq i32 %.84.us.us.us.us.us.lcssa, 0
  br i1 %.94.not.us.us.us.us.us, label %wi0.end.endif.us.us.us.us.us, label %wi0.body.1.us.us.us.us.us.preheader, !prof !7

wi0.body.1.us.us.us.us.us.preheader:              ; preds = %wi0.head.wi0.end_crit_edge.us.us.us.us.us
  br i1 %lcmp.mod.not, label %wi0.body.1.us.us.us.us.us.prol.loopexit, label %wi0.body.1.us.us.us.us.us.prol

wi0.body.1.us.us.us.us.us.prol:                   ; preds = %wi0.body.1.us.us.us.us.us.preheader, %if.end.1.endif.us.us.us.us.us.prol
  %wi0.129.us.us.us.us.us.prol = phi i64 [ %.139.us.us.us.us.us.prol, %if.end.1.endif.us.us.us.us.us.prol ], [ %.33, %wi0.body.1.us.us.us.us.us.preheader ]
  %prol.iter = phi i64 [ %prol.iter.next, %if.end.1.endif.us.us.us.us.us.prol ], [ 0, %wi0.body.1.us.us.us.us.us.preheader ]
  %.105.us.us.us.us.us.prol = sub nsw i64 %wi0.129.us.us.us.us.us.prol, %.33
  %.126.us.us.us.us.us.prol = icmp ugt i64 %.105.us.us.us.us.us.prol, 127
  br i1 %.126.us.us.us.us.us.prol, label %if.end.1.if.us.us.us.us.us.prol, label %if.end.1.endif.us.us.us.us.us.prol, !prof !5

if.end.1.if.us.us.us.us.us.prol:                  ; preds = %wi0.body.1.us.us.us.us.us.prol
  %.129.us.us.us.us.us.prol = load i64, ptr %.16, align 8
  %.130.us.us.us.us.us.prol = icmp eq i64 %.129.us.us.us.us.us.prol, 0
  br i1 %.130.us.us.us.us.us.prol, label %if.end.1.if.if.us.us.us.us.us.prol, label %if.end.1.endif.us.us.us.us.us.prol

if.end.1.if.if.us.us.us.us.us.prol:               ; preds = %if.end.1.if.us.us.us.us.us.prol
  store i64 2, ptr %.16, align 8
  store i64 %.105.us.us.us.us.us.prol, ptr %.133, align 8
  br label %if.end.1.endif.us.us.us.us.us.prol

if.end.1.endif.us.us.us.us.us.prol:               ; preds = %if.end.1.if.if.us.us.us.us.us.prol, %if.end.1.if.us.us.us.us.us.prol, %wi0.body.1.us.us.us.us.us.prol
  %.139.us.us.us.us.us.prol = add nsw i64 %wi0.129.us.us.us.us.us.prol, 1
  %prol.iter.next = add i64 %prol.iter, 1
  %prol.iter.cmp.not = icmp eq i64 %prol.iter.next, %xtraiter
  br i1 %prol.iter.cmp.not, label %wi0.body.1.us.us.us.us.us.prol.loopexit, label %wi0.body.1.us.us.us.us.us.prol, !llvm.loop !8

wi0.body.1.us.us.us.us.us.prol.loopexit:          ; preds = %if.end.1.endif.us.us.us.us.us.prol, %wi0.body.1.us.us.us.us.us.preheader
  %wi0.129.us.us.us.us.us.unr = phi i64 [ %.33, %wi0.body.1.us.us.us.us.us.preheader ], [ %.139.us.us.us.us.us.prol, %if.end.1.endif.us.us.us.us.us.prol ]
  br i1 %11, label %wi0.end.endif.us.us.us.us.us, label %wi0.body.1.us.us.us.us.us

wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us: ; preds = %wi0.end.endif.us.us.us.us.us
  %.146.us.us.us = add nsw i64 %wi233.us.us.us, 1
  %.46.us.us.us = icmp slt i64 %.146.us.us.us, %.44
  br i1 %.46.us.us.us, label %wi1.head.preheader.us.us.us, label %gwhile.head.preheader

group.end:                                        ; preds = %wi2.end.2, %allocas
  ret void

gwhile.head.preheader:                            ; preds = %wi1.head.wi1.end_crit_edge.split.us.us.us.split.us.us, %group.body
  %.20145 = icmp slt i64 %.34, %.41
  %53 = mul i64 %0, %.29
  %scevgep = getelementptr i8, ptr %tile, i64 %53
  %54 = add i64 %.33, 1
  %scevgep34 = getelementptr i8, ptr %tile, i64 %53
  %55 = mul i64 %.4, %.29
  %56 = add i64 %.33, 1
  %57 = insertelement <8 x i64> poison, i64 %.33, i64 0
  %58 = shufflevector <8 x i64> %57, <8 x i64> poison, <8 x i32> zeroinitializer
  %59 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.33, i64 1
  %60 = shufflevector <8 x i64> %59, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %61 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.33, i64 1
  %62 = shufflevector <8 x i64> %61, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  br label %gwhile.body

wi1.head.2.preheader.lr.ph:                       ; preds = %wi2.end.1
  %.397 = icmp uge i64 %.29, %.13
  %.397.fr = freeze i1 %.397
  %.400 = zext i1 %.397.fr to i32
  %.403 = getelementptr float, ptr %.12, i64 %.29
  %.396 = load float, ptr %tile, align 64
  %.436.not = icmp ult i64 %.29, %.13
  %.436.not.fr = freeze i1 %.436.not
  br i1 %.20145, label %wi1.head.2.preheader.lr.ph.split.us, label %wi2.end.2

wi1.head.2.preheader.lr.ph.split.us:              ; preds = %wi1.head.2.preheader.lr.ph
  %.415104 = icmp slt i64 %.33, %.38
  %.415104.fr = freeze i1 %.415104
  br i1 %.415104.fr, label %wi1.head.2.preheader.lr.ph.split.us.split.us, label %wi2.end.2

wi1.head.2.preheader.lr.ph.split.us.split.us:     ; preds = %wi1.head.2.preheader.lr.ph.split.us
  br i1 %.397.fr, label %wi1.head.2.preheader.lr.ph.split.us.split.us.split.us.split.us, label %wi1.head.2.preheader.lr.ph.split.us.split.us.split.split.us, !prof !5

wi1.head.2.preheader.lr.ph.split.us.split.us.split.us.split.us: ; preds = %wi1.head.2.preheader.lr.ph.split.us.split.us
  br i1 %.436.not.fr, label %wi2.end.2, label %wi1.head.2.preheader.us.us.us.us.preheader

wi1.head.2.preheader.us.us.us.us.preheader:       ; preds = %wi1.head.2.preheader.lr.ph.split.us.split.us.split.us.split.us
  %.409.us.us.us.us.us.us.us.us204.peel = add nsw i64 %.33, 1
  %.378.us.us.us.us.us.us.us.us205.peel = icmp slt i64 %.409.us.us.us.us.us.us.us.us204.peel, %.38
  %63 = xor i64 %.33, -1
  %64 = add i64 %.38, %63
  %65 = add i64 %.38, -2
  %66 = sub i64 %65, %.33
  %min.iters.check = icmp ult i64 %64, 4
  %min.iters.check5 = icmp ult i64 %64, 32
  %n.mod.vf = and i64 %64, 28
  %n.vec = and i64 %64, -32
  %67 = add i64 %.409.us.us.us.us.us.us.us.us204.peel, %n.vec
  %68 = insertelement <8 x i32> <i32 poison, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>, i32 %.400, i64 0
  %broadcast.splatinsert = insertelement <8 x i64> poison, i64 %.33, i64 0
  %broadcast.splat = shufflevector <8 x i64> %broadcast.splatinsert, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert6 = insertelement <8 x i32> poison, i32 %.400, i64 0
  %broadcast.splat7 = shufflevector <8 x i32> %broadcast.splatinsert6, <8 x i32> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert8 = insertelement <8 x i64> poison, i64 %.409.us.us.us.us.us.us.us.us204.peel, i64 0
  %broadcast.splat9 = shufflevector <8 x i64> %broadcast.splatinsert8, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction = add nsw <8 x i64> %broadcast.splat9, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %cmp.n = icmp eq i64 %64, %n.vec
  %ind.end = add i64 %.409.us.us.us.us.us.us.us.us204.peel, %n.vec
  %min.epilog.iters.check = icmp eq i64 %n.mod.vf, 0
  %n.vec16 = and i64 %64, -4
  %69 = add i64 %.409.us.us.us.us.us.us.us.us204.peel, %n.vec16
  %broadcast.splatinsert17 = insertelement <4 x i64> poison, i64 %.33, i64 0
  %broadcast.splat18 = shufflevector <4 x i64> %broadcast.splatinsert17, <4 x i64> poison, <4 x i32> zeroinitializer
  %broadcast.splatinsert19 = insertelement <4 x i32> poison, i32 %.400, i64 0
  %broadcast.splat20 = shufflevector <4 x i32> %broadcast.splatinsert19, <4 x i32> poison, <4 x i32> zeroinitializer
  %cmp.n29 = icmp eq i64 %64, %n.vec16
  %xtraiter152 = and i64 %64, 3
  %lcmp.mod153.not = icmp eq i64 %xtraiter152, 0
  %70 = icmp ult i64 %66, 3
  br label %wi1.head.2.preheader.us.us.us.us

wi1.head.2.preheader.us.us.us.us:                 ; preds = %wi1.head.2.preheader.us.us.us.us.preheader, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.us.split.us.us.split.us209
  %wi2.2128.us.us.us.us = phi i64 [ %.457.us.us.us.us, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.us.split.us.us.split.us209 ], [ %.35, %wi1.head.2.preheader.us.us.us.us.preheader ]
  br label %wi0.head.4.preheader.us.us.us.us.us.us.us190

wi0.head.4.preheader.us.us.us.us.us.us.us190:     ; preds = %wi1.head.2.preheader.us.us.us.us, %wi0.end.4.endif.us.us.us.us.us.us.us192
  %wi1.2107.us.us.us.us.us.us.us191 = phi i64 [ %.34, %wi1.head.2.preheader.us.us.us.us ], [ %.454.us.us.us.us.us.us.us193, %wi0.end.4.endif.us.us.us.us.us.us.us192 ]
  br i1 %.378.us.us.us.us.us.us.us.us205.peel, label %iter.check, label %wi0.head.4.wi0.end.4_crit_edge.split.us.us.us.us.us.us.us.us206

iter.check:                                       ; preds = %wi0.head.4.preheader.us.us.us.us.us.us.us190
  br i1 %min.iters.check, label %wi0.body.4.us.us.us.us.us.us.us.us196.preheader, label %vector.main.loop.iter.check

vector.main.loop.iter.check:                      ; preds = %iter.check
  br i1 %min.iters.check5, label %vec.epilog.ph, label %vector.body

vector.body:                                      ; preds = %vector.main.loop.iter.check, %vector.body
  %index = phi i64 [ %index.next, %vector.body ], [ 0, %vector.main.loop.iter.check ]
  %vec.ind = phi <8 x i64> [ %vec.ind.next, %vector.body ], [ %induction, %vector.main.loop.iter.check ]
  %vec.phi = phi <8 x i32> [ %79, %vector.body ], [ %68, %vector.main.loop.iter.check ]
  %vec.phi10 = phi <8 x i32> [ %80, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %vec.phi11 = phi <8 x i32> [ %81, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %vec.phi12 = phi <8 x i32> [ %82, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %step.add = add <8 x i64> %vec.ind, splat (i64 8)
  %step.add.2 = add <8 x i64> %vec.ind, splat (i64 16)
  %step.add.3 = add <8 x i64> %vec.ind, splat (i64 24)
  %71 = icmp eq <8 x i64> %vec.ind, %broadcast.splat
  %72 = icmp eq <8 x i64> %step.add, %broadcast.splat
  %73 = icmp eq <8 x i64> %step.add.2, %broadcast.splat
  %74 = icmp eq <8 x i64> %step.add.3, %broadcast.splat
  %75 = select <8 x i1> %71, <8 x i32> %broadcast.splat7, <8 x i32> zeroinitializer
  %76 = select <8 x i1> %72, <8 x i32> %broadcast.splat7, <8 x i32> zeroinitializer
  %77 = select <8 x i1> %73, <8 x i32> %broadcast.splat7, <8 x i32> zeroinitializer
  %78 = select <8 x i1> %74, <8 x i32> %broadcast.splat7, <8 x i32> zeroinitializer
  %79 = or <8 x i32> %vec.phi, %75
  %80 = or <8 x i32> %vec.phi10, %76
  %81 = or <8 x i32> %vec.phi11, %77
  %82 = or <8 x i32> %vec.phi12, %78
  %index.next = add nuw i64 %index, 32
  %vec.ind.next = add <8 x i64> %vec.ind, splat (i64 32)
  %83 = icmp eq i64 %index.next, %n.vec
  br i1 %83, label %middle.block, label %vector.body, !llvm.loop !10

middle.block:                                     ; preds = %vector.body
  %bin.rdx = or <8 x i32> %80, %79
  %bin.rdx13 = or <8 x i32> %81, %bin.rdx
  %bin.rdx14 = or <8 x i32> %82, %bin.rdx13
  %84 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx14)
  br i1 %cmp.n, label %wi0.head.4.wi0.end.4_crit_edge.split.us.us.us.us.us.us.us.us206, label %vec.epilog.iter.check

vec.epilog.iter.check:                            ; preds = %middle.block
  br i1 %min.epilog.iters.check, label %wi0.body.4.us.us.us.us.us.us.us.us196.preheader, label %vec.epilog.ph, !prof !12

vec.epilog.ph:                                    ; preds = %vector.main.loop.iter.check, %vec.epilog.iter.check
  %vec.epilog.resume.val = phi i64 [ %n.vec, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %bc.resume.val = phi i64 [ %67, %vec.epilog.iter.check ], [ %.409.us.us.us.us.us.us.us.us204.peel, %vector.main.loop.iter.check ]
  %bc.merge.rdx = phi i32 [ %84, %vec.epilog.iter.check ], [ %.400, %vector.main.loop.iter.check ]
  %85 = insertelement <4 x i32> <i32 poison, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx, i64 0
  %broadcast.splatinsert21 = insertelement <4 x i64> poison, i64 %bc.resume.val, i64 0
  %broadcast.splat22 = shufflevector <4 x i64> %broadcast.splatinsert21, <4 x i64> poison, <4 x i32> zeroinitializer
  %induction23 = add nsw <4 x i64> %broadcast.splat22, <i64 0, i64 1, i64 2, i64 3>
  br label %vec.epilog.vector.body

vec.epilog.vector.body:                           ; preds = %vec.epilog.vector.body, %vec.epilog.ph
  %index24 = phi i64 [ %vec.epilog.resume.val, %vec.epilog.ph ], [ %index.next27, %vec.epilog.vector.body ]
  %vec.ind25 = phi <4 x i64> [ %induction23, %vec.epilog.ph ], [ %vec.ind.next28, %vec.epilog.vector.body ]
  %vec.phi26 = phi <4 x i32> [ %85, %vec.epilog.ph ], [ %88, %vec.epilog.vector.body ]
  %86 = icmp eq <4 x i64> %vec.ind25, %broadcast.splat18
  %87 = select <4 x i1> %86, <4 x i32> %broadcast.splat20, <4 x i32> zeroinitializer
  %88 = or <4 x i32> %vec.phi26, %87
  %index.next27 = add nuw i64 %index24, 4
  %vec.ind.next28 = add nsw <4 x i64> %vec.ind25, splat (i64 4)
  %89 = icmp eq i64 %index.next27, %n.vec16
  br i1 %89, label %vec.epilog.middle.block, label %vec.epilog.vector.body, !llvm.loop !13

vec.epilog.middle.block:                          ; preds = %vec.epilog.vector.body
  %90 = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %88)
  br i1 %cmp.n29, label %wi0.head.4.wi0.end.4_crit_edge.split.us.us.us.us.us.us.us.us206, label %wi0.body.4.us.us.us.us.us.us.us.us196.preheader

wi0.body.4.us.us.us.us.us.us.us.us196.preheader:  ; preds = %iter.check, %vec.epilog.iter.check, %vec.epilog.middle.block
  %wi0.4103.us.us.us.us.us.us.us.us197.ph = phi i64 [ %.409.us.us.us.us.us.us.us.us204.peel, %iter.check ], [ %ind.end, %vec.epilog.iter.check ], [ %69, %vec.epilog.middle.block ]
  %row.bad.2102.us.us.us.us.us.us.us.us198.ph = phi i32 [ %.400, %iter.check ], [ %84, %vec.epilog.iter.check ], [ %90, %vec.epilog.middle.block ]
  br label %wi0.body.4.us.us.us.us.us.us.us.us196

wi0.body.5.us108.us.us.us.us.us.us:               ; preds = %wi0.body.5.us108.us.us.us.us.us.us.prol.loopexit, %if.end.3.us.us.us.us.us.us.us.3
  %wi0.5105.us109.us.us.us.us.us.us = phi i64 [ %.450.us110.us.us.us.us.us.us.3, %if.end.3.us.us.us.us.us.us.us.3 ], [ %wi0.5105.us109.us.us.us.us.us.us.unr, %wi0.body.5.us108.us.us.us.us.us.us.prol.loopexit ]
  %.432.us.us.us.us.us.us.us.not = icmp eq i64 %wi0.5105.us109.us.us.us.us.us.us, %.33
  br i1 %.432.us.us.us.us.us.us.us.not, label %if.then.3.if.us.us.us.us.us.us.us, label %if.end.3.us.us.us.us.us.us.us, !prof !14

if.then.3.if.us.us.us.us.us.us.us:                ; preds = %wi0.body.5.us108.us.us.us.us.us.us
  %.439.us.us.us.us.us.us.us = load i64, ptr %.16, align 8
  %.440.us.us.us.us.us.us.us = icmp eq i64 %.439.us.us.us.us.us.us.us, 0
  br i1 %.440.us.us.us.us.us.us.us, label %if.then.3.if.if.us.us.us.us.us.us.us, label %if.end.3.us.us.us.us.us.us.us

if.then.3.if.if.us.us.us.us.us.us.us:             ; preds = %if.then.3.if.us.us.us.us.us.us.us
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.133, align 8
  br label %if.end.3.us.us.us.us.us.us.us

if.end.3.us.us.us.us.us.us.us:                    ; preds = %if.then.3.if.if.us.us.us.us.us.us.us, %if.then.3.if.us.us.us.us.us.us.us, %wi0.body.5.us108.us.us.us.us.us.us
  %.450.us110.us.us.us.us.us.us = add nsw i64 %wi0.5105.us109.us.us.us.us.us.us, 1
  %.432.us.us.us.us.us.us.us.not.1 = icmp eq i64 %.450.us110.us.us.us.us.us.us, %.33
  br i1 %.432.us.us.us.us.us.us.us.not.1, label %if.then.3.if.us.us.us.us.us.us.us.1, label %if.end.3.us.us.us.us.us.us.us.1, !prof !14

if.then.3.if.us.us.us.us.us.us.us.1:              ; preds = %if.end.3.us.us.us.us.us.us.us
  %.439.us.us.us.us.us.us.us.1 = load i64, ptr %.16, align 8
  %.440.us.us.us.us.us.us.us.1 = icmp eq i64 %.439.us.us.us.us.us.us.us.1, 0
  br i1 %.440.us.us.us.us.us.us.us.1, label %if.then.3.if.if.us.us.us.us.us.us.us.1, label %if.end.3.us.us.us.us.us.us.us.1

if.then.3.if.if.us.us.us.us.us.us.us.1:           ; preds = %if.then.3.if.us.us.us.us.us.us.us.1
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.133, align 8
  br label %if.end.3.us.us.us.us.us.us.us.1

if.end.3.us.us.us.us.us.us.us.1:                  ; preds = %if.then.3.if.if.us.us.us.us.us.us.us.1, %if.then.3.if.us.us.us.us.us.us.us.1, %if.end.3.us.us.us.us.us.us.us
  %.450.us110.us.us.us.us.us.us.1 = add nsw i64 %wi0.5105.us109.us.us.us.us.us.us, 2
  %.432.us.us.us.us.us.us.us.not.2 = icmp eq i64 %.450.us110.us.us.us.us.us.us.1, %.33
  br i1 %.432.us.us.us.us.us.us.us.not.2, label %if.then.3.if.us.us.us.us.us.us.us.2, label %if.end.3.us.us.us.us.us.us.us.2, !prof !14

if.then.3.if.us.us.us.us.us.us.us.2:              ; preds = %if.end.3.us.us.us.us.us.us.us.1
  %.439.us.us.us.us.us.us.us.2 = load i64, ptr %.16, align 8
  %.440.us.us.us.us.us.us.us.2 = icmp eq i64 %.439.us.us.us.us.us.us.us.2, 0
  br i1 %.440.us.us.us.us.us.us.us.2, label %if.then.3.if.if.us.us.us.us.us.us.us.2, label %if.end.3.us.us.us.us.us.us.us.2

if.then.3.if.if.us.us.us.us.us.us.us.2:           ; preds = %if.then.3.if.us.us.us.us.us.us.us.2
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.133, align 8
  br label %if.end.3.us.us.us.us.us.us.us.2

if.end.3.us.us.us.us.us.us.us.2:                  ; preds = %if.then.3.if.if.us.us.us.us.us.us.us.2, %if.then.3.if.us.us.us.us.us.us.us.2, %if.end.3.us.us.us.us.us.us.us.1
  %.450.us110.us.us.us.us.us.us.2 = add nsw i64 %wi0.5105.us109.us.us.us.us.us.us, 3
  %.432.us.us.us.us.us.us.us.not.3 = icmp eq i64 %.450.us110.us.us.us.us.us.us.2, %.33
  br i1 %.432.us.us.us.us.us.us.us.not.3, label %if.then.3.if.us.us.us.us.us.us.us.3, label %if.end.3.us.us.us.us.us.us.us.3, !prof !14

if.then.3.if.us.us.us.us.us.us.us.3:              ; preds = %if.end.3.us.us.us.us.us.us.us.2
  %.439.us.us.us.us.us.us.us.3 = load i64, ptr %.16, align 8
  %.440.us.us.us.us.us.us.us.3 = icmp eq i64 %.439.us.us.us.us.us.us.us.3, 0
  br i1 %.440.us.us.us.us.us.us.us.3, label %if.then.3.if.if.us.us.us.us.us.us.us.3, label %if.end.3.us.us.us.us.us.us.us.3

if.then.3.if.if.us.us.us.us.us.us.us.3:           ; preds = %if.then.3.if.us.us.us.us.us.us.us.3
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.133, align 8
  br label %if.end.3.us.us.us.us.us.us.us.3

if.end.3.us.us.us.us.us.us.us.3:                  ; preds = %if.then.3.if.if.us.us.us.us.us.us.us.3, %if.then.3.if.us.us.us.us.us.us.us.3, %if.end.3.us.us.us.us.us.us.us.2
  %.450.us110.us.us.us.us.us.us.3 = add nsw i64 %wi0.5105.us109.us.us.us.us.us.us, 4
  %.415.us111.us.us.us.us.us.us.3 = icmp slt i64 %.450.us110.us.us.us.us.us.us.3, %.38
  br i1 %.415.us111.us.us.us.us.us.us.3, label %wi0.body.5.us108.us.us.us.us.us.us, label %wi0.end.4.endif.us.us.us.us.us.us.us192, !llvm.loop !15

wi0.end.4.endif.us.us.us.us.us.us.us192:          ; preds = %wi0.body.5.us108.us.us.us.us.us.us.prol.loopexit, %if.end.3.us.us.us.us.us.us.us.3, %if.end.3.us.us.us.us.us.us.us.peel, %wi0.head.4.wi0.end.4_crit_edge.split.us.us.us.us.us.us.us.us206
  %.454.us.us.us.us.us.us.us193 = add nsw i64 %wi1.2107.us.us.us.us.us.us.us191, 1
  %.374.us.us.us.us.us.us.us194 = icmp slt i64 %.454.us.us.us.us.us.us.us193, %.41
  br i1 %.374.us.us.us.us.us.us.us194, label %wi0.head.4.preheader.us.us.us.us.us.us.us190, label %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.us.split.us.us.split.us209

wi0.body.4.us.us.us.us.us.us.us.us196:            ; preds = %wi0.body.4.us.us.us.us.us.us.us.us196.preheader, %wi0.body.4.us.us.us.us.us.us.us.us196
  %wi0.4103.us.us.us.us.us.us.us.us197 = phi i64 [ %.409.us.us.us.us.us.us.us.us204, %wi0.body.4.us.us.us.us.us.us.us.us196 ], [ %wi0.4103.us.us.us.us.us.us.us.us197.ph, %wi0.body.4.us.us.us.us.us.us.us.us196.preheader ]
  %row.bad.2102.us.us.us.us.us.us.us.us198 = phi i32 [ %spec.select213, %wi0.body.4.us.us.us.us.us.us.us.us196 ], [ %row.bad.2102.us.us.us.us.us.us.us.us198.ph, %wi0.body.4.us.us.us.us.us.us.us.us196.preheader ]
  %.393.us.us.us.us.us.us.us.us199 = icmp eq i64 %wi0.4103.us.us.us.us.us.us.us.us197, %.33
  %.401.us.us.us.us.us.us.us.us201 = select i1 %.393.us.us.us.us.us.us.us.us199, i32 %.400, i32 0
  %spec.select213 = or i32 %row.bad.2102.us.us.us.us.us.us.us.us198, %.401.us.us.us.us.us.us.us.us201
  %.409.us.us.us.us.us.us.us.us204 = add nsw i64 %wi0.4103.us.us.us.us.us.us.us.us197, 1
  %.378.us.us.us.us.us.us.us.us205 = icmp slt i64 %.409.us.us.us.us.us.us.us.us204, %.38
  br i1 %.378.us.us.us.us.us.us.us.us205, label %wi0.body.4.us.us.us.us.us.us.us.us196, label %wi0.head.4.wi0.end.4_crit_edge.split.us.us.us.us.us.us.us.us206, !llvm.loop !16

wi0.head.4.wi0.end.4_crit_edge.split.us.us.us.us.us.us.us.us206: ; preds = %wi0.body.4.us.us.us.us.us.us.us.us196, %middle.block, %vec.epilog.middle.block, %wi0.head.4.preheader.us.us.us.us.us.us.us190
  %spec.select213.lcssa = phi i32 [ %.400, %wi0.head.4.preheader.us.us.us.us.us.us.us190 ], [ %90, %vec.epilog.middle.block ], [ %84, %middle.block ], [ %spec.select213, %wi0.body.4.us.us.us.us.us.us.us.us196 ]
  %.412.not.us.us.us.us.us.us.us208 = icmp eq i32 %spec.select213.lcssa, 0
  br i1 %.412.not.us.us.us.us.us.us.us208, label %wi0.end.4.endif.us.us.us.us.us.us.us192, label %if.then.3.if.us.us.us.us.us.us.us.peel, !prof !7

if.then.3.if.us.us.us.us.us.us.us.peel:           ; preds = %wi0.head.4.wi0.end.4_crit_edge.split.us.us.us.us.us.us.us.us206
  %.439.us.us.us.us.us.us.us.peel = load i64, ptr %.16, align 8
  %.440.us.us.us.us.us.us.us.peel = icmp eq i64 %.439.us.us.us.us.us.us.us.peel, 0
  br i1 %.440.us.us.us.us.us.us.us.peel, label %if.then.3.if.if.us.us.us.us.us.us.us.peel, label %if.end.3.us.us.us.us.us.us.us.peel

if.then.3.if.if.us.us.us.us.us.us.us.peel:        ; preds = %if.then.3.if.us.us.us.us.us.us.us.peel
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.133, align 8
  br label %if.end.3.us.us.us.us.us.us.us.peel

if.end.3.us.us.us.us.us.us.us.peel:               ; preds = %if.then.3.if.if.us.us.us.us.us.us.us.peel, %if.then.3.if.us.us.us.us.us.us.us.peel
  br i1 %.378.us.us.us.us.us.us.us.us205.peel, label %wi0.body.5.us108.us.us.us.us.us.us.preheader, label %wi0.end.4.endif.us.us.us.us.us.us.us192

wi0.body.5.us108.us.us.us.us.us.us.preheader:     ; preds = %if.end.3.us.us.us.us.us.us.us.peel
  br i1 %lcmp.mod153.not, label %wi0.body.5.us108.us.us.us.us.us.us.prol.loopexit, label %wi0.body.5.us108.us.us.us.us.us.us.prol

wi0.body.5.us108.us.us.us.us.us.us.prol:          ; preds = %wi0.body.5.us108.us.us.us.us.us.us.preheader, %if.end.3.us.us.us.us.us.us.us.prol
  %wi0.5105.us109.us.us.us.us.us.us.prol = phi i64 [ %.450.us110.us.us.us.us.us.us.prol, %if.end.3.us.us.us.us.us.us.us.prol ], [ %.409.us.us.us.us.us.us.us.us204.peel, %wi0.body.5.us108.us.us.us.us.us.us.preheader ]
  %prol.iter154 = phi i64 [ %prol.iter154.next, %if.end.3.us.us.us.us.us.us.us.prol ], [ 0, %wi0.body.5.us108.us.us.us.us.us.us.preheader ]
  %.432.us.us.us.us.us.us.us.not.prol = icmp eq i64 %wi0.5105.us109.us.us.us.us.us.us.prol, %.33
  br i1 %.432.us.us.us.us.us.us.us.not.prol, label %if.then.3.if.us.us.us.us.us.us.us.prol, label %if.end.3.us.us.us.us.us.us.us.prol, !prof !14

if.then.3.if.us.us.us.us.us.us.us.prol:           ; preds = %wi0.body.5.us108.us.us.us.us.us.us.prol
  %.439.us.us.us.us.us.us.us.prol = load i64, ptr %.16, align 8
  %.440.us.us.us.us.us.us.us.prol = icmp eq i64 %.439.us.us.us.us.us.us.us.prol, 0
  br i1 %.440.us.us.us.us.us.us.us.prol, label %if.then.3.if.if.us.us.us.us.us.us.us.prol, label %if.end.3.us.us.us.us.us.us.us.prol

if.then.3.if.if.us.us.us.us.us.us.us.prol:        ; preds = %if.then.3.if.us.us.us.us.us.us.us.prol
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.133, align 8
  br label %if.end.3.us.us.us.us.us.us.us.prol

if.end.3.us.us.us.us.us.us.us.prol:               ; preds = %if.then.3.if.if.us.us.us.us.us.us.us.prol, %if.then.3.if.us.us.us.us.us.us.us.prol, %wi0.body.5.us108.us.us.us.us.us.us.prol
  %.450.us110.us.us.us.us.us.us.prol = add nsw i64 %wi0.5105.us109.us.us.us.us.us.us.prol, 1
  %prol.iter154.next = add i64 %prol.iter154, 1
  %prol.iter154.cmp.not = icmp eq i64 %prol.iter154.next, %xtraiter152
  br i1 %prol.iter154.cmp.not, label %wi0.body.5.us108.us.us.us.us.us.us.prol.loopexit, label %wi0.body.5.us108.us.us.us.us.us.us.prol, !llvm.loop !17

wi0.body.5.us108.us.us.us.us.us.us.prol.loopexit: ; preds = %if.end.3.us.us.us.us.us.us.us.prol, %wi0.body.5.us108.us.us.us.us.us.us.preheader
  %wi0.5105.us109.us.us.us.us.us.us.unr = phi i64 [ %.409.us.us.us.us.us.us.us.us204.peel, %wi0.body.5.us108.us.us.us.us.us.us.preheader ], [ %.450.us110.us.us.us.us.us.us.prol, %if.end.3.us.us.us.us.us.us.us.prol ]
  br i1 %70, label %wi0.end.4.endif.us.us.us.us.us.us.us192, label %wi0.body.5.us108.us.us.us.us.us.us

wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.us.split.us.us.split.us209: ; preds = %wi0.end.4.endif.us.us.us.us.us.us.us192
  %.457.us.us.us.us = add nsw i64 %wi2.2128.us.us.us.us, 1
  %.371.us.us.us.us = icmp slt i64 %.457.us.us.us.us, %.44
  br i1 %.371.us.us.us.us, label %wi1.head.2.preheader.us.us.us.us, label %wi2.end.2

wi1.head.2.preheader.lr.ph.split.us.split.us.split.split.us: ; preds = %wi1.head.2.preheader.lr.ph.split.us.split.us
  %.409.us120.us.us.us.us.us.us.peel = add nsw i64 %.33, 1
  %.378.us121.us.us.us.us.us.us.peel = icmp slt i64 %.409.us120.us.us.us.us.us.us.peel, %.38
  br i1 %.436.not.fr, label %wi1.head.2.preheader.us.us.us186.us, label %wi1.head.2.preheader.us.us.us186

wi1.head.2.preheader.us.us.us186.us:              ; preds = %wi1.head.2.preheader.lr.ph.split.us.split.us.split.split.us, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split.us.us
  %wi2.2128.us.us.us187.us = phi i64 [ %.457.us.us.us188.us, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split.us.us ], [ %.35, %wi1.head.2.preheader.lr.ph.split.us.split.us.split.split.us ]
  br label %if.end.2.us118.us.us.us.us.us.us.peel

if.end.2.us118.us.us.us.us.us.us.peel:            ; preds = %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us.us.us, %wi1.head.2.preheader.us.us.us186.us
  %wi1.2107.us.us.us.us137.us.us.us = phi i64 [ %.34, %wi1.head.2.preheader.us.us.us186.us ], [ %.454.us.us.us.us149.us.us.us, %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us.us.us ]
  br i1 %.378.us121.us.us.us.us.us.us.peel, label %wi0.body.4.us112.us.us.us.us.us.us, label %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us.us.us

wi0.body.4.us112.us.us.us.us.us.us:               ; preds = %if.end.2.us118.us.us.us.us.us.us.peel, %wi0.body.4.us112.us.us.us.us.us.us
  %.396255 = phi float [ %spec.select, %wi0.body.4.us112.us.us.us.us.us.us ], [ %.396, %if.end.2.us118.us.us.us.us.us.us.peel ]
  %wi0.4103.us113.us.us.us.us.us.us = phi i64 [ %.409.us120.us.us.us.us.us.us, %wi0.body.4.us112.us.us.us.us.us.us ], [ %.409.us120.us.us.us.us.us.us.peel, %if.end.2.us118.us.us.us.us.us.us.peel ]
  %.393.us115.us.us.us.us.us.us = icmp eq i64 %wi0.4103.us113.us.us.us.us.us.us, %.33
  %spec.select = select i1 %.393.us115.us.us.us.us.us.us, float %.396, float %.396255
  %.409.us120.us.us.us.us.us.us = add nsw i64 %wi0.4103.us113.us.us.us.us.us.us, 1
  %.378.us121.us.us.us.us.us.us = icmp slt i64 %.409.us120.us.us.us.us.us.us, %.38
  br i1 %.378.us121.us.us.us.us.us.us, label %wi0.body.4.us112.us.us.us.us.us.us, label %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us.us.us, !llvm.loop !18

wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us.us.us: ; preds = %wi0.body.4.us112.us.us.us.us.us.us, %if.end.2.us118.us.us.us.us.us.us.peel
  %.396253 = phi float [ %.396, %if.end.2.us118.us.us.us.us.us.us.peel ], [ %spec.select, %wi0.body.4.us112.us.us.us.us.us.us ]
  %.454.us.us.us.us149.us.us.us = add nsw i64 %wi1.2107.us.us.us.us137.us.us.us, 1
  %.374.us.us.us.us150.us.us.us = icmp slt i64 %.454.us.us.us.us149.us.us.us, %.41
  br i1 %.374.us.us.us.us150.us.us.us, label %if.end.2.us118.us.us.us.us.us.us.peel, label %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split.us.us

wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split.us.us: ; preds = %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us.us.us
  %.457.us.us.us188.us = add nsw i64 %wi2.2128.us.us.us187.us, 1
  %.371.us.us.us189.us = icmp slt i64 %.457.us.us.us188.us, %.44
  br i1 %.371.us.us.us189.us, label %wi1.head.2.preheader.us.us.us186.us, label %wi2.end.2.sink.split

wi1.head.2.preheader.us.us.us186:                 ; preds = %wi1.head.2.preheader.lr.ph.split.us.split.us.split.split.us, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split
  %wi2.2128.us.us.us187 = phi i64 [ %.457.us.us.us188, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split ], [ %.35, %wi1.head.2.preheader.lr.ph.split.us.split.us.split.split.us ]
  br label %if.end.2.us118.us.us.us.us.peel

if.end.2.us118.us.us.us.us.peel:                  ; preds = %wi0.end.4.endif.us.us.us.us148.us, %wi1.head.2.preheader.us.us.us186
  %wi1.2107.us.us.us.us137.us = phi i64 [ %.34, %wi1.head.2.preheader.us.us.us186 ], [ %.454.us.us.us.us149.us, %wi0.end.4.endif.us.us.us.us148.us ]
  br i1 %.378.us121.us.us.us.us.us.us.peel, label %wi0.body.4.us112.us.us.us.us, label %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us

wi0.body.5.us108.us.us.us138.us:                  ; preds = %if.end.3.us.us.us.us145.us.peel, %if.end.3.us.us.us.us145.us
  %wi0.5105.us109.us.us.us139.us = phi i64 [ %.450.us110.us.us.us146.us, %if.end.3.us.us.us.us145.us ], [ %.409.us120.us.us.us.us.us.us.peel, %if.end.3.us.us.us.us145.us.peel ]
  %.432.us.us.us.us140.us.not = icmp eq i64 %wi0.5105.us109.us.us.us139.us, %.33
  br i1 %.432.us.us.us.us140.us.not, label %if.then.3.if.us.us.us.us141.us, label %if.end.3.us.us.us.us145.us, !prof !14

if.then.3.if.us.us.us.us141.us:                   ; preds = %wi0.body.5.us108.us.us.us138.us
  %.439.us.us.us.us142.us = load i64, ptr %.16, align 8
  %.440.us.us.us.us143.us = icmp eq i64 %.439.us.us.us.us142.us, 0
  br i1 %.440.us.us.us.us143.us, label %if.then.3.if.if.us.us.us.us144.us, label %if.end.3.us.us.us.us145.us

if.then.3.if.if.us.us.us.us144.us:                ; preds = %if.then.3.if.us.us.us.us141.us
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.133, align 8
  br label %if.end.3.us.us.us.us145.us

if.end.3.us.us.us.us145.us:                       ; preds = %if.then.3.if.if.us.us.us.us144.us, %if.then.3.if.us.us.us.us141.us, %wi0.body.5.us108.us.us.us138.us
  %.450.us110.us.us.us146.us = add nsw i64 %wi0.5105.us109.us.us.us139.us, 1
  %.415.us111.us.us.us147.us = icmp slt i64 %.450.us110.us.us.us146.us, %.38
  br i1 %.415.us111.us.us.us147.us, label %wi0.body.5.us108.us.us.us138.us, label %wi0.end.4.endif.us.us.us.us148.us, !llvm.loop !19

wi0.end.4.endif.us.us.us.us148.us:                ; preds = %if.end.3.us.us.us.us145.us, %if.end.3.us.us.us.us145.us.peel, %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us
  %.454.us.us.us.us149.us = add nsw i64 %wi1.2107.us.us.us.us137.us, 1
  %.374.us.us.us.us150.us = icmp slt i64 %.454.us.us.us.us149.us, %.41
  br i1 %.374.us.us.us.us150.us, label %if.end.2.us118.us.us.us.us.peel, label %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split

wi0.body.4.us112.us.us.us.us:                     ; preds = %if.end.2.us118.us.us.us.us.peel, %wi0.body.4.us112.us.us.us.us
  %.396252 = phi float [ %.396251, %wi0.body.4.us112.us.us.us.us ], [ %.396, %if.end.2.us118.us.us.us.us.peel ]
  %wi0.4103.us113.us.us.us.us = phi i64 [ %.409.us120.us.us.us.us, %wi0.body.4.us112.us.us.us.us ], [ %.409.us120.us.us.us.us.us.us.peel, %if.end.2.us118.us.us.us.us.peel ]
  %row.bad.2102.us114.us.us.us.us = phi i32 [ %row.bad.3.us119.us.us.us.us, %wi0.body.4.us112.us.us.us.us ], [ %.400, %if.end.2.us118.us.us.us.us.peel ]
  %.393.us115.us.us.us.us = icmp eq i64 %wi0.4103.us113.us.us.us.us, %.33
  %.396251 = select i1 %.393.us115.us.us.us.us, float %.396, float %.396252
  %.401.us117.us.us.us.us = select i1 %.393.us115.us.us.us.us, i32 %.400, i32 0
  %row.bad.3.us119.us.us.us.us = or i32 %row.bad.2102.us114.us.us.us.us, %.401.us117.us.us.us.us
  %.409.us120.us.us.us.us = add nsw i64 %wi0.4103.us113.us.us.us.us, 1
  %.378.us121.us.us.us.us = icmp slt i64 %.409.us120.us.us.us.us, %.38
  br i1 %.378.us121.us.us.us.us, label %wi0.body.4.us112.us.us.us.us, label %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us, !llvm.loop !20

wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us: ; preds = %wi0.body.4.us112.us.us.us.us, %if.end.2.us118.us.us.us.us.peel
  %.396250 = phi float [ %.396, %if.end.2.us118.us.us.us.us.peel ], [ %.396251, %wi0.body.4.us112.us.us.us.us ]
  %row.bad.3.us119.us.us.us.us.lcssa = phi i32 [ %.400, %if.end.2.us118.us.us.us.us.peel ], [ %row.bad.3.us119.us.us.us.us, %wi0.body.4.us112.us.us.us.us ]
  %.412.not.us.us.us.us153.us = icmp eq i32 %row.bad.3.us119.us.us.us.us.lcssa, 0
  br i1 %.412.not.us.us.us.us153.us, label %wi0.end.4.endif.us.us.us.us148.us, label %if.then.3.if.us.us.us.us141.us.peel, !prof !7

if.then.3.if.us.us.us.us141.us.peel:              ; preds = %wi0.head.4.wi0.end.4_crit_edge.split.us122.us.us.us.us
  %.439.us.us.us.us142.us.peel = load i64, ptr %.16, align 8
  %.440.us.us.us.us143.us.peel = icmp eq i64 %.439.us.us.us.us142.us.peel, 0
  br i1 %.440.us.us.us.us143.us.peel, label %if.then.3.if.if.us.us.us.us144.us.peel, label %if.end.3.us.us.us.us145.us.peel

if.then.3.if.if.us.us.us.us144.us.peel:           ; preds = %if.then.3.if.us.us.us.us141.us.peel
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.133, align 8
  br label %if.end.3.us.us.us.us145.us.peel

if.end.3.us.us.us.us145.us.peel:                  ; preds = %if.then.3.if.if.us.us.us.us144.us.peel, %if.then.3.if.us.us.us.us141.us.peel
  br i1 %.378.us121.us.us.us.us.us.us.peel, label %wi0.body.5.us108.us.us.us138.us, label %wi0.end.4.endif.us.us.us.us148.us

wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split: ; preds = %wi0.end.4.endif.us.us.us.us148.us
  %.457.us.us.us188 = add nsw i64 %wi2.2128.us.us.us187, 1
  %.371.us.us.us189 = icmp slt i64 %.457.us.us.us188, %.44
  br i1 %.371.us.us.us189, label %wi1.head.2.preheader.us.us.us186, label %wi2.end.2.sink.split

gwhile.body:                                      ; preds = %gwhile.body.backedge, %gwhile.head.preheader
  %step.group.097 = phi i64 [ 64, %gwhile.head.preheader ], [ %step.group.097.be, %gwhile.body.backedge ]
  %.193 = tail call i64 @llvm.smin.i64(i64 %step.group.097, i64 %.4)
  %.194 = add i64 %.193, %.33
  %.196 = tail call i64 @llvm.smin.i64(i64 %.194, i64 %.38)
  br i1 %.4632, label %wi1.head.1.preheader.lr.ph, label %wi2.end.1.thread

wi1.head.1.preheader.lr.ph:                       ; preds = %gwhile.body
  br i1 %.20145, label %wi1.head.1.preheader.lr.ph.split.us, label %wi2.end.1

wi1.head.1.preheader.lr.ph.split.us:              ; preds = %wi1.head.1.preheader.lr.ph
  %.20540 = icmp slt i64 %.33, %.196
  %.26443.fr = freeze i1 %.20540
  br i1 %.26443.fr, label %wi1.head.1.preheader.us.us.us.preheader, label %wi2.end.1

wi1.head.1.preheader.us.us.us.preheader:          ; preds = %wi1.head.1.preheader.lr.ph.split.us
  %91 = shl i64 %step.group.097, 2
  %scevgep33 = getelementptr i8, ptr %tile, i64 %91
  %smax36 = call i64 @llvm.smax.i64(i64 %.196, i64 %56)
  %92 = sub i64 %smax36, %55
  %min.iters.check37 = icmp ult i64 %92, 8
  %smax = call i64 @llvm.smax.i64(i64 %.196, i64 %54)
  %93 = shl i64 %smax, 2
  %scevgep32 = getelementptr i8, ptr %scevgep, i64 %93
  %94 = add i64 %step.group.097, %smax
  %95 = shl i64 %94, 2
  %scevgep35 = getelementptr i8, ptr %scevgep34, i64 %95
  %bound0 = icmp ult ptr %tile, %scevgep35
  %bound1 = icmp ult ptr %scevgep33, %scevgep32
  %found.conflict = and i1 %bound0, %bound1
  %min.iters.check40 = icmp ult i64 %92, 16
  %n.mod.vf43 = and i64 %92, 8
  %n.vec44 = and i64 %92, -16
  %96 = insertelement <8 x i64> poison, i64 %step.group.097, i64 0
  %97 = shufflevector <8 x i64> %96, <8 x i64> poison, <8 x i32> zeroinitializer
  %invariant.gep = getelementptr float, ptr %tile, i64 %step.group.097
  %cmp.n58 = icmp eq i64 %92, %n.vec44
  %ind.end79 = add i64 %.33, %n.vec44
  %min.epilog.iters.check63.not.not = icmp eq i64 %n.mod.vf43, 0
  %n.vec66 = and i64 %92, -8
  %98 = add i64 %.33, %n.vec66
  %99 = insertelement <8 x i64> poison, i64 %step.group.097, i64 0
  %100 = shufflevector <8 x i64> %99, <8 x i64> poison, <8 x i32> zeroinitializer
  %invariant.gep169 = getelementptr float, ptr %tile, i64 %step.group.097
  %cmp.n76 = icmp eq i64 %92, %n.vec66
  br label %wi1.head.1.preheader.us.us.us

wi1.head.1.preheader.us.us.us:                    ; preds = %wi1.head.1.preheader.us.us.us.preheader, %wi1.head.1.wi1.end.1_crit_edge.split.us.us.us.split.us.us
  %wi2.183.us.us.us = phi i64 [ %.338.us.us.us, %wi1.head.1.wi1.end.1_crit_edge.split.us.us.us.split.us.us ], [ %.35, %wi1.head.1.preheader.us.us.us.preheader ]
  br label %iter.check39

iter.check39:                                     ; preds = %wi0.end.2.endif.us.us.us.us.us, %wi1.head.1.preheader.us.us.us
  %wi1.146.us.us.us.us.us = phi i64 [ %.34, %wi1.head.1.preheader.us.us.us ], [ %.335.us.us.us.us.us, %wi0.end.2.endif.us.us.us.us.us ]
  %brmerge = select i1 %min.iters.check37, i1 true, i1 %found.conflict
  br i1 %brmerge, label %wi0.body.2.us.us.us.us.us.preheader, label %vector.main.loop.iter.check41

vector.main.loop.iter.check41:                    ; preds = %iter.check39
  br i1 %min.iters.check40, label %vec.epilog.ph64, label %vector.body45

vector.body45:                                    ; preds = %vector.main.loop.iter.check41, %vector.body45
  %index46 = phi i64 [ %index.next55, %vector.body45 ], [ 0, %vector.main.loop.iter.check41 ]
  %vec.phi47 = phi <8 x i32> [ %126, %vector.body45 ], [ zeroinitializer, %vector.main.loop.iter.check41 ]
  %vec.phi48 = phi <8 x i32> [ %127, %vector.body45 ], [ zeroinitializer, %vector.main.loop.iter.check41 ]
  %101 = getelementptr float, ptr %tile, i64 %index46
  %102 = getelementptr i8, ptr %101, i64 32
  %103 = add i64 %.33, %index46
  %104 = insertelement <8 x i64> poison, i64 %index46, i64 0
  %105 = insertelement <8 x i64> %104, i64 %103, i64 1
  %106 = shufflevector <8 x i64> %105, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %107 = add <8 x i64> %106, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %108 = sub <8 x i64> %107, %60
  %109 = insertelement <8 x i64> %108, i64 %index46, i64 0
  %110 = icmp ult <8 x i64> %109, splat (i64 128)
  %wide.masked.load = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 64 %101, <8 x i1> %110, <8 x float> zeroinitializer), !alias.scope !21, !noalias !24
  %111 = add <8 x i64> %108, %97
  %112 = insertelement <8 x i64> poison, i64 %103, i64 0
  %113 = shufflevector <8 x i64> %112, <8 x i64> poison, <8 x i32> zeroinitializer
  %114 = add <8 x i64> %113, <i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %115 = sub <8 x i64> %114, %58
  %116 = icmp ult <8 x i64> %115, splat (i64 128)
  %wide.masked.load49 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 32 %102, <8 x i1> %116, <8 x float> zeroinitializer), !alias.scope !21, !noalias !24
  %117 = add <8 x i64> %115, %97
  %118 = icmp ult <8 x i64> %111, splat (i64 128)
  %119 = icmp ult <8 x i64> %117, splat (i64 128)
  %120 = or <8 x i64> %111, %109
  %121 = or <8 x i64> %117, %115
  %122 = icmp ugt <8 x i64> %120, splat (i64 127)
  %123 = icmp ugt <8 x i64> %121, splat (i64 127)
  %124 = zext <8 x i1> %122 to <8 x i32>
  %125 = zext <8 x i1> %123 to <8 x i32>
  %126 = or <8 x i32> %vec.phi47, %124
  %127 = or <8 x i32> %vec.phi48, %125
  %gep = getelementptr float, ptr %invariant.gep, i64 %index46
  %128 = getelementptr i8, ptr %gep, i64 32
  %wide.masked.load51 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %gep, <8 x i1> %118, <8 x float> zeroinitializer), !alias.scope !24
  %wide.masked.load52 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %128, <8 x i1> %119, <8 x float> zeroinitializer), !alias.scope !24
  %129 = fadd <8 x float> %wide.masked.load, %wide.masked.load51
  %130 = fadd <8 x float> %wide.masked.load49, %wide.masked.load52
  call void @llvm.masked.store.v8f32.p0(<8 x float> %129, ptr align 64 %101, <8 x i1> %110), !alias.scope !21, !noalias !24
  call void @llvm.masked.store.v8f32.p0(<8 x float> %130, ptr align 32 %102, <8 x i1> %116), !alias.scope !21, !noalias !24
  %index.next55 = add nuw i64 %index46, 16
  %131 = icmp eq i64 %index.next55, %n.vec44
  br i1 %131, label %middle.block56, label %vector.body45, !llvm.loop !26

middle.block56:                                   ; preds = %vector.body45
  %bin.rdx57 = or <8 x i32> %127, %126
  %132 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx57)
  br i1 %cmp.n58, label %wi0.head.2.wi0.end.2_crit_edge.us.us.us.us.us, label %vec.epilog.iter.check62

vec.epilog.iter.check62:                          ; preds = %middle.block56
  br i1 %min.epilog.iters.check63.not.not, label %wi0.body.2.us.us.us.us.us.preheader, label %vec.epilog.ph64, !prof !3

vec.epilog.ph64:                                  ; preds = %vector.main.loop.iter.check41, %vec.epilog.iter.check62
  %vec.epilog.resume.val59 = phi i64 [ %n.vec44, %vec.epilog.iter.check62 ], [ 0, %vector.main.loop.iter.check41 ]
  %bc.merge.rdx60 = phi i32 [ %132, %vec.epilog.iter.check62 ], [ 0, %vector.main.loop.iter.check41 ]
  %133 = insertelement <8 x i32> <i32 poison, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx60, i64 0
  br label %vec.epilog.vector.body67

vec.epilog.vector.body67:                         ; preds = %vec.epilog.vector.body67, %vec.epilog.ph64
  %index68 = phi i64 [ %vec.epilog.resume.val59, %vec.epilog.ph64 ], [ %index.next74, %vec.epilog.vector.body67 ]
  %vec.phi69 = phi <8 x i32> [ %133, %vec.epilog.ph64 ], [ %147, %vec.epilog.vector.body67 ]
  %134 = getelementptr float, ptr %tile, i64 %index68
  %offset.idx = add i64 %.33, %index68
  %135 = insertelement <8 x i64> poison, i64 %index68, i64 0
  %136 = insertelement <8 x i64> %135, i64 %offset.idx, i64 1
  %137 = shufflevector <8 x i64> %136, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %138 = add <8 x i64> %137, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %139 = sub <8 x i64> %138, %62
  %140 = insertelement <8 x i64> %139, i64 %index68, i64 0
  %141 = icmp ult <8 x i64> %140, splat (i64 128)
  %wide.masked.load70 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 32 %134, <8 x i1> %141, <8 x float> zeroinitializer), !alias.scope !21, !noalias !24
  %142 = add <8 x i64> %139, %100
  %143 = icmp ult <8 x i64> %142, splat (i64 128)
  %144 = or <8 x i64> %142, %140
  %145 = icmp ugt <8 x i64> %144, splat (i64 127)
  %146 = zext <8 x i1> %145 to <8 x i32>
  %147 = or <8 x i32> %vec.phi69, %146
  %gep170 = getelementptr float, ptr %invariant.gep169, i64 %index68
  %wide.masked.load72 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %gep170, <8 x i1> %143, <8 x float> zeroinitializer), !alias.scope !24
  %148 = fadd <8 x float> %wide.masked.load70, %wide.masked.load72
  call void @llvm.masked.store.v8f32.p0(<8 x float> %148, ptr align 32 %134, <8 x i1> %141), !alias.scope !21, !noalias !24
  %index.next74 = add nuw i64 %index68, 8
  %149 = icmp eq i64 %index.next74, %n.vec66
  br i1 %149, label %vec.epilog.middle.block75, label %vec.epilog.vector.body67, !llvm.loop !27

vec.epilog.middle.block75:                        ; preds = %vec.epilog.vector.body67
  %150 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %147)
  br i1 %cmp.n76, label %wi0.head.2.wi0.end.2_crit_edge.us.us.us.us.us, label %wi0.body.2.us.us.us.us.us.preheader

wi0.body.2.us.us.us.us.us.preheader:              ; preds = %iter.check39, %vec.epilog.iter.check62, %vec.epilog.middle.block75
  %wi0.242.us.us.us.us.us.ph = phi i64 [ %.33, %iter.check39 ], [ %98, %vec.epilog.middle.block75 ], [ %ind.end79, %vec.epilog.iter.check62 ]
  %row.bad.141.us.us.us.us.us.ph = phi i32 [ 0, %iter.check39 ], [ %150, %vec.epilog.middle.block75 ], [ %132, %vec.epilog.iter.check62 ]
  br label %wi0.body.2.us.us.us.us.us

wi0.body.3.us.us.us.us.us:                        ; preds = %wi0.head.2.wi0.end.2_crit_edge.us.us.us.us.us, %load.end.3.endif.us.us.us.us.us
  %wi0.344.us.us.us.us.us = phi i64 [ %.331.us.us.us.us.us, %load.end.3.endif.us.us.us.us.us ], [ %.33, %wi0.head.2.wi0.end.2_crit_edge.us.us.us.us.us ]
  %.272.us.us.us.us.us = sub nsw i64 %wi0.344.us.us.us.us.us, %.33
  %.281.us.us.us.us.us = icmp ugt i64 %.272.us.us.us.us.us, 127
  br i1 %.281.us.us.us.us.us, label %wi0.body.3.if.us.us.us.us.us, label %load.end.2.us.us.us.us.us, !prof !5

wi0.body.3.if.us.us.us.us.us:                     ; preds = %wi0.body.3.us.us.us.us.us
  %.284.us.us.us.us.us = load i64, ptr %.16, align 8
  %.285.us.us.us.us.us = icmp eq i64 %.284.us.us.us.us.us, 0
  br i1 %.285.us.us.us.us.us, label %wi0.body.3.if.if.us.us.us.us.us, label %load.end.2.us.us.us.us.us

wi0.body.3.if.if.us.us.us.us.us:                  ; preds = %wi0.body.3.if.us.us.us.us.us
  store i64 3, ptr %.16, align 8
  store i64 %.272.us.us.us.us.us, ptr %.133, align 8
  br label %load.end.2.us.us.us.us.us

load.end.2.us.us.us.us.us:                        ; preds = %wi0.body.3.if.if.us.us.us.us.us, %wi0.body.3.if.us.us.us.us.us, %wi0.body.3.us.us.us.us.us
  %.299.us.us.us.us.us = add i64 %.272.us.us.us.us.us, %step.group.097
  %.300.us.us.us.us.us = icmp ugt i64 %.299.us.us.us.us.us, 127
  br i1 %.300.us.us.us.us.us, label %load.end.2.if.us.us.us.us.us, label %load.end.3.us.us.us.us.us, !prof !5

load.end.2.if.us.us.us.us.us:                     ; preds = %load.end.2.us.us.us.us.us
  %.303.us.us.us.us.us = load i64, ptr %.16, align 8
  %.304.us.us.us.us.us = icmp eq i64 %.303.us.us.us.us.us, 0
  br i1 %.304.us.us.us.us.us, label %load.end.2.if.if.us.us.us.us.us, label %load.end.3.us.us.us.us.us

load.end.2.if.if.us.us.us.us.us:                  ; preds = %load.end.2.if.us.us.us.us.us
  store i64 4, ptr %.16, align 8
  store i64 %.299.us.us.us.us.us, ptr %.133, align 8
  br label %load.end.3.us.us.us.us.us

load.end.3.us.us.us.us.us:                        ; preds = %load.end.2.if.if.us.us.us.us.us, %load.end.2.if.us.us.us.us.us, %load.end.2.us.us.us.us.us
  br i1 %.281.us.us.us.us.us, label %load.end.3.if.us.us.us.us.us, label %load.end.3.endif.us.us.us.us.us, !prof !5

load.end.3.if.us.us.us.us.us:                     ; preds = %load.end.3.us.us.us.us.us
  %.321.us.us.us.us.us = load i64, ptr %.16, align 8
  %.322.us.us.us.us.us = icmp eq i64 %.321.us.us.us.us.us, 0
  br i1 %.322.us.us.us.us.us, label %load.end.3.if.if.us.us.us.us.us, label %load.end.3.endif.us.us.us.us.us

load.end.3.if.if.us.us.us.us.us:                  ; preds = %load.end.3.if.us.us.us.us.us
  store i64 5, ptr %.16, align 8
  store i64 %.272.us.us.us.us.us, ptr %.133, align 8
  br label %load.end.3.endif.us.us.us.us.us

load.end.3.endif.us.us.us.us.us:                  ; preds = %load.end.3.if.if.us.us.us.us.us, %load.end.3.if.us.us.us.us.us, %load.end.3.us.us.us.us.us
  %.331.us.us.us.us.us = add nsw i64 %wi0.344.us.us.us.us.us, 1
  %.264.us.us.us.us.us = icmp slt i64 %.331.us.us.us.us.us, %.196
  br i1 %.264.us.us.us.us.us, label %wi0.body.3.us.us.us.us.us, label %wi0.end.2.endif.us.us.us.us.us

wi0.end.2.endif.us.us.us.us.us:                   ; preds = %load.end.3.endif.us.us.us.us.us, %wi0.head.2.wi0.end.2_crit_edge.us.us.us.us.us
  %.335.us.us.us.us.us = add nsw i64 %wi1.146.us.us.us.us.us, 1
  %.201.us.us.us.us.us = icmp slt i64 %.335.us.us.us.us.us, %.41
  br i1 %.201.us.us.us.us.us, label %iter.check39, label %wi1.head.1.wi1.end.1_crit_edge.split.us.us.us.split.us.us

wi0.body.2.us.us.us.us.us:                        ; preds = %wi0.body.2.us.us.us.us.us.preheader, %load.end.1.endif.us.us.us.us.us
  %wi0.242.us.us.us.us.us = phi i64 [ %.258.us.us.us.us.us, %load.end.1.endif.us.us.us.us.us ], [ %wi0.242.us.us.us.us.us.ph, %wi0.body.2.us.us.us.us.us.preheader ]
  %row.bad.141.us.us.us.us.us = phi i32 [ %.238.us.us.us.us.us, %load.end.1.endif.us.us.us.us.us ], [ %row.bad.141.us.us.us.us.us.ph, %wi0.body.2.us.us.us.us.us.preheader ]
  %.213.us.us.us.us.us = sub nsw i64 %wi0.242.us.us.us.us.us, %.33
  %.220.us.us.us.us.us = icmp ugt i64 %.213.us.us.us.us.us, 127
  %.226.us.us.us.us.us = getelementptr float, ptr %tile, i64 %.213.us.us.us.us.us
  br i1 %.220.us.us.us.us.us, label %load.end.us.us.us.us.us, label %load.ok.us.us.us.us.us

load.ok.us.us.us.us.us:                           ; preds = %wi0.body.2.us.us.us.us.us
  %.228.us.us.us.us.us = load float, ptr %.226.us.us.us.us.us, align 4
  br label %load.end.us.us.us.us.us

load.end.us.us.us.us.us:                          ; preds = %load.ok.us.us.us.us.us, %wi0.body.2.us.us.us.us.us
  %.230.us.us.us.us.us = phi float [ %.228.us.us.us.us.us, %load.ok.us.us.us.us.us ], [ 0.000000e+00, %wi0.body.2.us.us.us.us.us ]
  %.233.us.us.us.us.us = add i64 %.213.us.us.us.us.us, %step.group.097
  %.234.us.us.us.us.us = icmp ugt i64 %.233.us.us.us.us.us, 127
  %151 = or i64 %.233.us.us.us.us.us, %.213.us.us.us.us.us
  %152 = icmp ugt i64 %151, 127
  %153 = zext i1 %152 to i32
  %.238.us.us.us.us.us = or i32 %row.bad.141.us.us.us.us.us, %153
  br i1 %.234.us.us.us.us.us, label %load.end.1.us.us.us.us.us, label %load.ok.1.us.us.us.us.us

load.ok.1.us.us.us.us.us:                         ; preds = %load.end.us.us.us.us.us
  %.240.us.us.us.us.us = getelementptr float, ptr %tile, i64 %.233.us.us.us.us.us
  %.242.us.us.us.us.us = load float, ptr %.240.us.us.us.us.us, align 4
  br label %load.end.1.us.us.us.us.us

load.end.1.us.us.us.us.us:                        ; preds = %load.ok.1.us.us.us.us.us, %load.end.us.us.us.us.us
  %.244.us.us.us.us.us = phi float [ %.242.us.us.us.us.us, %load.ok.1.us.us.us.us.us ], [ 0.000000e+00, %load.end.us.us.us.us.us ]
  br i1 %.220.us.us.us.us.us, label %load.end.1.endif.us.us.us.us.us, label %load.end.1.if.us.us.us.us.us, !prof !5

load.end.1.if.us.us.us.us.us:                     ; preds = %load.end.1.us.us.us.us.us
  %.245.us.us.us.us.us = fadd float %.230.us.us.us.us.us, %.244.us.us.us.us.us
  store float %.245.us.us.us.us.us, ptr %.226.us.us.us.us.us, align 4
  br label %load.end.1.endif.us.us.us.us.us

load.end.1.endif.us.us.us.us.us:                  ; preds = %load.end.1.if.us.us.us.us.us, %load.end.1.us.us.us.us.us
  %.258.us.us.us.us.us = add nsw i64 %wi0.242.us.us.us.us.us, 1
  %.205.us.us.us.us.us = icmp slt i64 %.258.us.us.us.us.us, %.196
  br i1 %.205.us.us.us.us.us, label %wi0.body.2.us.us.us.us.us, label %wi0.head.2.wi0.end.2_crit_edge.us.us.us.us.us, !llvm.loop !28

wi0.head.2.wi0.end.2_crit_edge.us.us.us.us.us:    ; preds = %load.end.1.endif.us.us.us.us.us, %vec.epilog.middle.block75, %middle.block56
  %.238.us.us.us.us.us.lcssa = phi i32 [ %150, %vec.epilog.middle.block75 ], [ %132, %middle.block56 ], [ %.238.us.us.us.us.us, %load.end.1.endif.us.us.us.us.us ]
  %.261.not.us.us.us.us.us = icmp eq i32 %.238.us.us.us.us.us.lcssa, 0
  br i1 %.261.not.us.us.us.us.us, label %wi0.end.2.endif.us.us.us.us.us, label %wi0.body.3.us.us.us.us.us, !prof !7

wi1.head.1.wi1.end.1_crit_edge.split.us.us.us.split.us.us: ; preds = %wi0.end.2.endif.us.us.us.us.us
  %.338.us.us.us = add nsw i64 %wi2.183.us.us.us, 1
  %.198.us.us.us = icmp slt i64 %.338.us.us.us, %.44
  br i1 %.198.us.us.us, label %wi1.head.1.preheader.us.us.us, label %wi2.end.1

wi2.end.1:                                        ; preds = %wi1.head.1.wi1.end.1_crit_edge.split.us.us.us.split.us.us, %wi1.head.1.preheader.lr.ph.split.us, %wi1.head.1.preheader.lr.ph
  %.35724 = lshr i64 %step.group.097, 1
  %.175.not = icmp eq i64 %.35724, 0
  br i1 %.175.not, label %wi1.head.2.preheader.lr.ph, label %gwhile.body.backedge

gwhile.body.backedge:                             ; preds = %wi2.end.1, %wi2.end.1.thread
  %step.group.097.be = phi i64 [ %.35724, %wi2.end.1 ], [ %.35724243, %wi2.end.1.thread ]
  br label %gwhile.body

wi2.end.1.thread:                                 ; preds = %gwhile.body
  %.35724243 = lshr i64 %step.group.097, 1
  %.175.not244 = icmp eq i64 %.35724243, 0
  br i1 %.175.not244, label %wi2.end.2, label %gwhile.body.backedge

wi2.end.2.sink.split:                             ; preds = %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split.us.us
  %.396250.lcssa.lcssa.sink = phi float [ %.396253, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split.us.us ], [ %.396250, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.split.us.us.split ]
  store float %.396250.lcssa.lcssa.sink, ptr %.403, align 4
  br label %wi2.end.2

wi2.end.2:                                        ; preds = %wi2.end.1.thread, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.split.us.split.us.us.split.us209, %wi2.end.2.sink.split, %wi1.head.2.preheader.lr.ph.split.us.split.us.split.us.split.us, %wi1.head.2.preheader.lr.ph.split.us, %wi1.head.2.preheader.lr.ph
  %.460 = add nsw i64 %group212, 1
  %exitcond.not = icmp eq i64 %.460, %.15
  br i1 %exitcond.not, label %group.end, label %group.body
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #1

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define void @tree_sum__gpuoff_entry(ptr readonly captures(none) %.1, i64 %.2, i64 %.3, ptr captures(none) %.4) local_unnamed_addr #2 {
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
  %errrec = alloca [9 x i64], align 8
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(72) %errrec, i8 0, i64 72, i1 false)
  call fastcc void @tree_sum.groups(i64 %.7, i64 %.9, i64 %.11, i64 %.13, i64 %.15, i64 %.17, i64 %.19, i64 %.21, ptr %.25, i64 %.27, ptr %.29, i64 %.31, i64 %.2, i64 %.3, ptr %errrec)
  %.35 = load i64, ptr %errrec, align 8
  %.37 = load i64, ptr %.4, align 8
  %.38 = icmp ne i64 %.35, 0
  %.39 = icmp eq i64 %.37, 0
  %.40 = and i1 %.38, %.39
  br i1 %.40, label %entry.if, label %entry.endif, !prof !5

entry.if:                                         ; preds = %entry
  %.fca.5.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 40
  %.fca.1.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 8
  store i64 %.35, ptr %.4, align 8
  %.48 = getelementptr i8, ptr %.4, i64 8
  %0 = load <4 x i64>, ptr %.fca.1.gep, align 8
  store <4 x i64> %0, ptr %.48, align 8
  %.64 = getelementptr i8, ptr %.4, i64 40
  %1 = load <4 x i64>, ptr %.fca.5.gep, align 8
  store <4 x i64> %1, ptr %.64, align 8
  br label %entry.endif

entry.endif:                                      ; preds = %entry.if, %entry
  ret void
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.or.v8i32(<8 x i32>) #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>) #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smax.i64(i64, i64) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: read)
declare <8 x float> @llvm.masked.load.v8f32.p0(ptr captures(none), <8 x i1>, <8 x float>) #5

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: write)
declare void @llvm.masked.store.v8f32.p0(<8 x float>, ptr captures(none), <8 x i1>) #6

attributes #0 = { nofree noinline norecurse nosync nounwind memory(argmem: readwrite) }
attributes #1 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #2 = { nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { nocallback nofree nosync nounwind willreturn memory(argmem: read) }
attributes #6 = { nocallback nofree nosync nounwind willreturn memory(argmem: write) }

!0 = distinct !{!0, !1, !2}
!1 = !{!"llvm.loop.isvectorized", i32 1}
!2 = !{!"llvm.loop.unroll.runtime.disable"}
!3 = !{!"branch_weights", i32 8, i32 8}
!4 = distinct !{!4, !1, !2}
!5 = !{!"branch_weights", i32 1, i32 99}
!6 = distinct !{!6, !2, !1}
!7 = !{!"branch_weights", i32 99, i32 1}
!8 = distinct !{!8, !9}
!9 = !{!"llvm.loop.unroll.disable"}
!10 = distinct !{!10, !11, !1, !2}
!11 = !{!"llvm.loop.peeled.count", i32 1}
!12 = !{!"branch_weights", i32 4, i32 28}
!13 = distinct !{!13, !11, !1, !2}
!14 = !{!"branch_weights", i32 1, i32 199}
!15 = distinct !{!15, !11}
!16 = distinct !{!16, !11, !2, !1}
!17 = distinct !{!17, !9}
!18 = distinct !{!18, !11}
!19 = distinct !{!19, !11}
!20 = distinct !{!20, !11}
!21 = !{!22}
!22 = distinct !{!22, !23}
!23 = distinct !{!23, !"LVerDomain"}
!24 = !{!25}
!25 = distinct !{!25, !23}
!26 = distinct !{!26, !1, !2}
!27 = distinct !{!27, !1, !2}
!28 = distinct !{!28, !1}
