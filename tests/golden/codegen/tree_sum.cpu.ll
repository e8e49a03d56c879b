; gpuoff codegen golden: optimised LLVM IR for x86-64-v3, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define internal fastcc void @tree_sum.groups(i64 %.1, i64 %.2, i64 %.3, i64 %.4, i64 %.5, i64 %.6, i64 %.7, i64 %.8, ptr noalias readonly align 4 captures(none) %.10, i64 %.11, ptr noalias writeonly align 4 captures(none) %.12, i64 %.13, i64 %.14, i64 %.15, ptr noalias nonnull captures(none) %.16) unnamed_addr #0 {
allocas:
  %tile = alloca [128 x float], align 64
  %.27233 = icmp slt i64 %.14, %.15
  br i1 %.27233, label %group.body.lr.ph, label %group.end

group.body.lr.ph:                                 ; preds = %allocas
  %.134 = getelementptr i8, ptr %.16, i64 136
  %.145 = getelementptr i8, ptr %.16, i64 8
  %.147 = getelementptr i8, ptr %.16, i64 72
  %0 = mul i64 %.4, -4
  %broadcast.splatinsert183 = insertelement <8 x i64> poison, i64 %.11, i64 0
  %broadcast.splat184 = shufflevector <8 x i64> %broadcast.splatinsert183, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert212 = insertelement <8 x i64> poison, i64 %.11, i64 0
  %broadcast.splat213 = shufflevector <8 x i64> %broadcast.splatinsert212, <8 x i64> poison, <8 x i32> zeroinitializer
  br label %group.body

group.body:                                       ; preds = %group.body.lr.ph, %wi2.end.2
  %group234 = phi i64 [ %.14, %group.body.lr.ph ], [ %.540, %wi2.end.2 ]
  %.29 = urem i64 %group234, %.7
  %.30 = udiv i64 %group234, %.7
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
  %.4666 = icmp slt i64 %.35, %.44
  %.4930 = icmp slt i64 %.34, %.41
  %or.cond = select i1 %.4666, i1 %.4930, i1 false
  br i1 %or.cond, label %wi1.head.preheader.lr.ph.split.us, label %gwhile.head.preheader

wi1.head.preheader.lr.ph.split.us:                ; preds = %group.body
  %.5325 = icmp slt i64 %.33, %.38
  %.9728.fr = freeze i1 %.5325
  br i1 %.9728.fr, label %wi0.head.preheader.us.us.us.us.preheader.preheader, label %gwhile.head.preheader

wi0.head.preheader.us.us.us.us.preheader.preheader: ; preds = %wi1.head.preheader.lr.ph.split.us
  %1 = add i64 %.33, 1
  %smax174 = call i64 @llvm.smax.i64(i64 %.38, i64 %1)
  %2 = sub i64 %smax174, %.33
  %min.iters.check175 = icmp ult i64 %2, 8
  %min.iters.check178 = icmp ult i64 %2, 16
  %n.mod.vf181 = and i64 %2, 8
  %n.vec182 = and i64 %2, -16
  %3 = add i64 %.33, %n.vec182
  %broadcast.splatinsert185 = insertelement <8 x i64> poison, i64 %.33, i64 0
  %broadcast.splat186 = shufflevector <8 x i64> %broadcast.splatinsert185, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction187 = add nsw <8 x i64> %broadcast.splat186, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %4 = insertelement <8 x i64> poison, i64 %.33, i64 0
  %5 = shufflevector <8 x i64> %4, <8 x i64> poison, <8 x i32> zeroinitializer
  %6 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.33, i64 1
  %7 = shufflevector <8 x i64> %6, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %cmp.n202 = icmp eq i64 %2, %n.vec182
  %ind.end230 = add i64 %.33, %n.vec182
  %min.epilog.iters.check208.not.not = icmp eq i64 %n.mod.vf181, 0
  %n.vec211 = and i64 %2, -8
  %8 = add i64 %.33, %n.vec211
  %9 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.33, i64 1
  %10 = shufflevector <8 x i64> %9, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %cmp.n227 = icmp eq i64 %2, %n.vec211
  %xtraiter = and i64 %2, 1
  %lcmp.mod.not = icmp eq i64 %xtraiter, 0
  %.155.us.us.us.us.prol = add nsw i64 %.33, 1
  %.not252 = icmp slt i64 %1, %.38
  br label %wi0.head.preheader.us.us.us.us.preheader

wi0.head.preheader.us.us.us.us.preheader:         ; preds = %wi0.head.preheader.us.us.us.us.preheader.preheader, %wi1.head.wi1.end_crit_edge.split.us.us.us
  %wi267.us.us = phi i64 [ %.162.us.us, %wi1.head.wi1.end_crit_edge.split.us.us.us ], [ %.35, %wi0.head.preheader.us.us.us.us.preheader.preheader ]
  %.129.us.us = mul i64 %wi267.us.us, %.2
  br label %iter.check177

iter.check177:                                    ; preds = %wi0.head.preheader.us.us.us.us.preheader, %wi0.end.endif.us.us.us.us
  %wi131.us.us.us.us = phi i64 [ %.159.us.us.us.us, %wi0.end.endif.us.us.us.us ], [ %.34, %wi0.head.preheader.us.us.us.us.preheader ]
  br i1 %min.iters.check175, label %wi0.body.us.us.us.us.preheader, label %vector.main.loop.iter.check179

vector.main.loop.iter.check179:                   ; preds = %iter.check177
  br i1 %min.iters.check178, label %vec.epilog.ph209, label %vector.body188

vector.body188:                                   ; preds = %vector.main.loop.iter.check179, %vector.body188
  %index189 = phi i64 [ %index.next198, %vector.body188 ], [ 0, %vector.main.loop.iter.check179 ]
  %vec.ind190 = phi <8 x i64> [ %vec.ind.next199, %vector.body188 ], [ %induction187, %vector.main.loop.iter.check179 ]
  %vec.phi191 = phi <8 x i32> [ %29, %vector.body188 ], [ zeroinitializer, %vector.main.loop.iter.check179 ]
  %vec.phi192 = phi <8 x i32> [ %30, %vector.body188 ], [ zeroinitializer, %vector.main.loop.iter.check179 ]
  %step.add193 = add <8 x i64> %vec.ind190, splat (i64 8)
  %11 = add i64 %.33, %index189
  %12 = insertelement <8 x i64> poison, i64 %index189, i64 0
  %13 = insertelement <8 x i64> %12, i64 %11, i64 1
  %14 = shufflevector <8 x i64> %13, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %15 = add <8 x i64> %14, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %16 = sub <8 x i64> %15, %7
  %17 = insertelement <8 x i64> poison, i64 %11, i64 0
  %18 = shufflevector <8 x i64> %17, <8 x i64> poison, <8 x i32> zeroinitializer
  %19 = add <8 x i64> %18, <i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %20 = sub <8 x i64> %19, %5
  %21 = icmp slt <8 x i64> %vec.ind190, %broadcast.splat184
  %22 = icmp slt <8 x i64> %step.add193, %broadcast.splat184
  %23 = getelementptr float, ptr %.10, i64 %11
  %24 = getelementptr i8, ptr %23, i64 32
  %wide.masked.load194 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %23, <8 x i1> %21, <8 x float> zeroinitializer)
  %wide.masked.load195 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %24, <8 x i1> %22, <8 x float> zeroinitializer)
  %25 = icmp ugt <8 x i64> %16, splat (i64 127)
  %26 = icmp ugt <8 x i64> %20, splat (i64 127)
  %27 = zext <8 x i1> %25 to <8 x i32>
  %28 = zext <8 x i1> %26 to <8 x i32>
  %29 = or <8 x i32> %vec.phi191, %27
  %30 = or <8 x i32> %vec.phi192, %28
  %31 = xor <8 x i1> %25, splat (i1 true)
  %32 = xor <8 x i1> %26, splat (i1 true)
  %33 = getelementptr float, ptr %tile, i64 %index189
  %34 = getelementptr i8, ptr %33, i64 32
  call void @llvm.masked.store.v8f32.p0(<8 x float> %wide.masked.load194, ptr align 64 %33, <8 x i1> %31)
  call void @llvm.masked.store.v8f32.p0(<8 x float> %wide.masked.load195, ptr align 32 %34, <8 x i1> %32)
  %index.next198 = add nuw i64 %index189, 16
  %vec.ind.next199 = add <8 x i64> %vec.ind190, splat (i64 16)
  %35 = icmp eq i64 %index.next198, %n.vec182
  br i1 %35, label %middle.block200, label %vector.body188, !llvm.loop !0

middle.block200:                                  ; preds = %vector.body188
  %bin.rdx201 = or <8 x i32> %30, %29
  %36 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx201)
  br i1 %cmp.n202, label %wi0.head.wi0.end_crit_edge.us.us.us.us, label %vec.epilog.iter.check207

vec.epilog.iter.check207:                         ; preds = %middle.block200
  br i1 %min.epilog.iters.check208.not.not, label %wi0.body.us.us.us.us.preheader, label %vec.epilog.ph209, !prof !3

vec.epilog.ph209:                                 ; preds = %vector.main.loop.iter.check179, %vec.epilog.iter.check207
  %vec.epilog.resume.val203 = phi i64 [ %n.vec182, %vec.epilog.iter.check207 ], [ 0, %vector.main.loop.iter.check179 ]
  %bc.resume.val204 = phi i64 [ %3, %vec.epilog.iter.check207 ], [ %.33, %vector.main.loop.iter.check179 ]
  %bc.merge.rdx205 = phi i32 [ %36, %vec.epilog.iter.check207 ], [ 0, %vector.main.loop.iter.check179 ]
  %37 = insertelement <8 x i32> <i32 poison, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx205, i64 0
  %broadcast.splatinsert214 = insertelement <8 x i64> poison, i64 %bc.resume.val204, i64 0
  %broadcast.splat215 = shufflevector <8 x i64> %broadcast.splatinsert214, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction216 = add nsw <8 x i64> %broadcast.splat215, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  br label %vec.epilog.vector.body217

vec.epilog.vector.body217:                        ; preds = %vec.epilog.vector.body217, %vec.epilog.ph209
  %index218 = phi i64 [ %vec.epilog.resume.val203, %vec.epilog.ph209 ], [ %index.next224, %vec.epilog.vector.body217 ]
  %vec.ind219 = phi <8 x i64> [ %induction216, %vec.epilog.ph209 ], [ %vec.ind.next225, %vec.epilog.vector.body217 ]
  %vec.phi220 = phi <8 x i32> [ %37, %vec.epilog.ph209 ], [ %47, %vec.epilog.vector.body217 ]
  %offset.idx221 = add i64 %.33, %index218
  %38 = insertelement <8 x i64> poison, i64 %index218, i64 0
  %39 = insertelement <8 x i64> %38, i64 %offset.idx221, i64 1
  %40 = shufflevector <8 x i64> %39, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %41 = add <8 x i64> %40, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %42 = sub <8 x i64> %41, %10
  %43 = icmp slt <8 x i64> %vec.ind219, %broadcast.splat213
  %44 = getelementptr float, ptr %.10, i64 %offset.idx221
  %wide.masked.load222 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %44, <8 x i1> %43, <8 x float> zeroinitializer)
  %45 = icmp ugt <8 x i64> %42, splat (i64 127)
  %46 = zext <8 x i1> %45 to <8 x i32>
  %47 = or <8 x i32> %vec.phi220, %46
  %48 = xor <8 x i1> %45, splat (i1 true)
  %49 = getelementptr float, ptr %tile, i64 %index218
  call void @llvm.masked.store.v8f32.p0(<8 x float> %wide.masked.load222, ptr align 32 %49, <8 x i1> %48)
  %index.next224 = add nuw i64 %index218, 8
  %vec.ind.next225 = add nsw <8 x i64> %vec.ind219, splat (i64 8)
  %50 = icmp eq i64 %index.next224, %n.vec211
  br i1 %50, label %vec.epilog.middle.block226, label %vec.epilog.vector.body217, !llvm.loop !4

