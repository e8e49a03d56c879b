; gpuoff codegen golden: optimised LLVM IR for x86-64-v3, LLVM 22.1.0 (llvmlite 0.50.0)
; ModuleID = '<string>'
source_filename = "<string>"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Function Attrs: nofree noinline norecurse nounwind memory(argmem: readwrite, inaccessiblemem: readwrite)
define internal fastcc void @histogram64.groups(i64 %.1, i64 %.2, i64 %.3, i64 %.4, i64 %.5, i64 %.6, i64 %.7, i64 %.8, ptr noalias readonly align 1 captures(none) %.10, i64 %.11, ptr noalias align 4 captures(none) %.12, i64 %.13, i64 %.14, i64 %.15, ptr noalias nonnull captures(none) %.16) unnamed_addr #0 {
allocas:
  %i.groups = alloca [64 x i64], align 8
  %masked.every = alloca [64 x i1], align 1
  %masked.alive = alloca [64 x i8], align 1
  %.22 = mul i64 %.5, %.4
  %.23 = mul i64 %.22, %.6
  %.25 = add i64 %.4, 4095
  %.26 = udiv i64 %.25, %.4
  %.27 = icmp ugt i64 %.4, -4096
  %.30 = add i64 %.23, 256
  %.31 = udiv i64 32768, %.30
  %.32 = icmp ugt i64 %.30, 32768
  %.33 = select i1 %.32, i64 1, i64 %.31
  %0 = tail call i64 @llvm.umin.i64(i64 %.26, i64 64)
  %.35 = select i1 %.27, i64 1, i64 %0
  %.37 = tail call i64 @llvm.umin.i64(i64 %.33, i64 %.35)
  %.38 = shl nuw nsw i64 %.37, 6
  %local = alloca i32, i64 %.38, align 64
  %.39 = mul i64 %.37, %.23
  %active.wi = alloca i8, i64 %.39, align 64
  %.41163 = icmp slt i64 %.14, %.15
  br i1 %.41163, label %batch.body.lr.ph, label %batch.end

batch.body.lr.ph:                                 ; preds = %allocas
  %.27723 = lshr i64 %.4, 6
  %.625 = tail call i64 @llvm.smin.i64(i64 %.4, i64 64)
  %.692 = getelementptr i8, ptr %.16, i64 136
  %.703 = getelementptr i8, ptr %.16, i64 8
  %.705 = getelementptr i8, ptr %.16, i64 72
  %1 = add nuw nsw i64 %.27723, 1
  %xtraiter2 = and i64 %1, 7
  %2 = icmp ult i64 %.4, 448
  %unroll_iter6 = and i64 %1, 576460752303423480
  %lcmp.mod4.not = icmp eq i64 %xtraiter2, 0
  %lcmp.mod5 = icmp ne i64 %xtraiter2, 0
  br label %batch.body

batch.body:                                       ; preds = %batch.body.lr.ph, %batch.group.end.1
  %batch.first164 = phi i64 [ %.14, %batch.body.lr.ph ], [ %.728, %batch.group.end.1 ]
  %.43 = urem i64 %batch.first164, %.7
  %.44 = udiv i64 %batch.first164, %.7
  %.45 = urem i64 %.44, %.8
  %.46 = udiv i64 %.44, %.8
  %.48 = mul nsw i64 %.45, %.5
  %.49 = mul nsw i64 %.46, %.6
  %.53 = add nsw i64 %.48, %.5
  %.55 = tail call i64 @llvm.smin.i64(i64 %.53, i64 %.2)
  %.56 = add nsw i64 %.49, %.6
  %.58 = tail call i64 @llvm.smin.i64(i64 %.56, i64 %.3)
  %.61 = sub i64 %.15, %batch.first164
  %.62 = sub i64 %.7, %.43
  %.64 = tail call i64 @llvm.smin.i64(i64 %.61, i64 %.37)
  %.66 = tail call i64 @llvm.smin.i64(i64 %.62, i64 %.64)
  %.6841 = icmp sgt i64 %.66, 0
  br i1 %.6841, label %batch.group.body.lr.ph, label %batch.group.end.1

batch.group.body.lr.ph:                           ; preds = %batch.body
  %.8029 = icmp slt i64 %.49, %.58
  %.8327 = icmp slt i64 %.48, %.55
  %brmerge.not212 = select i1 %.8029, i1 %.8327, i1 false
  br label %batch.group.body

batch.end:                                        ; preds = %batch.group.end.1, %allocas
  ret void

batch.group.body:                                 ; preds = %batch.group.body.lr.ph, %wi2.end.1
  %batch.group42 = phi i64 [ 0, %batch.group.body.lr.ph ], [ %.195, %wi2.end.1 ]
  %.70 = add i64 %batch.group42, %.43
  %.71 = mul i64 %.70, %.4
  %.72 = add i64 %.71, %.4
  %.74 = tail call i64 @llvm.smin.i64(i64 %.72, i64 %.1)
  %.78.idx = shl i64 %batch.group42, 8
  %.78 = getelementptr i8, ptr %local, i64 %.78.idx
  %.8725 = icmp slt i64 %.71, %.74
  %or.cond = select i1 %brmerge.not212, i1 %.8725, i1 false
  br i1 %or.cond, label %wi1.head.preheader.us.us.preheader, label %wi2.end.1

wi1.head.preheader.us.us.preheader:               ; preds = %batch.group.body
  %3 = add i64 %.43, %batch.group42
  %4 = mul i64 %.4, %3
  %5 = sub i64 %.74, %4
  %min.iters.check = icmp ult i64 %5, 8
  %n.vec = and i64 %5, -8
  %6 = add i64 %.71, %n.vec
  %7 = insertelement <8 x i64> <i64 0, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison, i64 poison>, i64 %.71, i64 1
  %8 = shufflevector <8 x i64> %7, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %cmp.n = icmp eq i64 %5, %n.vec
  br label %wi1.head.preheader.us.us

wi1.head.preheader.us.us:                         ; preds = %wi1.head.preheader.us.us.preheader, %wi1.head.wi1.end_crit_edge.split.us.us.us
  %wi230.us.us = phi i64 [ %.141.us.us, %wi1.head.wi1.end_crit_edge.split.us.us.us ], [ %.49, %wi1.head.preheader.us.us.preheader ]
  br label %wi0.head.preheader.us.us.us

wi0.head.preheader.us.us.us:                      ; preds = %wi0.head.wi0.end.endif_crit_edge.us.us.us, %wi1.head.preheader.us.us
  %wi128.us.us.us = phi i64 [ %.48, %wi1.head.preheader.us.us ], [ %.138.us.us.us, %wi0.head.wi0.end.endif_crit_edge.us.us.us ]
  br i1 %min.iters.check, label %wi0.body.us.us.us.preheader, label %vector.body

vector.body:                                      ; preds = %wi0.head.preheader.us.us.us, %vector.body
  %index = phi i64 [ %index.next, %vector.body ], [ 0, %wi0.head.preheader.us.us.us ]
  %offset.idx = add i64 %.71, %index
  %9 = insertelement <8 x i64> poison, i64 %index, i64 0
  %10 = insertelement <8 x i64> %9, i64 %offset.idx, i64 1
  %11 = shufflevector <8 x i64> %10, <8 x i64> poison, <8 x i32> <i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %12 = add <8 x i64> %11, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7>
  %13 = sub <8 x i64> %12, %8
  %14 = icmp slt <8 x i64> %13, splat (i64 64)
  %15 = getelementptr i32, ptr %.78, i64 %index
  call void @llvm.masked.store.v8i32.p0(<8 x i32> zeroinitializer, ptr align 32 %15, <8 x i1> %14)
  %index.next = add nuw i64 %index, 8
  %16 = icmp eq i64 %index.next, %n.vec
  br i1 %16, label %middle.block, label %vector.body, !llvm.loop !0

middle.block:                                     ; preds = %vector.body
  br i1 %cmp.n, label %wi0.head.wi0.end.endif_crit_edge.us.us.us, label %wi0.body.us.us.us.preheader

wi0.body.us.us.us.preheader:                      ; preds = %wi0.head.preheader.us.us.us, %middle.block
  %wi026.us.us.us.ph = phi i64 [ %.71, %wi0.head.preheader.us.us.us ], [ %6, %middle.block ]
  br label %wi0.body.us.us.us

wi0.body.us.us.us:                                ; preds = %wi0.body.us.us.us.preheader, %if.end.us.us.us
  %wi026.us.us.us = phi i64 [ %.108.us.us.us, %if.end.us.us.us ], [ %wi026.us.us.us.ph, %wi0.body.us.us.us.preheader ]
  %.95.us.us.us = sub nsw i64 %wi026.us.us.us, %.71
  %.101.us.us.us = icmp slt i64 %.95.us.us.us, 64
  br i1 %.101.us.us.us, label %if.then.us.us.us, label %if.end.us.us.us

if.then.us.us.us:                                 ; preds = %wi0.body.us.us.us
  %.104.us.us.us = getelementptr i32, ptr %.78, i64 %.95.us.us.us
  store i32 0, ptr %.104.us.us.us, align 4
  br label %if.end.us.us.us

if.end.us.us.us:                                  ; preds = %if.then.us.us.us, %wi0.body.us.us.us
  %.108.us.us.us = add nsw i64 %wi026.us.us.us, 1
  %.87.us.us.us = icmp slt i64 %.108.us.us.us, %.74
  br i1 %.87.us.us.us, label %wi0.body.us.us.us, label %wi0.head.wi0.end.endif_crit_edge.us.us.us, !llvm.loop !3

wi0.head.wi0.end.endif_crit_edge.us.us.us:        ; preds = %if.end.us.us.us, %middle.block
  %.138.us.us.us = add nsw i64 %wi128.us.us.us, 1
  %.83.us.us.us = icmp slt i64 %.138.us.us.us, %.55
  br i1 %.83.us.us.us, label %wi0.head.preheader.us.us.us, label %wi1.head.wi1.end_crit_edge.split.us.us.us

wi1.head.wi1.end_crit_edge.split.us.us.us:        ; preds = %wi0.head.wi0.end.endif_crit_edge.us.us.us
  %.141.us.us = add nsw i64 %wi230.us.us, 1
  %.80.us.us = icmp slt i64 %.141.us.us, %.58
  br i1 %.80.us.us, label %wi1.head.preheader.us.us, label %wi2.end.1

batch.group.end:                                  ; preds = %wi2.end.1
  %.197 = mul i64 %.66, %.4
  %.198 = udiv i64 8192, %.197
  %.199 = urem i64 8192, %.197
  %xtraiter = and i64 %.66, 3
  %17 = icmp ult i64 %.66, 4
  br i1 %17, label %mwhile.start.body.epil.preheader, label %batch.group.end.new

batch.group.end.new:                              ; preds = %batch.group.end
  %unroll_iter = and i64 %.66, 9223372036854775804
  br label %mwhile.start.body

wi2.end.1:                                        ; preds = %wi1.head.wi1.end_crit_edge.split.us.us.us, %batch.group.body
  %.195 = add nuw nsw i64 %batch.group42, 1
  %.68 = icmp slt i64 %.195, %.66
  br i1 %.68, label %batch.group.body, label %batch.group.end

mwhile.bhead.us.preheader.unr-lcssa:              ; preds = %mwhile.start.body
  %lcmp.mod.not = icmp eq i64 %xtraiter, 0
  br i1 %lcmp.mod.not, label %mwhile.bhead.us.preheader, label %mwhile.start.body.epil.preheader

mwhile.start.body.epil.preheader:                 ; preds = %mwhile.bhead.us.preheader.unr-lcssa, %batch.group.end
  %mwhile.start44.epil.init = phi i64 [ 0, %batch.group.end ], [ %.232.3, %mwhile.bhead.us.preheader.unr-lcssa ]
  %lcmp.mod1 = icmp ne i64 %xtraiter, 0
  tail call void @llvm.assume(i1 %lcmp.mod1)
  br label %mwhile.start.body.epil

mwhile.start.body.epil:                           ; preds = %mwhile.start.body.epil, %mwhile.start.body.epil.preheader
  %mwhile.start44.epil = phi i64 [ %.232.epil, %mwhile.start.body.epil ], [ %mwhile.start44.epil.init, %mwhile.start.body.epil.preheader ]
  %epil.iter = phi i64 [ %epil.iter.next, %mwhile.start.body.epil ], [ 0, %mwhile.start.body.epil.preheader ]
  %.203.epil = add nsw i64 %mwhile.start44.epil, %.43
  %.204.epil = mul nsw i64 %.203.epil, %.4
  %.208.epil = mul nsw i64 %mwhile.start44.epil, %.23
  %.209.epil = getelementptr i8, ptr %active.wi, i64 %.208.epil
  %.212.epil = getelementptr i64, ptr %i.groups, i64 %mwhile.start44.epil
  %.213.epil = getelementptr i1, ptr %masked.every, i64 %mwhile.start44.epil
  store i64 %.204.epil, ptr %.212.epil, align 8
  call void @llvm.memset.p0.i64(ptr align 1 %.209.epil, i8 1, i64 %.23, i1 false)
  store i1 true, ptr %.213.epil, align 1
  %.229.epil = getelementptr i8, ptr %masked.alive, i64 %mwhile.start44.epil
  store i8 1, ptr %.229.epil, align 1
  %.232.epil = add nuw nsw i64 %mwhile.start44.epil, 1
  %epil.iter.next = add i64 %epil.iter, 1
  %epil.iter.cmp.not = icmp eq i64 %epil.iter.next, %xtraiter
  br i1 %epil.iter.cmp.not, label %mwhile.bhead.us.preheader, label %mwhile.start.body.epil, !llvm.loop !4