vec.epilog.middle.block226:                       ; preds = %vec.epilog.vector.body217
  %51 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %47)
  br i1 %cmp.n227, label %wi0.head.wi0.end_crit_edge.us.us.us.us, label %wi0.body.us.us.us.us.preheader

wi0.body.us.us.us.us.preheader:                   ; preds = %iter.check177, %vec.epilog.iter.check207, %vec.epilog.middle.block226
  %wi027.us.us.us.us.ph = phi i64 [ %.33, %iter.check177 ], [ %ind.end230, %vec.epilog.iter.check207 ], [ %8, %vec.epilog.middle.block226 ]
  %row.bad.026.us.us.us.us.ph = phi i32 [ 0, %iter.check177 ], [ %36, %vec.epilog.iter.check207 ], [ %51, %vec.epilog.middle.block226 ]
  br label %wi0.body.us.us.us.us

wi0.body.1.us.us.us.us:                           ; preds = %wi0.head.1.preheader.us.us.us.us, %if.end.1.endif.us.us.us.us.1
  %wi0.129.us.us.us.us = phi i64 [ %.155.us.us.us.us.1, %if.end.1.endif.us.us.us.us.1 ], [ %wi0.129.us.us.us.us.unr, %wi0.head.1.preheader.us.us.us.us ]
  %.105.us.us.us.us = sub nsw i64 %wi0.129.us.us.us.us, %.33
  %.126.us.us.us.us = icmp ugt i64 %.105.us.us.us.us, 127
  br i1 %.126.us.us.us.us, label %if.end.1.if.us.us.us.us, label %if.end.1.endif.us.us.us.us, !prof !5

if.end.1.if.us.us.us.us:                          ; preds = %wi0.body.1.us.us.us.us
  %.132.us.us.us.us = add i64 %wi0.129.us.us.us.us, %.131.us.us.us.us
  %.133.us.us.us.us = load i64, ptr %.16, align 8
  %.135.us.us.us.us = load i64, ptr %.134, align 8
  %.136.us.us.us.us = icmp eq i64 %.133.us.us.us.us, 0
  %.137.us.us.us.us = icmp ult i64 %.132.us.us.us.us, %.135.us.us.us.us
  %.138.us.us.us.us = icmp eq i64 %.132.us.us.us.us, %.135.us.us.us.us
  %.139.us.us.us.us = icmp ugt i64 %.133.us.us.us.us, 2
  %.140.us.us.us.us = and i1 %.139.us.us.us.us, %.138.us.us.us.us
  %.141.us.us.us.us = or i1 %.137.us.us.us.us, %.140.us.us.us.us
  %.142.us.us.us.us = or i1 %.136.us.us.us.us, %.141.us.us.us.us
  br i1 %.142.us.us.us.us, label %if.end.1.if.if.us.us.us.us, label %if.end.1.endif.us.us.us.us

if.end.1.if.if.us.us.us.us:                       ; preds = %if.end.1.if.us.us.us.us
  store i64 2, ptr %.16, align 8
  store i64 %.105.us.us.us.us, ptr %.145, align 8
  store i64 128, ptr %.147, align 8
  store i64 %.132.us.us.us.us, ptr %.134, align 8
  br label %if.end.1.endif.us.us.us.us

if.end.1.endif.us.us.us.us:                       ; preds = %if.end.1.if.if.us.us.us.us, %if.end.1.if.us.us.us.us, %wi0.body.1.us.us.us.us
  %.155.us.us.us.us = add nsw i64 %wi0.129.us.us.us.us, 1
  %.105.us.us.us.us.1 = sub nsw i64 %.155.us.us.us.us, %.33
  %.126.us.us.us.us.1 = icmp ugt i64 %.105.us.us.us.us.1, 127
  br i1 %.126.us.us.us.us.1, label %if.end.1.if.us.us.us.us.1, label %if.end.1.endif.us.us.us.us.1, !prof !5

if.end.1.if.us.us.us.us.1:                        ; preds = %if.end.1.endif.us.us.us.us
  %.132.us.us.us.us.1 = add i64 %.155.us.us.us.us, %.131.us.us.us.us
  %.133.us.us.us.us.1 = load i64, ptr %.16, align 8
  %.135.us.us.us.us.1 = load i64, ptr %.134, align 8
  %.136.us.us.us.us.1 = icmp eq i64 %.133.us.us.us.us.1, 0
  %.137.us.us.us.us.1 = icmp ult i64 %.132.us.us.us.us.1, %.135.us.us.us.us.1
  %.138.us.us.us.us.1 = icmp eq i64 %.132.us.us.us.us.1, %.135.us.us.us.us.1
  %.139.us.us.us.us.1 = icmp ugt i64 %.133.us.us.us.us.1, 2
  %.140.us.us.us.us.1 = and i1 %.139.us.us.us.us.1, %.138.us.us.us.us.1
  %.141.us.us.us.us.1 = or i1 %.137.us.us.us.us.1, %.140.us.us.us.us.1
  %.142.us.us.us.us.1 = or i1 %.136.us.us.us.us.1, %.141.us.us.us.us.1
  br i1 %.142.us.us.us.us.1, label %if.end.1.if.if.us.us.us.us.1, label %if.end.1.endif.us.us.us.us.1

if.end.1.if.if.us.us.us.us.1:                     ; preds = %if.end.1.if.us.us.us.us.1
  store i64 2, ptr %.16, align 8
  store i64 %.105.us.us.us.us.1, ptr %.145, align 8
  store i64 128, ptr %.147, align 8
  store i64 %.132.us.us.us.us.1, ptr %.134, align 8
  br label %if.end.1.endif.us.us.us.us.1

if.end.1.endif.us.us.us.us.1:                     ; preds = %if.end.1.if.if.us.us.us.us.1, %if.end.1.if.us.us.us.us.1, %if.end.1.endif.us.us.us.us
  %.155.us.us.us.us.1 = add nsw i64 %wi0.129.us.us.us.us, 2
  %.97.us.us.us.us.1 = icmp slt i64 %.155.us.us.us.us.1, %.38
  br i1 %.97.us.us.us.us.1, label %wi0.body.1.us.us.us.us, label %wi0.end.endif.us.us.us.us

wi0.end.endif.us.us.us.us:                        ; preds = %wi0.head.1.preheader.us.us.us.us, %if.end.1.endif.us.us.us.us.1, %wi0.head.wi0.end_crit_edge.us.us.us.us
  %.159.us.us.us.us = add nsw i64 %wi131.us.us.us.us, 1
  %.49.us.us.us.us = icmp slt i64 %.159.us.us.us.us, %.41
  br i1 %.49.us.us.us.us, label %iter.check177, label %wi1.head.wi1.end_crit_edge.split.us.us.us

wi0.body.us.us.us.us:                             ; preds = %wi0.body.us.us.us.us.preheader, %if.end.endif.us.us.us.us
  %wi027.us.us.us.us = phi i64 [ %.91.us.us.us.us, %if.end.endif.us.us.us.us ], [ %wi027.us.us.us.us.ph, %wi0.body.us.us.us.us.preheader ]
  %row.bad.026.us.us.us.us = phi i32 [ %.84.us.us.us.us, %if.end.endif.us.us.us.us ], [ %row.bad.026.us.us.us.us.ph, %wi0.body.us.us.us.us.preheader ]
  %.61.us.us.us.us = sub nsw i64 %wi027.us.us.us.us, %.33
  %.71.us.us.us.us = icmp slt i64 %wi027.us.us.us.us, %.11
  br i1 %.71.us.us.us.us, label %if.then.us.us.us.us, label %if.end.us.us.us.us

if.then.us.us.us.us:                              ; preds = %wi0.body.us.us.us.us
  %.74.us.us.us.us = getelementptr float, ptr %.10, i64 %wi027.us.us.us.us
  %.75.us.us.us.us = load float, ptr %.74.us.us.us.us, align 4
  br label %if.end.us.us.us.us

if.end.us.us.us.us:                               ; preds = %if.then.us.us.us.us, %wi0.body.us.us.us.us
  %.78.us.us.us.us = phi float [ %.75.us.us.us.us, %if.then.us.us.us.us ], [ 0.000000e+00, %wi0.body.us.us.us.us ]
  %.80.us.us.us.us = icmp ugt i64 %.61.us.us.us.us, 127
  %.83.us.us.us.us = zext i1 %.80.us.us.us.us to i32
  %.84.us.us.us.us = or i32 %row.bad.026.us.us.us.us, %.83.us.us.us.us
  br i1 %.80.us.us.us.us, label %if.end.endif.us.us.us.us, label %if.end.if.us.us.us.us, !prof !5

if.end.if.us.us.us.us:                            ; preds = %if.end.us.us.us.us
  %.86.us.us.us.us = getelementptr float, ptr %tile, i64 %.61.us.us.us.us
  store float %.78.us.us.us.us, ptr %.86.us.us.us.us, align 4
  br label %if.end.endif.us.us.us.us

if.end.endif.us.us.us.us:                         ; preds = %if.end.if.us.us.us.us, %if.end.us.us.us.us
  %.91.us.us.us.us = add nsw i64 %wi027.us.us.us.us, 1
  %.53.us.us.us.us = icmp slt i64 %.91.us.us.us.us, %.38
  br i1 %.53.us.us.us.us, label %wi0.body.us.us.us.us, label %wi0.head.wi0.end_crit_edge.us.us.us.us, !llvm.loop !6

wi0.head.1.preheader.us.us.us.us:                 ; preds = %wi0.head.wi0.end_crit_edge.us.us.us.us
  %.130.us.us.us.us = add i64 %wi131.us.us.us.us, %.129.us.us
  %.131.us.us.us.us = mul i64 %.130.us.us.us.us, %.1
  %wi0.129.us.us.us.us.unr = select i1 %lcmp.mod.not, i64 %.33, i64 %.155.us.us.us.us.prol
  br i1 %.not252, label %wi0.body.1.us.us.us.us, label %wi0.end.endif.us.us.us.us

wi0.head.wi0.end_crit_edge.us.us.us.us:           ; preds = %if.end.endif.us.us.us.us, %vec.epilog.middle.block226, %middle.block200
  %.84.us.us.us.us.lcssa = phi i32 [ %51, %vec.epilog.middle.block226 ], [ %36, %middle.block200 ], [ %.84.us.us.us.us, %if.end.endif.us.us.us.us ]
  %.94.not.us.us.us.us = icmp eq i32 %.84.us.us.us.us.lcssa, 0
  br i1 %.94.not.us.us.us.us, label %wi0.end.endif.us.us.us.us, label %wi0.head.1.preheader.us.us.us.us, !prof !7

wi1.head.wi1.end_crit_edge.split.us.us.us:        ; preds = %wi0.end.endif.us.us.us.us
  %.162.us.us = add nsw i64 %wi267.us.us, 1
  %.46.us.us = icmp slt i64 %.162.us.us, %.44
  br i1 %.46.us.us, label %wi0.head.preheader.us.us.us.us.preheader, label %gwhile.head.preheader