mwhile.bhead.us.preheader:                        ; preds = %mwhile.start.body.epil, %mwhile.bhead.us.preheader.unr-lcssa
  %.273 = sub i64 %.1, %.197
  %.42953 = icmp sge i64 %.49, %.58
  %.43249 = icmp sge i64 %.48, %.55
  %18 = add i64 %.49, %.45
  %brmerge203 = select i1 %.42953, i1 true, i1 %.43249
  %brmerge207 = select i1 %.42953, i1 true, i1 %.43249
  br label %mwhile.group.body.us

mwhile.group.body.us:                             ; preds = %mwhile.group.body.us.backedge, %mwhile.bhead.us.preheader
  %mwhile.group86.us = phi i64 [ 0, %mwhile.bhead.us.preheader ], [ %mwhile.group86.us.be, %mwhile.group.body.us.backedge ]
  %masked.some.085.us = phi i8 [ 0, %mwhile.bhead.us.preheader ], [ %masked.some.085.us.be, %mwhile.group.body.us.backedge ]
  %.239.us = getelementptr i8, ptr %masked.alive, i64 %mwhile.group86.us
  %.240.us = load i8, ptr %.239.us, align 1
  %.241.not.us = icmp eq i8 %.240.us, 0
  br i1 %.241.not.us, label %mwhile.group.latch.us, label %mwhile.live.us

mwhile.live.us:                                   ; preds = %mwhile.group.body.us
  %.252.us = getelementptr i64, ptr %i.groups, i64 %mwhile.group86.us
  %.255.us = load i64, ptr %.252.us, align 8
  %.267.us = mul i64 %mwhile.group86.us, %.4
  %.268.us = add i64 %.267.us, %.199
  %.269.us = icmp uge i64 %.268.us, %.197
  %.270.us = zext i1 %.269.us to i64
  %.271.us = add nuw nsw i64 %.198, %.270.us
  %.274.us = mul i64 %.271.us, %.273
  %19 = getelementptr i8, ptr %.10, i64 %.255.us
  %20 = getelementptr i8, ptr %19, i64 8192
  %.276.us = getelementptr i8, ptr %20, i64 %.274.us
  br i1 %2, label %prefetch.body.us.epil.preheader, label %prefetch.body.us

prefetch.body.us:                                 ; preds = %mwhile.live.us, %prefetch.body.us
  %prefetch45.us = phi i64 [ %.286.us.7, %prefetch.body.us ], [ 0, %mwhile.live.us ]
  %niter7 = phi i64 [ %niter7.next.7, %prefetch.body.us ], [ 0, %mwhile.live.us ]
  %.282.us = shl i64 %prefetch45.us, 6
  %.283.us = getelementptr i8, ptr %.276.us, i64 %.282.us
  tail call void @llvm.prefetch.p0(ptr %.283.us, i32 0, i32 3, i32 1)
  %.286.us = shl i64 %prefetch45.us, 6
  %21 = getelementptr i8, ptr %.276.us, i64 %.286.us
  %.283.us.1 = getelementptr i8, ptr %21, i64 64
  tail call void @llvm.prefetch.p0(ptr %.283.us.1, i32 0, i32 3, i32 1)
  %.286.us.1 = shl i64 %prefetch45.us, 6
  %22 = getelementptr i8, ptr %.276.us, i64 %.286.us.1
  %.283.us.2 = getelementptr i8, ptr %22, i64 128
  tail call void @llvm.prefetch.p0(ptr %.283.us.2, i32 0, i32 3, i32 1)
  %.286.us.2 = shl i64 %prefetch45.us, 6
  %23 = getelementptr i8, ptr %.276.us, i64 %.286.us.2
  %.283.us.3 = getelementptr i8, ptr %23, i64 192
  tail call void @llvm.prefetch.p0(ptr %.283.us.3, i32 0, i32 3, i32 1)
  %.286.us.3 = shl i64 %prefetch45.us, 6
  %24 = getelementptr i8, ptr %.276.us, i64 %.286.us.3
  %.283.us.4 = getelementptr i8, ptr %24, i64 256
  tail call void @llvm.prefetch.p0(ptr %.283.us.4, i32 0, i32 3, i32 1)
  %.286.us.4 = shl i64 %prefetch45.us, 6
  %25 = getelementptr i8, ptr %.276.us, i64 %.286.us.4
  %.283.us.5 = getelementptr i8, ptr %25, i64 320
  tail call void @llvm.prefetch.p0(ptr %.283.us.5, i32 0, i32 3, i32 1)
  %.286.us.5 = shl i64 %prefetch45.us, 6
  %26 = getelementptr i8, ptr %.276.us, i64 %.286.us.5
  %.283.us.6 = getelementptr i8, ptr %26, i64 384
  tail call void @llvm.prefetch.p0(ptr %.283.us.6, i32 0, i32 3, i32 1)
  %.286.us.6 = shl i64 %prefetch45.us, 6
  %27 = getelementptr i8, ptr %.276.us, i64 %.286.us.6
  %.283.us.7 = getelementptr i8, ptr %27, i64 448
  tail call void @llvm.prefetch.p0(ptr %.283.us.7, i32 0, i32 3, i32 1)
  %.286.us.7 = add nuw nsw i64 %prefetch45.us, 8
  %niter7.next.7 = add i64 %niter7, 8
  %niter7.ncmp.7 = icmp eq i64 %niter7.next.7, %unroll_iter6
  br i1 %niter7.ncmp.7, label %prefetch.end.us.unr-lcssa, label %prefetch.body.us

prefetch.end.us.unr-lcssa:                        ; preds = %prefetch.body.us
  br i1 %lcmp.mod4.not, label %prefetch.end.us, label %prefetch.body.us.epil.preheader

prefetch.body.us.epil.preheader:                  ; preds = %prefetch.end.us.unr-lcssa, %mwhile.live.us
  %prefetch45.us.epil.init = phi i64 [ 0, %mwhile.live.us ], [ %.286.us.7, %prefetch.end.us.unr-lcssa ]
  tail call void @llvm.assume(i1 %lcmp.mod5)
  br label %prefetch.body.us.epil

prefetch.body.us.epil:                            ; preds = %prefetch.body.us.epil, %prefetch.body.us.epil.preheader
  %prefetch45.us.epil = phi i64 [ %prefetch45.us.epil.init, %prefetch.body.us.epil.preheader ], [ %.286.us.epil, %prefetch.body.us.epil ]
  %epil.iter3 = phi i64 [ 0, %prefetch.body.us.epil.preheader ], [ %epil.iter3.next, %prefetch.body.us.epil ]
  %.282.us.epil = shl i64 %prefetch45.us.epil, 6
  %.283.us.epil = getelementptr i8, ptr %.276.us, i64 %.282.us.epil
  tail call void @llvm.prefetch.p0(ptr %.283.us.epil, i32 0, i32 3, i32 1)
  %.286.us.epil = add nuw nsw i64 %prefetch45.us.epil, 1
  %epil.iter3.next = add i64 %epil.iter3, 1
  %epil.iter3.cmp.not = icmp eq i64 %epil.iter3.next, %xtraiter2
  br i1 %epil.iter3.cmp.not, label %prefetch.end.us, label %prefetch.body.us.epil, !llvm.loop !6

prefetch.end.us:                                  ; preds = %prefetch.body.us.epil, %prefetch.end.us.unr-lcssa
  %.243.us = add nsw i64 %mwhile.group86.us, %.43
  %.244.us = mul nsw i64 %.243.us, %.4
  %.245.us = add nsw i64 %.244.us, %.4
  %.247.us = tail call i64 @llvm.smin.i64(i64 %.245.us, i64 %.1)
  %.248.us = mul nsw i64 %mwhile.group86.us, %.23
  %.249.us = getelementptr i8, ptr %active.wi, i64 %.248.us
  %.251.idx.us = shl i64 %mwhile.group86.us, 8
  %.251.us = getelementptr i8, ptr %local, i64 %.251.idx.us
  %.253.us = getelementptr i1, ptr %masked.every, i64 %mwhile.group86.us
  %28 = xor i64 %.244.us, -1
  %.300.us = add i64 %.247.us, %28
  %.301.us = add i64 %.300.us, %.255.us
  %.304.us = icmp slt i64 %.301.us, %.11
  %.305.us = icmp sge i64 %.301.us, %.255.us
  %.306.us = and i1 %.304.us, %.305.us
  %.307.us = load i1, ptr %.253.us, align 1
  %.308.us = and i1 %.306.us, %.307.us
  br i1 %.308.us, label %wi2.head.2.preheader.us, label %mwhile.slow.us

mwhile.slow.us:                                   ; preds = %prefetch.end.us
  store i1 false, ptr %.253.us, align 1
  %.43646.us = icmp sge i64 %.244.us, %.247.us
  %or.cond204.not = or i1 %.43646.us, %brmerge203
  br i1 %or.cond204.not, label %mwhile.latch.us.thread, label %wi1.head.3.preheader.us.us.us

mwhile.latch.us.thread:                           ; preds = %wi2.head.2.preheader.us, %mwhile.slow.us
  store i8 0, ptr %.239.us, align 1
  br label %mwhile.group.latch.us

mwhile.latch.us:                                  ; preds = %wi1.head.3.wi1.end.3_crit_edge.split.us.us.us.us
  store i8 %.463.us.us.us.us, ptr %.239.us, align 1
  %.576.us = or i8 %.463.us.us.us.us, %masked.some.085.us
  %.578.not.us = icmp eq i8 %.463.us.us.us.us, 0
  br i1 %.578.not.us, label %mwhile.group.latch.us, label %mwhile.latch.if.us

mwhile.latch.if.us:                               ; preds = %mwhile.latch.us.thread196, %mwhile.latch.us
  %.576.us200 = phi i8 [ %.576.us198, %mwhile.latch.us.thread196 ], [ %.576.us, %mwhile.latch.us ]
  %.591.us = add i64 %.255.us, %.1
  store i64 %.591.us, ptr %.252.us, align 8
  br label %mwhile.group.latch.us

mwhile.group.latch.us:                            ; preds = %mwhile.latch.us.thread, %mwhile.latch.if.us, %mwhile.latch.us, %mwhile.group.body.us
  %masked.some.1.us = phi i8 [ %.576.us200, %mwhile.latch.if.us ], [ %.576.us, %mwhile.latch.us ], [ %masked.some.085.us, %mwhile.group.body.us ], [ %masked.some.085.us, %mwhile.latch.us.thread ]
  %.595.us = add nuw nsw i64 %mwhile.group86.us, 1
  %.237.us = icmp slt i64 %.595.us, %.66
  br i1 %.237.us, label %mwhile.group.body.us.backedge, label %mwhile.group.head.mwhile.group.end_crit_edge.us

mwhile.group.body.us.backedge:                    ; preds = %mwhile.group.latch.us, %mwhile.group.head.mwhile.group.end_crit_edge.us
  %mwhile.group86.us.be = phi i64 [ %.595.us, %mwhile.group.latch.us ], [ 0, %mwhile.group.head.mwhile.group.end_crit_edge.us ]
  %masked.some.085.us.be = phi i8 [ %masked.some.1.us, %mwhile.group.latch.us ], [ 0, %mwhile.group.head.mwhile.group.end_crit_edge.us ]
  br label %mwhile.group.body.us

wi2.head.2.preheader.us:                          ; preds = %prefetch.end.us
  %.31864.us = icmp sge i64 %.244.us, %.247.us
  %or.cond208.not = or i1 %.31864.us, %brmerge207
  br i1 %or.cond208.not, label %mwhile.latch.us.thread, label %wi1.head.2.preheader.us.us.us

wi1.head.3.preheader.us.us.us:                    ; preds = %mwhile.slow.us, %wi1.head.3.wi1.end.3_crit_edge.split.us.us.us.us
  %wi2.355.us.us.us = phi i64 [ %.570.us.us.us, %wi1.head.3.wi1.end.3_crit_edge.split.us.us.us.us ], [ %.49, %mwhile.slow.us ]
  %masked.ran.154.us.us.us = phi i8 [ %.463.us.us.us.us, %wi1.head.3.wi1.end.3_crit_edge.split.us.us.us.us ], [ 0, %mwhile.slow.us ]
  %.442.us.us.us165 = sub i64 %wi2.355.us.us.us, %18
  %.441.us.us.us = mul i64 %.442.us.us.us165, %.5
  br label %wi0.head.6.preheader.us.us.us.us