group.end:                                        ; preds = %wi2.end.2, %allocas
  ret void

gwhile.head.preheader:                            ; preds = %wi1.head.wi1.end_crit_edge.split.us.us.us, %wi1.head.preheader.lr.ph.split.us, %group.body
  %.21788 = icmp slt i64 %.34, %.41
  %52 = mul i64 %0, %.29
  %scevgep = getelementptr i8, ptr %tile, i64 %52
  %53 = add i64 %.33, 1
  %scevgep127 = getelementptr i8, ptr %tile, i64 %52
  %54 = mul i64 %.4, %.29
  %55 = add i64 %.33, 1
  %56 = insertelement <8 x i64> poison, i64 %.33, i64 0
  %57 = shufflevector <8 x i64> %56, <8 x i64> poison, <8 x i32> zeroinitializer
  %58 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.33, i64 1
  %59 = shufflevector <8 x i64> %58, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %60 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.33, i64 1
  %61 = shufflevector <8 x i64> %60, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  br label %gwhile.body

wi1.head.2.preheader.lr.ph:                       ; preds = %wi2.end.1
  %.461 = icmp uge i64 %.29, %.13
  %.461.fr = freeze i1 %.461
  %.464 = zext i1 %.461.fr to i32
  %.467 = getelementptr float, ptr %.12, i64 %.29
  %.460 = load float, ptr %tile, align 64
  %.500.not = icmp ult i64 %.29, %.13
  %.500.not.fr = freeze i1 %.500.not
  br i1 %.21788, label %wi1.head.2.preheader.lr.ph.split.us, label %wi2.end.2

wi1.head.2.preheader.lr.ph.split.us:              ; preds = %wi1.head.2.preheader.lr.ph
  %.442144 = icmp slt i64 %.33, %.38
  %.479147.fr = freeze i1 %.442144
  br i1 %.479147.fr, label %wi1.head.2.preheader.us.us.preheader, label %wi2.end.2

wi1.head.2.preheader.us.us.preheader:             ; preds = %wi1.head.2.preheader.lr.ph.split.us
  %.473.us164.us.us.peel = add nsw i64 %.33, 1
  %.442.us165.us.us.peel = icmp slt i64 %.473.us164.us.us.peel, %.38
  %.473.us.us.us.us.peel = add nsw i64 %.33, 1
  %.442.us.us.us.us.peel = icmp slt i64 %.473.us.us.us.us.peel, %.38
  %.530.us154.us.us.peel = add nsw i64 %.33, 1
  %.479.us155.us.us.peel = icmp slt i64 %.530.us154.us.us.peel, %.38
  %.473.us164.us.us.us.us.peel = add nsw i64 %.33, 1
  %.442.us165.us.us.us.us.peel = icmp slt i64 %.473.us164.us.us.us.us.peel, %.38
  %62 = xor i64 %.33, -1
  %63 = add i64 %.38, %62
  %64 = add i64 %.38, -2
  %65 = sub i64 %64, %.33
  %min.iters.check32 = icmp ult i64 %63, 4
  %min.iters.check35 = icmp ult i64 %63, 16
  %n.mod.vf38 = and i64 %63, 12
  %n.vec39 = and i64 %63, -16
  %66 = add i64 %.473.us164.us.us.peel, %n.vec39
  %broadcast.splatinsert40 = insertelement <8 x i64> poison, i64 %.33, i64 0
  %broadcast.splat41 = shufflevector <8 x i64> %broadcast.splatinsert40, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert42 = insertelement <8 x i32> poison, i32 %.464, i64 0
  %broadcast.splat43 = shufflevector <8 x i32> %broadcast.splatinsert42, <8 x i32> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert44 = insertelement <8 x i64> poison, i64 %.473.us164.us.us.peel, i64 0
  %broadcast.splat45 = shufflevector <8 x i64> %broadcast.splatinsert44, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction46 = add nsw <8 x i64> %broadcast.splat45, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %cmp.n88 = icmp eq i64 %63, %n.vec39
  %ind.end124 = add i64 %.473.us164.us.us.peel, %n.vec39
  %min.epilog.iters.check94 = icmp eq i64 %n.mod.vf38, 0
  %n.vec97 = and i64 %63, -4
  %67 = add i64 %.473.us164.us.us.peel, %n.vec97
  %broadcast.splatinsert98 = insertelement <4 x i64> poison, i64 %.33, i64 0
  %broadcast.splat99 = shufflevector <4 x i64> %broadcast.splatinsert98, <4 x i64> poison, <4 x i32> zeroinitializer
  %broadcast.splatinsert100 = insertelement <4 x i32> poison, i32 %.464, i64 0
  %broadcast.splat101 = shufflevector <4 x i32> %broadcast.splatinsert100, <4 x i32> poison, <4 x i32> zeroinitializer
  %cmp.n121 = icmp eq i64 %63, %n.vec97
  %min.iters.check = icmp ult i64 %63, 4
  %min.iters.check5 = icmp ult i64 %63, 32
  %n.mod.vf = and i64 %63, 28
  %n.vec = and i64 %63, -32
  %68 = add i64 %.473.us.us.us.us.peel, %n.vec
  %broadcast.splatinsert = insertelement <8 x i64> poison, i64 %.33, i64 0
  %broadcast.splat = shufflevector <8 x i64> %broadcast.splatinsert, <8 x i64> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert6 = insertelement <8 x i32> poison, i32 %.464, i64 0
  %broadcast.splat7 = shufflevector <8 x i32> %broadcast.splatinsert6, <8 x i32> poison, <8 x i32> zeroinitializer
  %broadcast.splatinsert8 = insertelement <8 x i64> poison, i64 %.473.us.us.us.us.peel, i64 0
  %broadcast.splat9 = shufflevector <8 x i64> %broadcast.splatinsert8, <8 x i64> poison, <8 x i32> zeroinitializer
  %induction = add nsw <8 x i64> %broadcast.splat9, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %cmp.n = icmp eq i64 %63, %n.vec
  %ind.end = add i64 %.473.us.us.us.us.peel, %n.vec
  %min.epilog.iters.check = icmp eq i64 %n.mod.vf, 0
  %n.vec16 = and i64 %63, -4
  %69 = add i64 %.473.us.us.us.us.peel, %n.vec16
  %broadcast.splatinsert17 = insertelement <4 x i64> poison, i64 %.33, i64 0
  %broadcast.splat18 = shufflevector <4 x i64> %broadcast.splatinsert17, <4 x i64> poison, <4 x i32> zeroinitializer
  %broadcast.splatinsert19 = insertelement <4 x i32> poison, i32 %.464, i64 0
  %broadcast.splat20 = shufflevector <4 x i32> %broadcast.splatinsert19, <4 x i32> poison, <4 x i32> zeroinitializer
  %cmp.n29 = icmp eq i64 %63, %n.vec16
  %xtraiter248 = and i64 %63, 1
  %lcmp.mod249.not = icmp eq i64 %xtraiter248, 0
  %.530.us154.us.us.prol = add nsw i64 %.33, 2
  %70 = icmp eq i64 %64, %.33
  %xtraiter250 = and i64 %63, 7
  %lcmp.mod251.not = icmp eq i64 %xtraiter250, 0
  %71 = icmp ult i64 %65, 7
  br label %wi1.head.2.preheader.us.us

wi1.head.2.preheader.us.us:                       ; preds = %wi1.head.2.preheader.us.us.preheader, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us
  %wi2.2210.us.us = phi i64 [ %.537.us.us, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us ], [ %.35, %wi1.head.2.preheader.us.us.preheader ]
  %.503.us.us = mul i64 %wi2.2210.us.us, %.2
  br i1 %.500.not.fr, label %wi0.head.4.preheader.lr.ph.split.us.us.us.split.us.split.us, label %wi0.body.4.lr.ph.us.us.us

wi0.head.4.preheader.lr.ph.split.us.us.us.split.us.split.us: ; preds = %wi1.head.2.preheader.us.us
  br i1 %.461.fr, label %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us, label %if.end.2.us162.us.us.us.us.peel, !prof !5

if.end.2.us162.us.us.us.us.peel:                  ; preds = %wi0.head.4.preheader.lr.ph.split.us.us.us.split.us.split.us, %wi0.head.4.wi0.end.4_crit_edge.split.us166.us.us.us.us
  %wi1.2150.us.us.us.us.us = phi i64 [ %.534.us.us.us.us.us, %wi0.head.4.wi0.end.4_crit_edge.split.us166.us.us.us.us ], [ %.34, %wi0.head.4.preheader.lr.ph.split.us.us.us.split.us.split.us ]
  br i1 %.442.us165.us.us.us.us.peel, label %wi0.body.4.us156.us.us.us.us.preheader, label %wi0.head.4.wi0.end.4_crit_edge.split.us166.us.us.us.us

wi0.body.4.us156.us.us.us.us.preheader:           ; preds = %if.end.2.us162.us.us.us.us.peel
  br i1 %lcmp.mod251.not, label %wi0.body.4.us156.us.us.us.us.prol.loopexit, label %wi0.body.4.us156.us.us.us.us.prol

wi0.body.4.us156.us.us.us.us.prol:                ; preds = %wi0.body.4.us156.us.us.us.us.preheader, %wi0.body.4.us156.us.us.us.us.prol
  %.460278.prol = phi float [ %spec.select.prol, %wi0.body.4.us156.us.us.us.us.prol ], [ %.460, %wi0.body.4.us156.us.us.us.us.preheader ]
  %wi0.4146.us157.us.us.us.us.prol = phi i64 [ %.473.us164.us.us.us.us.prol, %wi0.body.4.us156.us.us.us.us.prol ], [ %.473.us164.us.us.us.us.peel, %wi0.body.4.us156.us.us.us.us.preheader ]
  %prol.iter = phi i64 [ %prol.iter.next, %wi0.body.4.us156.us.us.us.us.prol ], [ 0, %wi0.body.4.us156.us.us.us.us.preheader ]
  %.457.us159.us.us.us.us.prol = icmp eq i64 %wi0.4146.us157.us.us.us.us.prol, %.33
  %spec.select.prol = select i1 %.457.us159.us.us.us.us.prol, float %.460, float %.460278.prol
  %.473.us164.us.us.us.us.prol = add nsw i64 %wi0.4146.us157.us.us.us.us.prol, 1
  %prol.iter.next = add i64 %prol.iter, 1
  %prol.iter.cmp.not = icmp eq i64 %prol.iter.next, %xtraiter250
  br i1 %prol.iter.cmp.not, label %wi0.body.4.us156.us.us.us.us.prol.loopexit, label %wi0.body.4.us156.us.us.us.us.prol, !llvm.loop !8

wi0.body.4.us156.us.us.us.us.prol.loopexit:       ; preds = %wi0.body.4.us156.us.us.us.us.prol, %wi0.body.4.us156.us.us.us.us.preheader
  %.460278.unr = phi float [ %.460, %wi0.body.4.us156.us.us.us.us.preheader ], [ %spec.select.prol, %wi0.body.4.us156.us.us.us.us.prol ]
  %wi0.4146.us157.us.us.us.us.unr = phi i64 [ %.473.us164.us.us.us.us.peel, %wi0.body.4.us156.us.us.us.us.preheader ], [ %.473.us164.us.us.us.us.prol, %wi0.body.4.us156.us.us.us.us.prol ]
  %spec.select.lcssa.unr = phi float [ poison, %wi0.body.4.us156.us.us.us.us.preheader ], [ %spec.select.prol, %wi0.body.4.us156.us.us.us.us.prol ]
  br i1 %71, label %wi0.head.4.wi0.end.4_crit_edge.split.us166.us.us.us.us, label %wi0.body.4.us156.us.us.us.us