wi0.head.6.preheader.us.us.us.us:                 ; preds = %wi0.head.6.wi0.end.6.endif_crit_edge.us.us.us.us, %wi1.head.3.preheader.us.us.us
  %wi1.351.us.us.us.us = phi i64 [ %.48, %wi1.head.3.preheader.us.us.us ], [ %.567.us.us.us.us, %wi0.head.6.wi0.end.6.endif_crit_edge.us.us.us.us ]
  %masked.ran.750.us.us.us.us = phi i8 [ %masked.ran.154.us.us.us, %wi1.head.3.preheader.us.us.us ], [ %.463.us.us.us.us, %wi0.head.6.wi0.end.6.endif_crit_edge.us.us.us.us ]
  %.443.us.us.us.us = add i64 %.441.us.us.us, %wi1.351.us.us.us.us
  %.445.us.us.us.us = mul i64 %.443.us.us.us.us, %.4
  %29 = getelementptr i8, ptr %.249.us, i64 %.445.us.us.us.us
  br label %wi0.body.6.us.us.us.us

wi0.body.6.us.us.us.us:                           ; preds = %mwhile.next.us.us.us.us, %wi0.head.6.preheader.us.us.us.us
  %wi0.648.us.us.us.us = phi i64 [ %.244.us, %wi0.head.6.preheader.us.us.us.us ], [ %.489.us.us.us.us, %mwhile.next.us.us.us.us ]
  %masked.ran.847.us.us.us.us = phi i8 [ %masked.ran.750.us.us.us.us, %wi0.head.6.preheader.us.us.us.us ], [ %.463.us.us.us.us, %mwhile.next.us.us.us.us ]
  %.444.us.us.us.us = sub nsw i64 %wi0.648.us.us.us.us, %.244.us
  %.450.us.us.us.us = add i64 %.444.us.us.us.us, %.255.us
  %.452.us.us.us.us = getelementptr i8, ptr %29, i64 %.444.us.us.us.us
  %.453.us.us.us.us = load i8, ptr %.452.us.us.us.us, align 1
  %.454.us.us.us.us = icmp ne i8 %.453.us.us.us.us, 0
  %.457.us.us.us.us = icmp slt i64 %.450.us.us.us.us, %.11
  %.459.us.us.us.us = select i1 %.454.us.us.us.us, i1 %.457.us.us.us.us, i1 false
  %.460.us.us.us.us = zext i1 %.459.us.us.us.us to i8
  store i8 %.460.us.us.us.us, ptr %.452.us.us.us.us, align 1
  %.463.us.us.us.us = or i8 %masked.ran.847.us.us.us.us, %.460.us.us.us.us
  br i1 %.459.us.us.us.us, label %atomic.ok.1.us.us.us.us, label %mwhile.next.us.us.us.us

atomic.ok.1.us.us.us.us:                          ; preds = %wi0.body.6.us.us.us.us
  %.467.us.us.us.us = getelementptr i8, ptr %.10, i64 %.450.us.us.us.us
  %.468.us.us.us.us = load i8, ptr %.467.us.us.us.us, align 1
  %.471.us.us.us.us = and i8 %.468.us.us.us.us, 63
  %.473.us.us.us.us = zext nneg i8 %.471.us.us.us.us to i64
  %.480.us.us.us.us = getelementptr i32, ptr %.251.us, i64 %.473.us.us.us.us
  %.482.us.us.us.us = load i32, ptr %.480.us.us.us.us, align 4
  %.483.us.us.us.us = add i32 %.482.us.us.us.us, 1
  store i32 %.483.us.us.us.us, ptr %.480.us.us.us.us, align 4
  br label %mwhile.next.us.us.us.us

mwhile.next.us.us.us.us:                          ; preds = %atomic.ok.1.us.us.us.us, %wi0.body.6.us.us.us.us
  %.489.us.us.us.us = add nsw i64 %wi0.648.us.us.us.us, 1
  %.436.us.us.us.us = icmp slt i64 %.489.us.us.us.us, %.247.us
  br i1 %.436.us.us.us.us, label %wi0.body.6.us.us.us.us, label %wi0.head.6.wi0.end.6.endif_crit_edge.us.us.us.us

wi0.head.6.wi0.end.6.endif_crit_edge.us.us.us.us: ; preds = %mwhile.next.us.us.us.us
  %.567.us.us.us.us = add nsw i64 %wi1.351.us.us.us.us, 1
  %.432.us.us.us.us = icmp slt i64 %.567.us.us.us.us, %.55
  br i1 %.432.us.us.us.us, label %wi0.head.6.preheader.us.us.us.us, label %wi1.head.3.wi1.end.3_crit_edge.split.us.us.us.us

wi1.head.3.wi1.end.3_crit_edge.split.us.us.us.us: ; preds = %wi0.head.6.wi0.end.6.endif_crit_edge.us.us.us.us
  %.570.us.us.us = add nsw i64 %wi2.355.us.us.us, 1
  %.429.us.us.us = icmp slt i64 %.570.us.us.us, %.58
  br i1 %.429.us.us.us, label %wi1.head.3.preheader.us.us.us, label %mwhile.latch.us

wi1.head.2.preheader.us.us.us:                    ; preds = %wi2.head.2.preheader.us, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.us
  %wi2.274.us.us.us = phi i64 [ %.424.us.us.us, %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.us ], [ %.49, %wi2.head.2.preheader.us ]
  br label %wi0.head.4.preheader.us.us.us.us

wi0.head.4.preheader.us.us.us.us:                 ; preds = %wi0.head.4.wi0.end.4.endif_crit_edge.us.us.us.us, %wi1.head.2.preheader.us.us.us
  %wi1.269.us.us.us.us = phi i64 [ %.48, %wi1.head.2.preheader.us.us.us ], [ %.421.us.us.us.us, %wi0.head.4.wi0.end.4.endif_crit_edge.us.us.us.us ]
  br label %atomic.ok.us.us.us.us