wi0.body.4.us156.us.us.us.us:                     ; preds = %wi0.body.4.us156.us.us.us.us.prol.loopexit, %wi0.body.4.us156.us.us.us.us
  %.460278 = phi float [ %spec.select.7, %wi0.body.4.us156.us.us.us.us ], [ %.460278.unr, %wi0.body.4.us156.us.us.us.us.prol.loopexit ]
  %wi0.4146.us157.us.us.us.us = phi i64 [ %.473.us164.us.us.us.us.7, %wi0.body.4.us156.us.us.us.us ], [ %wi0.4146.us157.us.us.us.us.unr, %wi0.body.4.us156.us.us.us.us.prol.loopexit ]
  %.457.us159.us.us.us.us = icmp eq i64 %wi0.4146.us157.us.us.us.us, %.33
  %.473.us164.us.us.us.us = add nsw i64 %wi0.4146.us157.us.us.us.us, 1
  %.457.us159.us.us.us.us.1 = icmp eq i64 %.473.us164.us.us.us.us, %.33
  %72 = or i1 %.457.us159.us.us.us.us.1, %.457.us159.us.us.us.us
  %.473.us164.us.us.us.us.1 = add nsw i64 %wi0.4146.us157.us.us.us.us, 2
  %.457.us159.us.us.us.us.2 = icmp eq i64 %.473.us164.us.us.us.us.1, %.33
  %.473.us164.us.us.us.us.2 = add nsw i64 %wi0.4146.us157.us.us.us.us, 3
  %.457.us159.us.us.us.us.3 = icmp eq i64 %.473.us164.us.us.us.us.2, %.33
  %.473.us164.us.us.us.us.3 = add nsw i64 %wi0.4146.us157.us.us.us.us, 4
  %.457.us159.us.us.us.us.4 = icmp eq i64 %.473.us164.us.us.us.us.3, %.33
  %.473.us164.us.us.us.us.4 = add nsw i64 %wi0.4146.us157.us.us.us.us, 5
  %.457.us159.us.us.us.us.5 = icmp eq i64 %.473.us164.us.us.us.us.4, %.33
  %.473.us164.us.us.us.us.5 = add nsw i64 %wi0.4146.us157.us.us.us.us, 6
  %.457.us159.us.us.us.us.6 = icmp eq i64 %.473.us164.us.us.us.us.5, %.33
  %.473.us164.us.us.us.us.6 = add nsw i64 %wi0.4146.us157.us.us.us.us, 7
  %.457.us159.us.us.us.us.7 = icmp eq i64 %.473.us164.us.us.us.us.6, %.33
  %73 = select i1 %.457.us159.us.us.us.us.7, i1 true, i1 %.457.us159.us.us.us.us.6
  %74 = select i1 %73, i1 true, i1 %.457.us159.us.us.us.us.5
  %75 = select i1 %74, i1 true, i1 %.457.us159.us.us.us.us.4
  %76 = select i1 %75, i1 true, i1 %.457.us159.us.us.us.us.3
  %77 = select i1 %76, i1 true, i1 %.457.us159.us.us.us.us.2
  %78 = select i1 %77, i1 true, i1 %72
  %spec.select.7 = select i1 %78, float %.460, float %.460278
  %.473.us164.us.us.us.us.7 = add nsw i64 %wi0.4146.us157.us.us.us.us, 8
  %.442.us165.us.us.us.us.7 = icmp slt i64 %.473.us164.us.us.us.us.7, %.38
  br i1 %.442.us165.us.us.us.us.7, label %wi0.body.4.us156.us.us.us.us, label %wi0.head.4.wi0.end.4_crit_edge.split.us166.us.us.us.us, !llvm.loop !10

wi0.head.4.wi0.end.4_crit_edge.split.us166.us.us.us.us: ; preds = %wi0.body.4.us156.us.us.us.us.prol.loopexit, %wi0.body.4.us156.us.us.us.us, %if.end.2.us162.us.us.us.us.peel
  %.460276 = phi float [ %.460, %if.end.2.us162.us.us.us.us.peel ], [ %spec.select.lcssa.unr, %wi0.body.4.us156.us.us.us.us.prol.loopexit ], [ %spec.select.7, %wi0.body.4.us156.us.us.us.us ]
  %.534.us.us.us.us.us = add nsw i64 %wi1.2150.us.us.us.us.us, 1
  %.438.us.us.us.us.us = icmp slt i64 %.534.us.us.us.us.us, %.41
  br i1 %.438.us.us.us.us.us, label %if.end.2.us162.us.us.us.us.peel, label %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.loopexit

wi0.end.4.us.us.us:                               ; preds = %if.end.2.us162.us.us, %wi0.body.4.us.us.us.us, %middle.block86, %vec.epilog.middle.block120, %middle.block, %vec.epilog.middle.block
  %row.bad.2.lcssa.us.us.us = phi i32 [ %spec.select235, %wi0.body.4.us.us.us.us ], [ %116, %vec.epilog.middle.block ], [ %110, %middle.block ], [ %96, %vec.epilog.middle.block120 ], [ %88, %middle.block86 ], [ %row.bad.3.us163.us.us, %if.end.2.us162.us.us ]
  %.476.not.us.us.us = icmp eq i32 %row.bad.2.lcssa.us.us.us, 0
  br i1 %.476.not.us.us.us, label %wi0.end.4.endif.us.us.us, label %if.then.3.if.us.us.us.peel, !prof !12

wi0.body.5.us152.us.us:                           ; preds = %wi0.body.5.us152.us.us.peel.next, %if.end.3.us.us.us.1
  %wi0.5148.us153.us.us = phi i64 [ %.530.us154.us.us.1, %if.end.3.us.us.us.1 ], [ %wi0.5148.us153.us.us.unr, %wi0.body.5.us152.us.us.peel.next ]
  %.496.us.us.us.not = icmp eq i64 %wi0.5148.us153.us.us, %.33
  br i1 %.496.us.us.us.not, label %if.then.3.if.us.us.us, label %if.end.3.us.us.us, !prof !13

if.then.3.if.us.us.us:                            ; preds = %wi0.body.5.us152.us.us
  %.507.us.us.us = load i64, ptr %.16, align 8
  %.509.us.us.us = load i64, ptr %.134, align 8
  %.510.us.us.us = icmp eq i64 %.507.us.us.us, 0
  %.511.us.us.us = icmp ult i64 %.506.us.us.us, %.509.us.us.us
  %.512.us.us.us = icmp eq i64 %.506.us.us.us, %.509.us.us.us
  %.513.us.us.us = icmp ugt i64 %.507.us.us.us, 7
  %.514.us.us.us = and i1 %.513.us.us.us, %.512.us.us.us
  %.515.us.us.us = or i1 %.511.us.us.us, %.514.us.us.us
  %.516.us.us.us = or i1 %.510.us.us.us, %.515.us.us.us
  br i1 %.516.us.us.us, label %if.then.3.if.if.us.us.us, label %if.end.3.us.us.us

if.then.3.if.if.us.us.us:                         ; preds = %if.then.3.if.us.us.us
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.145, align 8
  store i64 %.13, ptr %.147, align 8
  store i64 %.506.us.us.us, ptr %.134, align 8
  br label %if.end.3.us.us.us

if.end.3.us.us.us:                                ; preds = %if.then.3.if.if.us.us.us, %if.then.3.if.us.us.us, %wi0.body.5.us152.us.us
  %.530.us154.us.us = add nsw i64 %wi0.5148.us153.us.us, 1
  %.496.us.us.us.not.1 = icmp eq i64 %.530.us154.us.us, %.33
  br i1 %.496.us.us.us.not.1, label %if.then.3.if.us.us.us.1, label %if.end.3.us.us.us.1, !prof !13

if.then.3.if.us.us.us.1:                          ; preds = %if.end.3.us.us.us
  %.507.us.us.us.1 = load i64, ptr %.16, align 8
  %.509.us.us.us.1 = load i64, ptr %.134, align 8
  %.510.us.us.us.1 = icmp eq i64 %.507.us.us.us.1, 0
  %.511.us.us.us.1 = icmp ult i64 %.506.us.us.us, %.509.us.us.us.1
  %.512.us.us.us.1 = icmp eq i64 %.506.us.us.us, %.509.us.us.us.1
  %.513.us.us.us.1 = icmp ugt i64 %.507.us.us.us.1, 7
  %.514.us.us.us.1 = and i1 %.513.us.us.us.1, %.512.us.us.us.1
  %.515.us.us.us.1 = or i1 %.511.us.us.us.1, %.514.us.us.us.1
  %.516.us.us.us.1 = or i1 %.510.us.us.us.1, %.515.us.us.us.1
  br i1 %.516.us.us.us.1, label %if.then.3.if.if.us.us.us.1, label %if.end.3.us.us.us.1

if.then.3.if.if.us.us.us.1:                       ; preds = %if.then.3.if.us.us.us.1
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.145, align 8
  store i64 %.13, ptr %.147, align 8
  store i64 %.506.us.us.us, ptr %.134, align 8
  br label %if.end.3.us.us.us.1

if.end.3.us.us.us.1:                              ; preds = %if.then.3.if.if.us.us.us.1, %if.then.3.if.us.us.us.1, %if.end.3.us.us.us
  %.530.us154.us.us.1 = add nsw i64 %wi0.5148.us153.us.us, 2
  %.479.us155.us.us.1 = icmp slt i64 %.530.us154.us.us.1, %.38
  br i1 %.479.us155.us.us.1, label %wi0.body.5.us152.us.us, label %wi0.end.4.endif.us.us.us, !llvm.loop !14

wi0.end.4.endif.us.us.us:                         ; preds = %wi0.body.5.us152.us.us.peel.next, %if.end.3.us.us.us.1, %if.end.2.us162.us.us.peel, %if.end.3.us.us.us.peel, %wi0.end.4.us.us.us
  %.534.us.us.us = add nsw i64 %wi1.2150.us.us.us, 1
  %.438.us.us.us = icmp slt i64 %.534.us.us.us, %.41
  br i1 %.438.us.us.us, label %wi0.body.4.lr.ph.us.us.us, label %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us

wi0.body.4.us156.us.us:                           ; preds = %wi0.body.4.us156.us.us.preheader, %if.end.2.us162.us.us
  %wi0.4146.us157.us.us = phi i64 [ %.473.us164.us.us, %if.end.2.us162.us.us ], [ %wi0.4146.us157.us.us.ph, %wi0.body.4.us156.us.us.preheader ]
  %row.bad.2145.us158.us.us = phi i32 [ %row.bad.3.us163.us.us, %if.end.2.us162.us.us ], [ %row.bad.2145.us158.us.us.ph, %wi0.body.4.us156.us.us.preheader ]
  %.457.us159.us.us = icmp eq i64 %wi0.4146.us157.us.us, %.33
  br i1 %.457.us159.us.us, label %if.then.2.us160.us.us, label %if.end.2.us162.us.us

if.then.2.us160.us.us:                            ; preds = %wi0.body.4.us156.us.us
  %.465.us161.us.us = or i32 %row.bad.2145.us158.us.us, %.464
  store float %.460, ptr %.467, align 4
  br label %if.end.2.us162.us.us

if.end.2.us162.us.us:                             ; preds = %if.then.2.us160.us.us, %wi0.body.4.us156.us.us
  %row.bad.3.us163.us.us = phi i32 [ %.465.us161.us.us, %if.then.2.us160.us.us ], [ %row.bad.2145.us158.us.us, %wi0.body.4.us156.us.us ]
  %.473.us164.us.us = add nsw i64 %wi0.4146.us157.us.us, 1
  %.442.us165.us.us = icmp slt i64 %.473.us164.us.us, %.38
  br i1 %.442.us165.us.us, label %wi0.body.4.us156.us.us, label %wi0.end.4.us.us.us, !llvm.loop !15

if.then.3.if.us.us.us.peel:                       ; preds = %wi0.body.4.us.us.us.us.preheader, %wi0.end.4.us.us.us
  %.504.us.us.us = add i64 %wi1.2150.us.us.us, %.503.us.us
  %.505.us.us.us = mul i64 %.504.us.us.us, %.1
  %.506.us.us.us.peel = add i64 %.33, %.505.us.us.us
  %.507.us.us.us.peel = load i64, ptr %.16, align 8
  %.509.us.us.us.peel = load i64, ptr %.134, align 8
  %.510.us.us.us.peel = icmp eq i64 %.507.us.us.us.peel, 0
  %.511.us.us.us.peel = icmp ult i64 %.506.us.us.us.peel, %.509.us.us.us.peel
  %.512.us.us.us.peel = icmp eq i64 %.506.us.us.us.peel, %.509.us.us.us.peel
  %.513.us.us.us.peel = icmp ugt i64 %.507.us.us.us.peel, 7
  %.514.us.us.us.peel = and i1 %.513.us.us.us.peel, %.512.us.us.us.peel
  %.515.us.us.us.peel = or i1 %.511.us.us.us.peel, %.514.us.us.us.peel
  %.516.us.us.us.peel = or i1 %.510.us.us.us.peel, %.515.us.us.us.peel
  br i1 %.516.us.us.us.peel, label %if.then.3.if.if.us.us.us.peel, label %if.end.3.us.us.us.peel

if.then.3.if.if.us.us.us.peel:                    ; preds = %if.then.3.if.us.us.us.peel
  store i64 7, ptr %.16, align 8
  store i64 %.29, ptr %.145, align 8
  store i64 %.13, ptr %.147, align 8
  store i64 %.506.us.us.us.peel, ptr %.134, align 8
  br label %if.end.3.us.us.us.peel

if.end.3.us.us.us.peel:                           ; preds = %if.then.3.if.if.us.us.us.peel, %if.then.3.if.us.us.us.peel
  br i1 %.479.us155.us.us.peel, label %wi0.body.5.us152.us.us.peel.next, label %wi0.end.4.endif.us.us.us

wi0.body.5.us152.us.us.peel.next:                 ; preds = %if.end.3.us.us.us.peel
  %.506.us.us.us = add i64 %.33, %.505.us.us.us
  %wi0.5148.us153.us.us.unr = select i1 %lcmp.mod249.not, i64 %.530.us154.us.us.peel, i64 %.530.us154.us.us.prol
  br i1 %70, label %wi0.end.4.endif.us.us.us, label %wi0.body.5.us152.us.us

wi0.body.4.lr.ph.us.us.us:                        ; preds = %wi1.head.2.preheader.us.us, %wi0.end.4.endif.us.us.us
  %wi1.2150.us.us.us = phi i64 [ %.534.us.us.us, %wi0.end.4.endif.us.us.us ], [ %.34, %wi1.head.2.preheader.us.us ]
  br i1 %.461.fr, label %wi0.body.4.us.us.us.us.preheader, label %if.end.2.us162.us.us.peel, !prof !5

if.end.2.us162.us.us.peel:                        ; preds = %wi0.body.4.lr.ph.us.us.us
  store float %.460, ptr %.467, align 4
  br i1 %.442.us165.us.us.peel, label %iter.check34, label %wi0.end.4.endif.us.us.us

iter.check34:                                     ; preds = %if.end.2.us162.us.us.peel
  br i1 %min.iters.check32, label %wi0.body.4.us156.us.us.preheader, label %vector.main.loop.iter.check36

vector.main.loop.iter.check36:                    ; preds = %iter.check34
  br i1 %min.iters.check35, label %vec.epilog.ph95, label %vector.body47

vector.body47:                                    ; preds = %vector.main.loop.iter.check36, %84
  %index48 = phi i64 [ %index.next84, %84 ], [ 0, %vector.main.loop.iter.check36 ]
  %vec.ind49 = phi <8 x i64> [ %vec.ind.next85, %84 ], [ %induction46, %vector.main.loop.iter.check36 ]
  %vec.phi50 = phi <8 x i32> [ %predphi, %84 ], [ zeroinitializer, %vector.main.loop.iter.check36 ]
  %vec.phi51 = phi <8 x i32> [ %predphi83, %84 ], [ zeroinitializer, %vector.main.loop.iter.check36 ]
  %step.add52 = add <8 x i64> %vec.ind49, splat (i64 8)
  %79 = icmp eq <8 x i64> %vec.ind49, %broadcast.splat41
  %80 = icmp eq <8 x i64> %step.add52, %broadcast.splat41
  %81 = shufflevector <8 x i1> %80, <8 x i1> %79, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
  %82 = bitcast <16 x i1> %81 to i16
  %.not = icmp eq i16 %82, 0
  br i1 %.not, label %84, label %83

83:                                               ; preds = %vector.body47
  store float %.460, ptr %.467, align 4
  br label %84

84:                                               ; preds = %vector.body47, %83
  %85 = select <8 x i1> %79, <8 x i32> %broadcast.splat43, <8 x i32> zeroinitializer
  %predphi = or <8 x i32> %vec.phi50, %85
  %86 = select <8 x i1> %80, <8 x i32> %broadcast.splat43, <8 x i32> zeroinitializer
  %predphi83 = or <8 x i32> %vec.phi51, %86
  %index.next84 = add nuw i64 %index48, 16
  %vec.ind.next85 = add <8 x i64> %vec.ind49, splat (i64 16)
  %87 = icmp eq i64 %index.next84, %n.vec39
  br i1 %87, label %middle.block86, label %vector.body47, !llvm.loop !16

middle.block86:                                   ; preds = %84
  %bin.rdx87 = or <8 x i32> %predphi83, %predphi
  %88 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx87)
  br i1 %cmp.n88, label %wi0.end.4.us.us.us, label %vec.epilog.iter.check93

vec.epilog.iter.check93:                          ; preds = %middle.block86
  br i1 %min.epilog.iters.check94, label %wi0.body.4.us156.us.us.preheader, label %vec.epilog.ph95, !prof !17

vec.epilog.ph95:                                  ; preds = %vector.main.loop.iter.check36, %vec.epilog.iter.check93
  %vec.epilog.resume.val89 = phi i64 [ %n.vec39, %vec.epilog.iter.check93 ], [ 0, %vector.main.loop.iter.check36 ]
  %bc.resume.val90 = phi i64 [ %66, %vec.epilog.iter.check93 ], [ %.473.us164.us.us.peel, %vector.main.loop.iter.check36 ]
  %bc.merge.rdx91 = phi i32 [ %88, %vec.epilog.iter.check93 ], [ 0, %vector.main.loop.iter.check36 ]
  %89 = insertelement <4 x i32> <i32 poison, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx91, i64 0
  %broadcast.splatinsert102 = insertelement <4 x i64> poison, i64 %bc.resume.val90, i64 0
  %broadcast.splat103 = shufflevector <4 x i64> %broadcast.splatinsert102, <4 x i64> poison, <4 x i32> zeroinitializer
  %induction104 = add nsw <4 x i64> %broadcast.splat103, <i64 0, i64 1, i64 2, i64 3>
  br label %vec.epilog.vector.body105

vec.epilog.vector.body105:                        ; preds = %93, %vec.epilog.ph95
  %index106 = phi i64 [ %vec.epilog.resume.val89, %vec.epilog.ph95 ], [ %index.next118, %93 ]
  %vec.ind107 = phi <4 x i64> [ %induction104, %vec.epilog.ph95 ], [ %vec.ind.next119, %93 ]
  %vec.phi108 = phi <4 x i32> [ %89, %vec.epilog.ph95 ], [ %predphi117, %93 ]
  %90 = icmp eq <4 x i64> %vec.ind107, %broadcast.splat99
  %91 = bitcast <4 x i1> %90 to i4
  %.not231 = icmp eq i4 %91, 0
  br i1 %.not231, label %93, label %92

92:                                               ; preds = %vec.epilog.vector.body105
  store float %.460, ptr %.467, align 4
  br label %93

93:                                               ; preds = %vec.epilog.vector.body105, %92
  %94 = select <4 x i1> %90, <4 x i32> %broadcast.splat101, <4 x i32> zeroinitializer
  %predphi117 = or <4 x i32> %vec.phi108, %94
  %index.next118 = add nuw i64 %index106, 4
  %vec.ind.next119 = add nsw <4 x i64> %vec.ind107, splat (i64 4)
  %95 = icmp eq i64 %index.next118, %n.vec97
  br i1 %95, label %vec.epilog.middle.block120, label %vec.epilog.vector.body105, !llvm.loop !18

vec.epilog.middle.block120:                       ; preds = %93
  %96 = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %predphi117)
  br i1 %cmp.n121, label %wi0.end.4.us.us.us, label %wi0.body.4.us156.us.us.preheader

wi0.body.4.us156.us.us.preheader:                 ; preds = %iter.check34, %vec.epilog.iter.check93, %vec.epilog.middle.block120
  %wi0.4146.us157.us.us.ph = phi i64 [ %.473.us164.us.us.peel, %iter.check34 ], [ %ind.end124, %vec.epilog.iter.check93 ], [ %67, %vec.epilog.middle.block120 ]
  %row.bad.2145.us158.us.us.ph = phi i32 [ 0, %iter.check34 ], [ %88, %vec.epilog.iter.check93 ], [ %96, %vec.epilog.middle.block120 ]
  br label %wi0.body.4.us156.us.us

wi0.body.4.us.us.us.us.preheader:                 ; preds = %wi0.body.4.lr.ph.us.us.us
  br i1 %.442.us.us.us.us.peel, label %iter.check, label %if.then.3.if.us.us.us.peel

iter.check:                                       ; preds = %wi0.body.4.us.us.us.us.preheader
  br i1 %min.iters.check, label %wi0.body.4.us.us.us.us.preheader232, label %vector.main.loop.iter.check

vector.main.loop.iter.check:                      ; preds = %iter.check
  br i1 %min.iters.check5, label %vec.epilog.ph, label %vector.body