atomic.ok.us.us.us.us:                            ; preds = %atomic.ok.us.us.us.us, %wi0.head.4.preheader.us.us.us.us
  %wi0.465.us.us.us.us = phi i64 [ %.244.us, %wi0.head.4.preheader.us.us.us.us ], [ %.357.us.us.us.us, %atomic.ok.us.us.us.us ]
  %.326.us.us.us.us = sub nsw i64 %wi0.465.us.us.us.us, %.244.us
  %.336.us.us.us.us = getelementptr i8, ptr %19, i64 %.326.us.us.us.us
  %.337.us.us.us.us = load i8, ptr %.336.us.us.us.us, align 1
  %.340.us.us.us.us = and i8 %.337.us.us.us.us, 63
  %.342.us.us.us.us = zext nneg i8 %.340.us.us.us.us to i64
  %.349.us.us.us.us = getelementptr i32, ptr %.251.us, i64 %.342.us.us.us.us
  %.351.us.us.us.us = load i32, ptr %.349.us.us.us.us, align 4
  %.352.us.us.us.us = add i32 %.351.us.us.us.us, 1
  store i32 %.352.us.us.us.us, ptr %.349.us.us.us.us, align 4
  %.357.us.us.us.us = add nsw i64 %wi0.465.us.us.us.us, 1
  %.318.us.us.us.us = icmp slt i64 %.357.us.us.us.us, %.247.us
  br i1 %.318.us.us.us.us, label %atomic.ok.us.us.us.us, label %wi0.head.4.wi0.end.4.endif_crit_edge.us.us.us.us

wi0.head.4.wi0.end.4.endif_crit_edge.us.us.us.us: ; preds = %atomic.ok.us.us.us.us
  %.421.us.us.us.us = add nsw i64 %wi1.269.us.us.us.us, 1
  %.314.us.us.us.us = icmp slt i64 %.421.us.us.us.us, %.55
  br i1 %.314.us.us.us.us, label %wi0.head.4.preheader.us.us.us.us, label %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.us

wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.us: ; preds = %wi0.head.4.wi0.end.4.endif_crit_edge.us.us.us.us
  %.424.us.us.us = add nsw i64 %wi2.274.us.us.us, 1
  %.311.us.us.us = icmp slt i64 %.424.us.us.us, %.58
  br i1 %.311.us.us.us, label %wi1.head.2.preheader.us.us.us, label %mwhile.latch.us.thread196

mwhile.latch.us.thread196:                        ; preds = %wi1.head.2.wi1.end.2_crit_edge.split.us.us.us.us
  store i8 1, ptr %.239.us, align 1
  %.576.us198 = or i8 %masked.some.085.us, 1
  br label %mwhile.latch.if.us

mwhile.group.head.mwhile.group.end_crit_edge.us:  ; preds = %mwhile.group.latch.us
  %.598.not.us = icmp eq i8 %masked.some.1.us, 0
  br i1 %.598.not.us, label %batch.group.body.1.preheader, label %mwhile.group.body.us.backedge

batch.group.body.1.preheader:                     ; preds = %mwhile.group.head.mwhile.group.end_crit_edge.us
  %brmerge211 = select i1 %.42953, i1 true, i1 %.43249
  br label %batch.group.body.1

mwhile.start.body:                                ; preds = %mwhile.start.body, %batch.group.end.new
  %mwhile.start44 = phi i64 [ 0, %batch.group.end.new ], [ %.232.3, %mwhile.start.body ]
  %niter = phi i64 [ 0, %batch.group.end.new ], [ %niter.next.3, %mwhile.start.body ]
  %.203 = add nsw i64 %mwhile.start44, %.43
  %.204 = mul nsw i64 %.203, %.4
  %.208 = mul nsw i64 %mwhile.start44, %.23
  %.209 = getelementptr i8, ptr %active.wi, i64 %.208
  %.212 = getelementptr i64, ptr %i.groups, i64 %mwhile.start44
  %.213 = getelementptr i1, ptr %masked.every, i64 %mwhile.start44
  store i64 %.204, ptr %.212, align 8
  call void @llvm.memset.p0.i64(ptr align 4 %.209, i8 1, i64 %.23, i1 false)
  store i1 true, ptr %.213, align 1
  %.229 = getelementptr i8, ptr %masked.alive, i64 %mwhile.start44
  store i8 1, ptr %.229, align 1
  %.232 = or disjoint i64 %mwhile.start44, 1
  %.203.1 = add nsw i64 %.232, %.43
  %.204.1 = mul nsw i64 %.203.1, %.4
  %.208.1 = mul nsw i64 %.232, %.23
  %.209.1 = getelementptr i8, ptr %active.wi, i64 %.208.1
  %.212.1 = getelementptr i64, ptr %i.groups, i64 %.232
  %.213.1 = getelementptr i1, ptr %masked.every, i64 %.232
  store i64 %.204.1, ptr %.212.1, align 8
  call void @llvm.memset.p0.i64(ptr align 1 %.209.1, i8 1, i64 %.23, i1 false)
  store i1 true, ptr %.213.1, align 1
  %.229.1 = getelementptr i8, ptr %masked.alive, i64 %.232
  store i8 1, ptr %.229.1, align 1
  %.232.1 = or disjoint i64 %mwhile.start44, 2
  %.203.2 = add nsw i64 %.232.1, %.43
  %.204.2 = mul nsw i64 %.203.2, %.4
  %.208.2 = mul nsw i64 %.232.1, %.23
  %.209.2 = getelementptr i8, ptr %active.wi, i64 %.208.2
  %.212.2 = getelementptr i64, ptr %i.groups, i64 %.232.1
  %.213.2 = getelementptr i1, ptr %masked.every, i64 %.232.1
  store i64 %.204.2, ptr %.212.2, align 8
  call void @llvm.memset.p0.i64(ptr align 2 %.209.2, i8 1, i64 %.23, i1 false)
  store i1 true, ptr %.213.2, align 1
  %.229.2 = getelementptr i8, ptr %masked.alive, i64 %.232.1
  store i8 1, ptr %.229.2, align 1
  %.232.2 = or disjoint i64 %mwhile.start44, 3
  %.203.3 = add nsw i64 %.232.2, %.43
  %.204.3 = mul nsw i64 %.203.3, %.4
  %.208.3 = mul nsw i64 %.232.2, %.23
  %.209.3 = getelementptr i8, ptr %active.wi, i64 %.208.3
  %.212.3 = getelementptr i64, ptr %i.groups, i64 %.232.2
  %.213.3 = getelementptr i1, ptr %masked.every, i64 %.232.2
  store i64 %.204.3, ptr %.212.3, align 8
  call void @llvm.memset.p0.i64(ptr align 1 %.209.3, i8 1, i64 %.23, i1 false)
  store i1 true, ptr %.213.3, align 1
  %.229.3 = getelementptr i8, ptr %masked.alive, i64 %.232.2
  store i8 1, ptr %.229.3, align 1
  %.232.3 = add nuw nsw i64 %mwhile.start44, 4
  %niter.next.3 = add i64 %niter, 4
  %niter.ncmp.3.not = icmp eq i64 %niter.next.3, %unroll_iter
  br i1 %niter.ncmp.3.not, label %mwhile.bhead.us.preheader.unr-lcssa, label %mwhile.start.body