vector.body:                                      ; preds = %vector.main.loop.iter.check, %vector.body
  %index = phi i64 [ %index.next, %vector.body ], [ 0, %vector.main.loop.iter.check ]
  %vec.ind = phi <8 x i64> [ %vec.ind.next, %vector.body ], [ %induction, %vector.main.loop.iter.check ]
  %vec.phi = phi <8 x i32> [ %105, %vector.body ], [ <i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>, %vector.main.loop.iter.check ]
  %vec.phi10 = phi <8 x i32> [ %106, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %vec.phi11 = phi <8 x i32> [ %107, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %vec.phi12 = phi <8 x i32> [ %108, %vector.body ], [ zeroinitializer, %vector.main.loop.iter.check ]
  %step.add = add <8 x i64> %vec.ind, splat (i64 8)
  %step.add.2 = add <8 x i64> %vec.ind, splat (i64 16)
  %step.add.3 = add <8 x i64> %vec.ind, splat (i64 24)
  %97 = icmp eq <8 x i64> %vec.ind, %broadcast.splat
  %98 = icmp eq <8 x i64> %step.add, %broadcast.splat
  %99 = icmp eq <8 x i64> %step.add.2, %broadcast.splat
  %100 = icmp eq <8 x i64> %step.add.3, %broadcast.splat
  %101 = select <8 x i1> %97, <8 x i32> %broadcast.splat7, <8 x i32> zeroinitializer
  %102 = select <8 x i1> %98, <8 x i32> %broadcast.splat7, <8 x i32> zeroinitializer
  %103 = select <8 x i1> %99, <8 x i32> %broadcast.splat7, <8 x i32> zeroinitializer
  %104 = select <8 x i1> %100, <8 x i32> %broadcast.splat7, <8 x i32> zeroinitializer
  %105 = or <8 x i32> %vec.phi, %101
  %106 = or <8 x i32> %vec.phi10, %102
  %107 = or <8 x i32> %vec.phi11, %103
  %108 = or <8 x i32> %vec.phi12, %104
  %index.next = add nuw i64 %index, 32
  %vec.ind.next = add <8 x i64> %vec.ind, splat (i64 32)
  %109 = icmp eq i64 %index.next, %n.vec
  br i1 %109, label %middle.block, label %vector.body, !llvm.loop !19

middle.block:                                     ; preds = %vector.body
  %bin.rdx = or <8 x i32> %106, %105
  %bin.rdx13 = or <8 x i32> %107, %bin.rdx
  %bin.rdx14 = or <8 x i32> %108, %bin.rdx13
  %110 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx14)
  br i1 %cmp.n, label %wi0.end.4.us.us.us, label %vec.epilog.iter.check

vec.epilog.iter.check:                            ; preds = %middle.block
  br i1 %min.epilog.iters.check, label %wi0.body.4.us.us.us.us.preheader232, label %vec.epilog.ph, !prof !20

vec.epilog.ph:                                    ; preds = %vector.main.loop.iter.check, %vec.epilog.iter.check
  %vec.epilog.resume.val = phi i64 [ %n.vec, %vec.epilog.iter.check ], [ 0, %vector.main.loop.iter.check ]
  %bc.resume.val = phi i64 [ %68, %vec.epilog.iter.check ], [ %.473.us.us.us.us.peel, %vector.main.loop.iter.check ]
  %bc.merge.rdx = phi i32 [ %110, %vec.epilog.iter.check ], [ 1, %vector.main.loop.iter.check ]
  %111 = insertelement <4 x i32> <i32 poison, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx, i64 0
  %broadcast.splatinsert21 = insertelement <4 x i64> poison, i64 %bc.resume.val, i64 0
  %broadcast.splat22 = shufflevector <4 x i64> %broadcast.splatinsert21, <4 x i64> poison, <4 x i32> zeroinitializer
  %induction23 = add nsw <4 x i64> %broadcast.splat22, <i64 0, i64 1, i64 2, i64 3>
  br label %vec.epilog.vector.body

vec.epilog.vector.body:                           ; preds = %vec.epilog.vector.body, %vec.epilog.ph
  %index24 = phi i64 [ %vec.epilog.resume.val, %vec.epilog.ph ], [ %index.next27, %vec.epilog.vector.body ]
  %vec.ind25 = phi <4 x i64> [ %induction23, %vec.epilog.ph ], [ %vec.ind.next28, %vec.epilog.vector.body ]
  %vec.phi26 = phi <4 x i32> [ %111, %vec.epilog.ph ], [ %114, %vec.epilog.vector.body ]
  %112 = icmp eq <4 x i64> %vec.ind25, %broadcast.splat18
  %113 = select <4 x i1> %112, <4 x i32> %broadcast.splat20, <4 x i32> zeroinitializer
  %114 = or <4 x i32> %vec.phi26, %113
  %index.next27 = add nuw i64 %index24, 4
  %vec.ind.next28 = add nsw <4 x i64> %vec.ind25, splat (i64 4)
  %115 = icmp eq i64 %index.next27, %n.vec16
  br i1 %115, label %vec.epilog.middle.block, label %vec.epilog.vector.body, !llvm.loop !21

vec.epilog.middle.block:                          ; preds = %vec.epilog.vector.body
  %116 = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %114)
  br i1 %cmp.n29, label %wi0.end.4.us.us.us, label %wi0.body.4.us.us.us.us.preheader232

wi0.body.4.us.us.us.us.preheader232:              ; preds = %iter.check, %vec.epilog.iter.check, %vec.epilog.middle.block
  %wi0.4146.us.us.us.us.ph = phi i64 [ %.473.us.us.us.us.peel, %iter.check ], [ %ind.end, %vec.epilog.iter.check ], [ %69, %vec.epilog.middle.block ]
  %row.bad.2145.us.us.us.us.ph = phi i32 [ 1, %iter.check ], [ %110, %vec.epilog.iter.check ], [ %116, %vec.epilog.middle.block ]
  br label %wi0.body.4.us.us.us.us

wi0.body.4.us.us.us.us:                           ; preds = %wi0.body.4.us.us.us.us.preheader232, %wi0.body.4.us.us.us.us
  %wi0.4146.us.us.us.us = phi i64 [ %.473.us.us.us.us, %wi0.body.4.us.us.us.us ], [ %wi0.4146.us.us.us.us.ph, %wi0.body.4.us.us.us.us.preheader232 ]
  %row.bad.2145.us.us.us.us = phi i32 [ %spec.select235, %wi0.body.4.us.us.us.us ], [ %row.bad.2145.us.us.us.us.ph, %wi0.body.4.us.us.us.us.preheader232 ]
  %.457.us.us.us.us = icmp eq i64 %wi0.4146.us.us.us.us, %.33
  %.465.us.us.us.us = select i1 %.457.us.us.us.us, i32 %.464, i32 0
  %spec.select235 = or i32 %row.bad.2145.us.us.us.us, %.465.us.us.us.us
  %.473.us.us.us.us = add nsw i64 %wi0.4146.us.us.us.us, 1
  %.442.us.us.us.us = icmp slt i64 %.473.us.us.us.us, %.38
  br i1 %.442.us.us.us.us, label %wi0.body.4.us.us.us.us, label %wi0.end.4.us.us.us, !llvm.loop !22

wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.loopexit: ; preds = %wi0.head.4.wi0.end.4_crit_edge.split.us166.us.us.us.us
  store float %.460276, ptr %.467, align 4
  br label %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us

wi1.head.2.wi1.end.2_crit_edge.split.us.us.us:    ; preds = %wi0.end.4.endif.us.us.us, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.loopexit, %wi0.head.4.preheader.lr.ph.split.us.us.us.split.us.split.us
  %.537.us.us = add nsw i64 %wi2.2210.us.us, 1
  %.435.us.us = icmp slt i64 %.537.us.us, %.44
  br i1 %.435.us.us, label %wi1.head.2.preheader.us.us, label %wi2.end.2

gwhile.body:                                      ; preds = %gwhile.body.backedge, %gwhile.head.preheader
  %step.group.0140 = phi i64 [ 64, %gwhile.head.preheader ], [ %step.group.0140.be, %gwhile.body.backedge ]
  %.209 = tail call i64 @llvm.smin.i64(i64 %step.group.0140, i64 %.4)
  %.210 = add i64 %.209, %.33
  %.212 = tail call i64 @llvm.smin.i64(i64 %.210, i64 %.38)
  br i1 %.4666, label %wi1.head.1.preheader.lr.ph, label %wi2.end.1.thread

wi1.head.1.preheader.lr.ph:                       ; preds = %gwhile.body
  br i1 %.21788, label %wi1.head.1.preheader.lr.ph.split.us, label %wi2.end.1

wi1.head.1.preheader.lr.ph.split.us:              ; preds = %wi1.head.1.preheader.lr.ph
  %.22183 = icmp slt i64 %.33, %.212
  %.28086.fr = freeze i1 %.22183
  br i1 %.28086.fr, label %wi1.head.1.preheader.us.us.preheader, label %wi2.end.1

wi1.head.1.preheader.us.us.preheader:             ; preds = %wi1.head.1.preheader.lr.ph.split.us
  %117 = shl i64 %step.group.0140, 2
  %scevgep126 = getelementptr i8, ptr %tile, i64 %117
  %smax129 = call i64 @llvm.smax.i64(i64 %.212, i64 %55)
  %118 = sub i64 %smax129, %54
  %min.iters.check130 = icmp ult i64 %118, 8
  %smax = call i64 @llvm.smax.i64(i64 %.212, i64 %53)
  %119 = shl i64 %smax, 2
  %scevgep125 = getelementptr i8, ptr %scevgep, i64 %119
  %120 = add i64 %step.group.0140, %smax
  %121 = shl i64 %120, 2
  %scevgep128 = getelementptr i8, ptr %scevgep127, i64 %121
  %bound0 = icmp ult ptr %tile, %scevgep128
  %bound1 = icmp ult ptr %scevgep126, %scevgep125
  %found.conflict = and i1 %bound0, %bound1
  %min.iters.check133 = icmp ult i64 %118, 16
  %n.mod.vf136 = and i64 %118, 8
  %n.vec137 = and i64 %118, -16
  %122 = insertelement <8 x i64> poison, i64 %step.group.0140, i64 0
  %123 = shufflevector <8 x i64> %122, <8 x i64> poison, <8 x i32> zeroinitializer
  %invariant.gep = getelementptr float, ptr %tile, i64 %step.group.0140
  %cmp.n152 = icmp eq i64 %118, %n.vec137
  %ind.end173 = add i64 %.33, %n.vec137
  %min.epilog.iters.check157.not.not = icmp eq i64 %n.mod.vf136, 0
  %n.vec160 = and i64 %118, -8
  %124 = add i64 %.33, %n.vec160
  %125 = insertelement <8 x i64> poison, i64 %step.group.0140, i64 0
  %126 = shufflevector <8 x i64> %125, <8 x i64> poison, <8 x i32> zeroinitializer
  %invariant.gep265 = getelementptr float, ptr %tile, i64 %step.group.0140
  %cmp.n170 = icmp eq i64 %118, %n.vec160
  br label %wi1.head.1.preheader.us.us

wi1.head.1.preheader.us.us:                       ; preds = %wi1.head.1.preheader.us.us.preheader, %wi1.head.1.wi1.end.1_crit_edge.split.us.us.us
  %wi2.1127.us.us = phi i64 [ %.402.us.us, %wi1.head.1.wi1.end.1_crit_edge.split.us.us.us ], [ %.35, %wi1.head.1.preheader.us.us.preheader ]
  %.300.us.us = mul i64 %wi2.1127.us.us, %.2
  br label %iter.check132

iter.check132:                                    ; preds = %wi1.head.1.preheader.us.us, %wi0.end.2.endif.us.us.us
  %wi1.189.us.us.us = phi i64 [ %.34, %wi1.head.1.preheader.us.us ], [ %.399.us.us.us, %wi0.end.2.endif.us.us.us ]
  %brmerge = select i1 %min.iters.check130, i1 true, i1 %found.conflict
  br i1 %brmerge, label %wi0.body.2.us.us.us.preheader, label %vector.main.loop.iter.check134

vector.main.loop.iter.check134:                   ; preds = %iter.check132
  br i1 %min.iters.check133, label %vec.epilog.ph158, label %vector.body138