batch.group.body.1:                               ; preds = %batch.group.body.1.preheader, %wi2.end.4
  %batch.group.1162 = phi i64 [ %.726, %wi2.end.4 ], [ 0, %batch.group.body.1.preheader ]
  %.603 = add nsw i64 %batch.group.1162, %.43
  %.604 = mul nsw i64 %.603, %.4
  %.605 = add nsw i64 %.604, %.4
  %.607 = tail call i64 @llvm.smin.i64(i64 %.605, i64 %.1)
  %.611.idx = shl i64 %batch.group.1162, 8
  %.611 = getelementptr i8, ptr %local, i64 %.611.idx
  %.626 = add i64 %.604, %.625
  %.628 = tail call i64 @llvm.smin.i64(i64 %.626, i64 %.607)
  br i1 %brmerge211, label %wi2.end.4, label %wi1.head.4.preheader.lr.ph.split.us

wi1.head.4.preheader.lr.ph.split.us:              ; preds = %batch.group.body.1
  %.637111 = icmp slt i64 %.604, %.628
  %.671114.fr = freeze i1 %.637111
  br i1 %.671114.fr, label %wi1.head.4.preheader.us.us.us, label %wi2.end.4

wi1.head.4.preheader.us.us.us:                    ; preds = %wi1.head.4.preheader.lr.ph.split.us, %wi1.head.4.wi1.end.4_crit_edge.split.us.us.us.split.us.us
  %wi2.4148.us.us.us = phi i64 [ %.723.us.us.us, %wi1.head.4.wi1.end.4_crit_edge.split.us.us.us.split.us.us ], [ %.49, %wi1.head.4.preheader.lr.ph.split.us ]
  %.687.us.us.us = mul i64 %wi2.4148.us.us.us, %.2
  br label %wi0.head.8.preheader.us.us.us.us.us

wi0.head.8.preheader.us.us.us.us.us:              ; preds = %wi0.end.8.endif.us.us.us.us.us, %wi1.head.4.preheader.us.us.us
  %wi1.4117.us.us.us.us.us = phi i64 [ %.48, %wi1.head.4.preheader.us.us.us ], [ %.720.us.us.us.us.us, %wi0.end.8.endif.us.us.us.us.us ]
  br label %wi0.body.8.us.us.us.us.us

wi0.body.9.us.us.us.us.us:                        ; preds = %wi0.head.9.preheader.us.us.us.us.us, %wi0.body.9.endif.us.us.us.us.us
  %wi0.9115.us.us.us.us.us = phi i64 [ %.604, %wi0.head.9.preheader.us.us.us.us.us ], [ %.716.us.us.us.us.us, %wi0.body.9.endif.us.us.us.us.us ]
  %.679.us.us.us.us.us = sub nsw i64 %wi0.9115.us.us.us.us.us, %.604
  %.684.not.us.us.us.us.us = icmp ult i64 %.679.us.us.us.us.us, %.13
  br i1 %.684.not.us.us.us.us.us, label %wi0.body.9.endif.us.us.us.us.us, label %wi0.body.9.if.us.us.us.us.us, !prof !7

wi0.body.9.if.us.us.us.us.us:                     ; preds = %wi0.body.9.us.us.us.us.us
  %.690.us.us.us.us.us = add i64 %wi0.9115.us.us.us.us.us, %.689.us.us.us.us.us
  %.691.us.us.us.us.us = load i64, ptr %.16, align 8
  %.693.us.us.us.us.us = load i64, ptr %.692, align 8
  %.694.us.us.us.us.us = icmp eq i64 %.691.us.us.us.us.us, 0
  %.695.us.us.us.us.us = icmp ult i64 %.690.us.us.us.us.us, %.693.us.us.us.us.us
  %.696.us.us.us.us.us = icmp eq i64 %.690.us.us.us.us.us, %.693.us.us.us.us.us
  %.697.us.us.us.us.us = icmp ugt i64 %.691.us.us.us.us.us, 5
  %.698.us.us.us.us.us = and i1 %.697.us.us.us.us.us, %.696.us.us.us.us.us
  %.699.us.us.us.us.us = or i1 %.695.us.us.us.us.us, %.698.us.us.us.us.us
  %.700.us.us.us.us.us = or i1 %.694.us.us.us.us.us, %.699.us.us.us.us.us
  br i1 %.700.us.us.us.us.us, label %wi0.body.9.if.if.us.us.us.us.us, label %wi0.body.9.endif.us.us.us.us.us

wi0.body.9.if.if.us.us.us.us.us:                  ; preds = %wi0.body.9.if.us.us.us.us.us
  store i64 5, ptr %.16, align 8
  store i64 %.679.us.us.us.us.us, ptr %.703, align 8
  store i64 %.13, ptr %.705, align 8
  store i64 %.690.us.us.us.us.us, ptr %.692, align 8
  br label %wi0.body.9.endif.us.us.us.us.us

wi0.body.9.endif.us.us.us.us.us:                  ; preds = %wi0.body.9.if.if.us.us.us.us.us, %wi0.body.9.if.us.us.us.us.us, %wi0.body.9.us.us.us.us.us
  %.716.us.us.us.us.us = add nsw i64 %wi0.9115.us.us.us.us.us, 1
  %.671.us.us.us.us.us = icmp slt i64 %.716.us.us.us.us.us, %.628
  br i1 %.671.us.us.us.us.us, label %wi0.body.9.us.us.us.us.us, label %wi0.end.8.endif.us.us.us.us.us

wi0.end.8.endif.us.us.us.us.us:                   ; preds = %wi0.body.9.endif.us.us.us.us.us, %wi0.head.8.wi0.end.8_crit_edge.us.us.us.us.us
  %.720.us.us.us.us.us = add nsw i64 %wi1.4117.us.us.us.us.us, 1
  %.633.us.us.us.us.us = icmp slt i64 %.720.us.us.us.us.us, %.55
  br i1 %.633.us.us.us.us.us, label %wi0.head.8.preheader.us.us.us.us.us, label %wi1.head.4.wi1.end.4_crit_edge.split.us.us.us.split.us.us