vector.body138:                                   ; preds = %vector.main.loop.iter.check134, %vector.body138
  %index139 = phi i64 [ %index.next149, %vector.body138 ], [ 0, %vector.main.loop.iter.check134 ]
  %vec.phi140 = phi <8 x i32> [ %152, %vector.body138 ], [ zeroinitializer, %vector.main.loop.iter.check134 ]
  %vec.phi141 = phi <8 x i32> [ %153, %vector.body138 ], [ zeroinitializer, %vector.main.loop.iter.check134 ]
  %127 = getelementptr float, ptr %tile, i64 %index139
  %128 = getelementptr i8, ptr %127, i64 32
  %129 = add i64 %.33, %index139
  %130 = insertelement <8 x i64> poison, i64 %index139, i64 0
  %131 = insertelement <8 x i64> %130, i64 %129, i64 1
  %132 = shufflevector <8 x i64> %131, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %133 = add <8 x i64> %132, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %134 = sub <8 x i64> %133, %59
  %135 = insertelement <8 x i64> %134, i64 %index139, i64 0
  %136 = icmp ult <8 x i64> %135, splat (i64 128)
  %wide.masked.load = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 64 %127, <8 x i1> %136, <8 x float> zeroinitializer), !alias.scope !23, !noalias !26
  %137 = add <8 x i64> %134, %123
  %138 = insertelement <8 x i64> poison, i64 %129, i64 0
  %139 = shufflevector <8 x i64> %138, <8 x i64> poison, <8 x i32> zeroinitializer
  %140 = add <8 x i64> %139, <i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %141 = sub <8 x i64> %140, %57
  %142 = icmp ult <8 x i64> %141, splat (i64 128)
  %wide.masked.load142 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 32 %128, <8 x i1> %142, <8 x float> zeroinitializer), !alias.scope !23, !noalias !26
  %143 = add <8 x i64> %141, %123
  %144 = icmp ult <8 x i64> %137, splat (i64 128)
  %145 = icmp ult <8 x i64> %143, splat (i64 128)
  %146 = or <8 x i64> %137, %135
  %147 = or <8 x i64> %143, %141
  %148 = icmp ugt <8 x i64> %146, splat (i64 127)
  %149 = icmp ugt <8 x i64> %147, splat (i64 127)
  %150 = zext <8 x i1> %148 to <8 x i32>
  %151 = zext <8 x i1> %149 to <8 x i32>
  %152 = or <8 x i32> %vec.phi140, %150
  %153 = or <8 x i32> %vec.phi141, %151
  %gep = getelementptr float, ptr %invariant.gep, i64 %index139
  %154 = getelementptr i8, ptr %gep, i64 32
  %wide.masked.load145 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %gep, <8 x i1> %144, <8 x float> zeroinitializer), !alias.scope !26
  %wide.masked.load146 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %154, <8 x i1> %145, <8 x float> zeroinitializer), !alias.scope !26
  %155 = fadd <8 x float> %wide.masked.load, %wide.masked.load145
  %156 = fadd <8 x float> %wide.masked.load142, %wide.masked.load146
  call void @llvm.masked.store.v8f32.p0(<8 x float> %155, ptr align 64 %127, <8 x i1> %136), !alias.scope !23, !noalias !26
  call void @llvm.masked.store.v8f32.p0(<8 x float> %156, ptr align 32 %128, <8 x i1> %142), !alias.scope !23, !noalias !26
  %index.next149 = add nuw i64 %index139, 16
  %157 = icmp eq i64 %index.next149, %n.vec137
  br i1 %157, label %middle.block150, label %vector.body138, !llvm.loop !28

middle.block150:                                  ; preds = %vector.body138
  %bin.rdx151 = or <8 x i32> %153, %152
  %158 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %bin.rdx151)
  br i1 %cmp.n152, label %wi0.end.2.us.us.us, label %vec.epilog.iter.check156

vec.epilog.iter.check156:                         ; preds = %middle.block150
  br i1 %min.epilog.iters.check157.not.not, label %wi0.body.2.us.us.us.preheader, label %vec.epilog.ph158, !prof !3

vec.epilog.ph158:                                 ; preds = %vector.main.loop.iter.check134, %vec.epilog.iter.check156
  %vec.epilog.resume.val153 = phi i64 [ %n.vec137, %vec.epilog.iter.check156 ], [ 0, %vector.main.loop.iter.check134 ]
  %bc.merge.rdx154 = phi i32 [ %158, %vec.epilog.iter.check156 ], [ 0, %vector.main.loop.iter.check134 ]
  %159 = insertelement <8 x i32> <i32 poison, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>, i32 %bc.merge.rdx154, i64 0
  br label %vec.epilog.vector.body161

vec.epilog.vector.body161:                        ; preds = %vec.epilog.vector.body161, %vec.epilog.ph158
  %index162 = phi i64 [ %vec.epilog.resume.val153, %vec.epilog.ph158 ], [ %index.next168, %vec.epilog.vector.body161 ]
  %vec.phi163 = phi <8 x i32> [ %159, %vec.epilog.ph158 ], [ %173, %vec.epilog.vector.body161 ]
  %160 = getelementptr float, ptr %tile, i64 %index162
  %offset.idx = add i64 %.33, %index162
  %161 = insertelement <8 x i64> poison, i64 %index162, i64 0
  %162 = insertelement <8 x i64> %161, i64 %offset.idx, i64 1
  %163 = shufflevector <8 x i64> %162, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %164 = add <8 x i64> %163, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %165 = sub <8 x i64> %164, %61
  %166 = insertelement <8 x i64> %165, i64 %index162, i64 0
  %167 = icmp ult <8 x i64> %166, splat (i64 128)
  %wide.masked.load164 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 32 %160, <8 x i1> %167, <8 x float> zeroinitializer), !alias.scope !23, !noalias !26
  %168 = add <8 x i64> %165, %126
  %169 = icmp ult <8 x i64> %168, splat (i64 128)
  %170 = or <8 x i64> %168, %166
  %171 = icmp ugt <8 x i64> %170, splat (i64 127)
  %172 = zext <8 x i1> %171 to <8 x i32>
  %173 = or <8 x i32> %vec.phi163, %172
  %gep266 = getelementptr float, ptr %invariant.gep265, i64 %index162
  %wide.masked.load166 = call <8 x float> @llvm.masked.load.v8f32.p0(ptr align 4 %gep266, <8 x i1> %169, <8 x float> zeroinitializer), !alias.scope !26
  %174 = fadd <8 x float> %wide.masked.load164, %wide.masked.load166
  call void @llvm.masked.store.v8f32.p0(<8 x float> %174, ptr align 32 %160, <8 x i1> %167), !alias.scope !23, !noalias !26
  %index.next168 = add nuw i64 %index162, 8
  %175 = icmp eq i64 %index.next168, %n.vec160
  br i1 %175, label %vec.epilog.middle.block169, label %vec.epilog.vector.body161, !llvm.loop !29

vec.epilog.middle.block169:                       ; preds = %vec.epilog.vector.body161
  %176 = call i32 @llvm.vector.reduce.or.v8i32(<8 x i32> %173)
  br i1 %cmp.n170, label %wi0.end.2.us.us.us, label %wi0.body.2.us.us.us.preheader

wi0.body.2.us.us.us.preheader:                    ; preds = %iter.check132, %vec.epilog.iter.check156, %vec.epilog.middle.block169
  %wi0.285.us.us.us.ph = phi i64 [ %.33, %iter.check132 ], [ %124, %vec.epilog.middle.block169 ], [ %ind.end173, %vec.epilog.iter.check156 ]
  %row.bad.184.us.us.us.ph = phi i32 [ 0, %iter.check132 ], [ %176, %vec.epilog.middle.block169 ], [ %158, %vec.epilog.iter.check156 ]
  br label %wi0.body.2.us.us.us

wi0.end.2.us.us.us:                               ; preds = %load.end.1.endif.us.us.us, %vec.epilog.middle.block169, %middle.block150
  %.254.us.us.us.lcssa = phi i32 [ %176, %vec.epilog.middle.block169 ], [ %158, %middle.block150 ], [ %.254.us.us.us, %load.end.1.endif.us.us.us ]
  %177 = icmp eq i32 %.254.us.us.us.lcssa, 0
  br i1 %177, label %wi0.end.2.endif.us.us.us, label %wi0.head.3.preheader.us.us.us, !prof !7

wi0.body.3.us.us.us:                              ; preds = %wi0.head.3.preheader.us.us.us, %load.end.3.endif.us.us.us
  %wi0.387.us.us.us = phi i64 [ %.33, %wi0.head.3.preheader.us.us.us ], [ %.395.us.us.us, %load.end.3.endif.us.us.us ]
  %.288.us.us.us = sub nsw i64 %wi0.387.us.us.us, %.33
  %.297.us.us.us = icmp ugt i64 %.288.us.us.us, 127
  br i1 %.297.us.us.us, label %wi0.body.3.if.us.us.us, label %load.end.2.us.us.us, !prof !5

wi0.body.3.if.us.us.us:                           ; preds = %wi0.body.3.us.us.us
  %.303.us.us.us = add i64 %wi0.387.us.us.us, %.302.us.us.us
  %.304.us.us.us = load i64, ptr %.16, align 8
  %.306.us.us.us = load i64, ptr %.134, align 8
  %.307.us.us.us = icmp eq i64 %.304.us.us.us, 0
  %.308.us.us.us = icmp ult i64 %.303.us.us.us, %.306.us.us.us
  %.309.us.us.us = icmp eq i64 %.303.us.us.us, %.306.us.us.us
  %.310.us.us.us = icmp ugt i64 %.304.us.us.us, 3
  %.311.us.us.us = and i1 %.310.us.us.us, %.309.us.us.us
  %.312.us.us.us = or i1 %.308.us.us.us, %.311.us.us.us
  %.313.us.us.us = or i1 %.307.us.us.us, %.312.us.us.us
  br i1 %.313.us.us.us, label %wi0.body.3.if.if.us.us.us, label %load.end.2.us.us.us

wi0.body.3.if.if.us.us.us:                        ; preds = %wi0.body.3.if.us.us.us
  store i64 3, ptr %.16, align 8
  store i64 %.288.us.us.us, ptr %.145, align 8
  store i64 128, ptr %.147, align 8
  store i64 %.303.us.us.us, ptr %.134, align 8
  br label %load.end.2.us.us.us

load.end.2.us.us.us:                              ; preds = %wi0.body.3.if.if.us.us.us, %wi0.body.3.if.us.us.us, %wi0.body.3.us.us.us
  %.331.us.us.us = add i64 %.288.us.us.us, %step.group.0140
  %.332.us.us.us = icmp ugt i64 %.331.us.us.us, 127
  br i1 %.332.us.us.us, label %load.end.2.if.us.us.us, label %load.end.3.us.us.us, !prof !5

load.end.2.if.us.us.us:                           ; preds = %load.end.2.us.us.us
  %.338.us.us.us = add i64 %wi0.387.us.us.us, %.302.us.us.us
  %.339.us.us.us = load i64, ptr %.16, align 8
  %.341.us.us.us = load i64, ptr %.134, align 8
  %.342.us.us.us = icmp eq i64 %.339.us.us.us, 0
  %.343.us.us.us = icmp ult i64 %.338.us.us.us, %.341.us.us.us
  %.344.us.us.us = icmp eq i64 %.338.us.us.us, %.341.us.us.us
  %.345.us.us.us = icmp ugt i64 %.339.us.us.us, 4
  %.346.us.us.us = and i1 %.345.us.us.us, %.344.us.us.us
  %.347.us.us.us = or i1 %.343.us.us.us, %.346.us.us.us
  %.348.us.us.us = or i1 %.342.us.us.us, %.347.us.us.us
  br i1 %.348.us.us.us, label %load.end.2.if.if.us.us.us, label %load.end.3.us.us.us