wi0.body.8.us.us.us.us.us:                        ; preds = %atomic.end.2.us.us.us.us.us, %wi0.head.8.preheader.us.us.us.us.us
  %wi0.8113.us.us.us.us.us = phi i64 [ %.604, %wi0.head.8.preheader.us.us.us.us.us ], [ %.665.us.us.us.us.us, %atomic.end.2.us.us.us.us.us ]
  %row.bad.3112.us.us.us.us.us = phi i32 [ 0, %wi0.head.8.preheader.us.us.us.us.us ], [ %.654.us.us.us.us.us, %atomic.end.2.us.us.us.us.us ]
  %.645.us.us.us.us.us = sub nsw i64 %wi0.8113.us.us.us.us.us, %.604
  %.650.us.us.us.us.us = icmp uge i64 %.645.us.us.us.us.us, %.13
  %.653.us.us.us.us.us = zext i1 %.650.us.us.us.us.us to i32
  %.654.us.us.us.us.us = or i32 %row.bad.3112.us.us.us.us.us, %.653.us.us.us.us.us
  br i1 %.650.us.us.us.us.us, label %atomic.end.2.us.us.us.us.us, label %atomic.ok.2.us.us.us.us.us

atomic.ok.2.us.us.us.us.us:                       ; preds = %wi0.body.8.us.us.us.us.us
  %.658.us.us.us.us.us = getelementptr i32, ptr %.611, i64 %.645.us.us.us.us.us
  %.659.us.us.us.us.us = load i32, ptr %.658.us.us.us.us.us, align 4
  %.656.us.us.us.us.us = getelementptr i32, ptr %.12, i64 %.645.us.us.us.us.us
  %.661.us.us.us.us.us = atomicrmw add ptr %.656.us.us.us.us.us, i32 %.659.us.us.us.us.us monotonic, align 4
  br label %atomic.end.2.us.us.us.us.us

atomic.end.2.us.us.us.us.us:                      ; preds = %atomic.ok.2.us.us.us.us.us, %wi0.body.8.us.us.us.us.us
  %.665.us.us.us.us.us = add nsw i64 %wi0.8113.us.us.us.us.us, 1
  %.637.us.us.us.us.us = icmp slt i64 %.665.us.us.us.us.us, %.628
  br i1 %.637.us.us.us.us.us, label %wi0.body.8.us.us.us.us.us, label %wi0.head.8.wi0.end.8_crit_edge.us.us.us.us.us

wi0.head.9.preheader.us.us.us.us.us:              ; preds = %wi0.head.8.wi0.end.8_crit_edge.us.us.us.us.us
  %.688.us.us.us.us.us = add i64 %wi1.4117.us.us.us.us.us, %.687.us.us.us
  %.689.us.us.us.us.us = mul i64 %.688.us.us.us.us.us, %.1
  br label %wi0.body.9.us.us.us.us.us

wi0.head.8.wi0.end.8_crit_edge.us.us.us.us.us:    ; preds = %atomic.end.2.us.us.us.us.us
  %.668.not.us.us.us.us.us = icmp eq i32 %.654.us.us.us.us.us, 0
  br i1 %.668.not.us.us.us.us.us, label %wi0.end.8.endif.us.us.us.us.us, label %wi0.head.9.preheader.us.us.us.us.us, !prof !7

wi1.head.4.wi1.end.4_crit_edge.split.us.us.us.split.us.us: ; preds = %wi0.end.8.endif.us.us.us.us.us
  %.723.us.us.us = add nsw i64 %wi2.4148.us.us.us, 1
  %.630.us.us.us = icmp slt i64 %.723.us.us.us, %.58
  br i1 %.630.us.us.us, label %wi1.head.4.preheader.us.us.us, label %wi2.end.4

batch.group.end.1:                                ; preds = %wi2.end.4, %batch.body
  %.728 = add nsw i64 %.66, %batch.first164
  %.41 = icmp slt i64 %.728, %.15
  br i1 %.41, label %batch.body, label %batch.end

wi2.end.4:                                        ; preds = %wi1.head.4.wi1.end.4_crit_edge.split.us.us.us.split.us.us, %batch.group.body.1, %wi1.head.4.preheader.lr.ph.split.us
  %.726 = add nuw nsw i64 %batch.group.1162, 1
  %.601 = icmp slt i64 %.726, %.66
  br i1 %.601, label %batch.group.body.1, label %batch.group.end.1
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @llvm.prefetch.p0(ptr readonly captures(none), i32 immarg, i32 immarg, i32 immarg) #2

; Function Attrs: nofree norecurse nounwind memory(readwrite, target_mem0: none, target_mem1: none)
define void @histogram64__gpuoff_entry(ptr readonly captures(none) %.1, i64 %.2, i64 %.3, ptr captures(none) %.4) local_unnamed_addr #3 {
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
  call fastcc void @histogram64.groups(i64 %.7, i64 %.9, i64 %.11, i64 %.13, i64 %.15, i64 %.17, i64 %.19, i64 %.21, ptr %.25, i64 %.27, ptr %.29, i64 %.31, i64 %.2, i64 %.3, ptr %errrec)
  %.35 = load i64, ptr %errrec, align 8
  %.37 = load i64, ptr %.4, align 8
  %.38 = icmp ne i64 %.35, 0
  %.39 = icmp eq i64 %.37, 0
  %.40 = and i1 %.38, %.39
  br i1 %.40, label %entry.if, label %entry.endif, !prof !8

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
declare i64 @llvm.umin.i64(i64, i64) #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: write)
declare void @llvm.masked.store.v8i32.p0(<8 x i32>, ptr captures(none), <8 x i1>) #5

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #6

attributes #0 = { nofree noinline norecurse nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) }
attributes #1 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #2 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite, inaccessiblemem: readwrite) }
attributes #3 = { nofree norecurse nounwind memory(readwrite, target_mem0: none, target_mem1: none) }
attributes #4 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { nocallback nofree nosync nounwind willreturn memory(argmem: write) }
attributes #6 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }

!0 = distinct !{!0, !1, !2}
!1 = !{!"llvm.loop.isvectorized", i32 1}
!2 = !{!"llvm.loop.unroll.runtime.disable"}
!3 = distinct !{!3, !2, !1}
!4 = distinct !{!4, !5}
!5 = !{!"llvm.loop.unroll.disable"}
!6 = distinct !{!6, !5}
!7 = !{!"branch_weights", i32 99, i32 1}
!8 = !{!"branch_weights", i32 1, i32 99}