load.end.2.if.if.us.us.us:                        ; preds = %load.end.2.if.us.us.us
  store i64 4, ptr %.16, align 8
  store i64 %.331.us.us.us, ptr %.145, align 8
  store i64 128, ptr %.147, align 8
  store i64 %.338.us.us.us, ptr %.134, align 8
  br label %load.end.3.us.us.us

load.end.3.us.us.us:                              ; preds = %load.end.2.if.if.us.us.us, %load.end.2.if.us.us.us, %load.end.2.us.us.us
  br i1 %.297.us.us.us, label %load.end.3.if.us.us.us, label %load.end.3.endif.us.us.us, !prof !5

load.end.3.if.us.us.us:                           ; preds = %load.end.3.us.us.us
  %.372.us.us.us = add i64 %wi0.387.us.us.us, %.302.us.us.us
  %.373.us.us.us = load i64, ptr %.16, align 8
  %.375.us.us.us = load i64, ptr %.134, align 8
  %.376.us.us.us = icmp eq i64 %.373.us.us.us, 0
  %.377.us.us.us = icmp ult i64 %.372.us.us.us, %.375.us.us.us
  %.378.us.us.us = icmp eq i64 %.372.us.us.us, %.375.us.us.us
  %.379.us.us.us = icmp ugt i64 %.373.us.us.us, 5
  %.380.us.us.us = and i1 %.379.us.us.us, %.378.us.us.us
  %.381.us.us.us = or i1 %.377.us.us.us, %.380.us.us.us
  %.382.us.us.us = or i1 %.376.us.us.us, %.381.us.us.us
  br i1 %.382.us.us.us, label %load.end.3.if.if.us.us.us, label %load.end.3.endif.us.us.us

load.end.3.if.if.us.us.us:                        ; preds = %load.end.3.if.us.us.us
  store i64 5, ptr %.16, align 8
  store i64 %.288.us.us.us, ptr %.145, align 8
  store i64 128, ptr %.147, align 8
  store i64 %.372.us.us.us, ptr %.134, align 8
  br label %load.end.3.endif.us.us.us

load.end.3.endif.us.us.us:                        ; preds = %load.end.3.if.if.us.us.us, %load.end.3.if.us.us.us, %load.end.3.us.us.us
  %.395.us.us.us = add nsw i64 %wi0.387.us.us.us, 1
  %.280.us.us.us = icmp slt i64 %.395.us.us.us, %.212
  br i1 %.280.us.us.us, label %wi0.body.3.us.us.us, label %wi0.end.2.endif.us.us.us

wi0.end.2.endif.us.us.us:                         ; preds = %load.end.3.endif.us.us.us, %wi0.end.2.us.us.us
  %.399.us.us.us = add nsw i64 %wi1.189.us.us.us, 1
  %.217.us.us.us = icmp slt i64 %.399.us.us.us, %.41
  br i1 %.217.us.us.us, label %iter.check132, label %wi1.head.1.wi1.end.1_crit_edge.split.us.us.us

wi0.body.2.us.us.us:                              ; preds = %wi0.body.2.us.us.us.preheader, %load.end.1.endif.us.us.us
  %wi0.285.us.us.us = phi i64 [ %.274.us.us.us, %load.end.1.endif.us.us.us ], [ %wi0.285.us.us.us.ph, %wi0.body.2.us.us.us.preheader ]
  %row.bad.184.us.us.us = phi i32 [ %.254.us.us.us, %load.end.1.endif.us.us.us ], [ %row.bad.184.us.us.us.ph, %wi0.body.2.us.us.us.preheader ]
  %.229.us.us.us = sub nsw i64 %wi0.285.us.us.us, %.33
  %.236.us.us.us = icmp ugt i64 %.229.us.us.us, 127
  %.242.us.us.us = getelementptr float, ptr %tile, i64 %.229.us.us.us
  br i1 %.236.us.us.us, label %load.end.us.us.us, label %load.ok.us.us.us

load.ok.us.us.us:                                 ; preds = %wi0.body.2.us.us.us
  %.244.us.us.us = load float, ptr %.242.us.us.us, align 4
  br label %load.end.us.us.us

load.end.us.us.us:                                ; preds = %load.ok.us.us.us, %wi0.body.2.us.us.us
  %.246.us.us.us = phi float [ %.244.us.us.us, %load.ok.us.us.us ], [ 0.000000e+00, %wi0.body.2.us.us.us ]
  %.249.us.us.us = add i64 %.229.us.us.us, %step.group.0140
  %.250.us.us.us = icmp ugt i64 %.249.us.us.us, 127
  %178 = or i64 %.249.us.us.us, %.229.us.us.us
  %179 = icmp ugt i64 %178, 127
  %180 = zext i1 %179 to i32
  %.254.us.us.us = or i32 %row.bad.184.us.us.us, %180
  br i1 %.250.us.us.us, label %load.end.1.us.us.us, label %load.ok.1.us.us.us

load.ok.1.us.us.us:                               ; preds = %load.end.us.us.us
  %.256.us.us.us = getelementptr float, ptr %tile, i64 %.249.us.us.us
  %.258.us.us.us = load float, ptr %.256.us.us.us, align 4
  br label %load.end.1.us.us.us

load.end.1.us.us.us:                              ; preds = %load.ok.1.us.us.us, %load.end.us.us.us
  %.260.us.us.us = phi float [ %.258.us.us.us, %load.ok.1.us.us.us ], [ 0.000000e+00, %load.end.us.us.us ]
  br i1 %.236.us.us.us, label %load.end.1.endif.us.us.us, label %load.end.1.if.us.us.us, !prof !5

load.end.1.if.us.us.us:                           ; preds = %load.end.1.us.us.us
  %.261.us.us.us = fadd float %.246.us.us.us, %.260.us.us.us
  store float %.261.us.us.us, ptr %.242.us.us.us, align 4
  br label %load.end.1.endif.us.us.us

load.end.1.endif.us.us.us:                        ; preds = %load.end.1.if.us.us.us, %load.end.1.us.us.us
  %.274.us.us.us = add nsw i64 %wi0.285.us.us.us, 1
  %.221.us.us.us = icmp slt i64 %.274.us.us.us, %.212
  br i1 %.221.us.us.us, label %wi0.body.2.us.us.us, label %wi0.end.2.us.us.us, !llvm.loop !30

wi0.head.3.preheader.us.us.us:                    ; preds = %wi0.end.2.us.us.us
  %.301.us.us.us = add i64 %wi1.189.us.us.us, %.300.us.us
  %.302.us.us.us = mul i64 %.301.us.us.us, %.1
  br label %wi0.body.3.us.us.us

wi1.head.1.wi1.end.1_crit_edge.split.us.us.us:    ; preds = %wi0.end.2.endif.us.us.us
  %.402.us.us = add nsw i64 %wi2.1127.us.us, 1
  %.214.us.us = icmp slt i64 %.402.us.us, %.44
  br i1 %.214.us.us, label %wi1.head.1.preheader.us.us, label %wi2.end.1

wi2.end.1:                                        ; preds = %wi1.head.1.wi1.end.1_crit_edge.split.us.us.us, %wi1.head.1.preheader.lr.ph.split.us, %wi1.head.1.preheader.lr.ph
  %.42124 = lshr i64 %step.group.0140, 1
  %.191.not = icmp eq i64 %.42124, 0
  br i1 %.191.not, label %wi1.head.2.preheader.lr.ph, label %gwhile.body.backedge

gwhile.body.backedge:                             ; preds = %wi2.end.1, %wi2.end.1.thread
  %step.group.0140.be = phi i64 [ %.42124, %wi2.end.1 ], [ %.42124266, %wi2.end.1.thread ]
  br label %gwhile.body

wi2.end.1.thread:                                 ; preds = %gwhile.body
  %.42124266 = lshr i64 %step.group.0140, 1
  %.191.not267 = icmp eq i64 %.42124266, 0
  br i1 %.191.not267, label %wi2.end.2, label %gwhile.body.backedge

wi2.end.2:                                        ; preds = %wi2.end.1.thread, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us, %wi1.head.2.preheader.lr.ph.split.us, %wi1.head.2.preheader.lr.ph
  %.540 = add nsw i64 %group234, 1
  %exitcond.not = icmp eq i64 %.540, %.15
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
  %errrec = alloca [18 x i64], align 8
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(144) %errrec, i8 0, i64 144, i1 false)
  call fastcc void @tree_sum.groups(i64 %.7, i64 %.9, i64 %.11, i64 %.13, i64 %.15, i64 %.17, i64 %.19, i64 %.21, ptr %.25, i64 %.27, ptr %.29, i64 %.31, i64 %.2, i64 %.3, ptr %errrec)
  %.35 = load i64, ptr %errrec, align 8
  %.37 = load i64, ptr %.4, align 8
  %.38 = icmp ne i64 %.35, 0
  %.39 = icmp eq i64 %.37, 0
  %.40 = and i1 %.38, %.39
  br i1 %.40, label %entry.if, label %entry.endif, !prof !5

entry.if:                                         ; preds = %entry
  %.fca.17.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 136
  %.fca.13.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 104
  %.fca.9.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 72
  %.fca.5.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 40
  %.fca.1.gep = getelementptr inbounds nuw i8, ptr %errrec, i64 8
  store i64 %.35, ptr %.4, align 8
  %.48 = getelementptr i8, ptr %.4, i64 8
  %0 = load <4 x i64>, ptr %.fca.1.gep, align 8
  store <4 x i64> %0, ptr %.48, align 8
  %.64 = getelementptr i8, ptr %.4, i64 40
  %1 = load <4 x i64>, ptr %.fca.5.gep, align 8
  store <4 x i64> %1, ptr %.64, align 8
  %.80 = getelementptr i8, ptr %.4, i64 72
  %2 = load <4 x i64>, ptr %.fca.9.gep, align 8
  store <4 x i64> %2, ptr %.80, align 8
  %.96 = getelementptr i8, ptr %.4, i64 104
  %3 = load <4 x i64>, ptr %.fca.13.gep, align 8
  store <4 x i64> %3, ptr %.96, align 8
  %.111 = load i64, ptr %.fca.17.gep, align 8
  %.112 = getelementptr i8, ptr %.4, i64 136
  store i64 %.111, ptr %.112, align 8
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
!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.peeled.count", i32 1}
!12 = !{!"branch_weights", i32 2126008812, i32 21474836}
!13 = !{!"branch_weights", i32 1, i32 199}
!14 = distinct !{!14, !11}
!15 = distinct !{!15, !11, !2, !1}
!16 = distinct !{!16, !11, !1, !2}
!17 = !{!"branch_weights", i32 4, i32 12}
!18 = distinct !{!18, !11, !1, !2}
!19 = distinct !{!19, !11, !1, !2}
!20 = !{!"branch_weights", i32 4, i32 28}
!21 = distinct !{!21, !11, !1, !2}
!22 = distinct !{!22, !11, !2, !1}
!23 = !{!24}
!24 = distinct !{!24, !25}
!25 = distinct !{!25, !"LVerDomain"}
!26 = !{!27}
!27 = distinct !{!27, !25}
!28 = distinct !{!28, !1, !2}
!29 = distinct !{!29, !1, !2}
!30 = distinct !{!30, !1}
