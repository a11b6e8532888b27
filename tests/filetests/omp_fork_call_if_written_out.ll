; Decision: a parallel region with an `if` clause as flang starts it,
; `__kmpc_fork_call_if(loc, 1, microtask, cond, args)`, is written out in the clone as
; clang's shape (parallel/fork_if.rs): a branch on `cond != 0` between
; `__kmpc_fork_call` of the augmented microtask and a serialized call
; (`__kmpc_serialized_parallel`, the microtask called with thread-id slots,
; `__kmpc_end_serialized_parallel`); the reverse sweep takes the branch the forward
; sweep took: the reverse microtask forked, or called on this thread inside the mirrored
; pair (a team of one again: otherwise its mirrored barriers would belong to an enclosing
; team, a hang in tests/openmp/35_nested_serialized_if).
; Why it matters: libomp's __kmpc_fork_call_if hides the microtask from the sweeps (a
; missing-derivative error before); a derivative that always forked, or always ran
; serialized, would differ from the primal's team (tests/openmp/34 checks the numbers).
;
; subroutine scale_if(x, n)   ! flang-22 -fopenmp -O2
;   !$omp parallel do if(n > 100)
;   do i = 1, n
;     x(i) = x(i) * x(i)
;   end do
; end subroutine
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 22, ptr @0 }, align 8

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(...)

define void @grad(ptr %x, ptr %dx, ptr %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (...) @__enzyme_autodiff(ptr @scale_if_, i32 %d, ptr %x, ptr %dx, i32 %c, ptr %n)
  ret void
}

define void @scale_if_(ptr noalias captures(none) %0, ptr noalias captures(none) %1) local_unnamed_addr #0 {
entry:
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %.reloaded = alloca i64, align 8
  %2 = load i32, ptr %1, align 4, !tbaa !5
  %3 = tail call i32 @llvm.smax.i32(i32 %2, i32 0)
  %4 = zext nneg i32 %3 to i64
  %5 = icmp sgt i32 %2, 100
  %omp_global_thread_num = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1)
  store i64 %4, ptr %.reloaded, align 8
  store ptr %.reloaded, ptr %structArg, align 8
  %gep_ = getelementptr inbounds nuw i8, ptr %structArg, i64 8
  store ptr %1, ptr %gep_, align 8
  %gep_7 = getelementptr inbounds nuw i8, ptr %structArg, i64 16
  store ptr %0, ptr %gep_7, align 8
  %6 = sext i1 %5 to i32
  call void @__kmpc_fork_call_if(ptr nonnull @1, i32 1, ptr nonnull @scale_if_..omp_par, i32 %6, ptr nonnull %structArg)
  ret void
}

; Function Attrs: nounwind
define internal void @scale_if_..omp_par(ptr noalias readnone captures(none) %tid.addr, ptr noalias readnone captures(none) %zero.addr, ptr readonly captures(none) %0) #1 {
omp.par.entry:
  %gep_ = getelementptr i8, ptr %0, i64 8
  %loadgep_ = load ptr, ptr %gep_, align 8, !align !11
  %gep_1 = getelementptr i8, ptr %0, i64 16
  %loadgep_2 = load ptr, ptr %gep_1, align 8, !align !11
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %1 = load i32, ptr %loadgep_, align 4, !tbaa !5
  %omp_loop.tripcount = tail call i32 @llvm.smax.i32(i32 %1, i32 0)
  store i32 0, ptr %p.lowerbound, align 4
  %2 = add nsw i32 %omp_loop.tripcount, -1
  store i32 %2, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num6 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1)
  call void @__kmpc_for_static_init_4u(ptr nonnull @1, i32 %omp_global_thread_num6, i32 34, ptr nonnull %p.lastiter, ptr nonnull %p.lowerbound, ptr nonnull %p.upperbound, ptr nonnull %p.stride, i32 1, i32 0)
  %3 = load i32, ptr %p.lowerbound, align 4
  %4 = load i32, ptr %p.upperbound, align 4
  %reass.sub = sub i32 %4, %3
  %omp_loop.cmp3.not = icmp eq i32 %reass.sub, -1
  br i1 %omp_loop.cmp3.not, label %omp_loop.exit, label %omp_loop.body.lr.ph

omp_loop.body.lr.ph:                              ; preds = %omp.par.entry
  %5 = add i32 %3, 1
  %6 = add i32 %4, 1
  %7 = sub i32 %6, %3
  %min.iters.check = icmp ult i32 %7, 4
  %8 = add i32 %4, 1
  %9 = icmp slt i32 %8, %5
  %or.cond = or i1 %min.iters.check, %9
  br i1 %or.cond, label %omp_loop.body.preheader, label %vector.ph

vector.ph:                                        ; preds = %omp_loop.body.lr.ph
  %n.vec = and i32 %7, -4
  br label %vector.body

vector.body:                                      ; preds = %vector.body, %vector.ph
  %index = phi i32 [ 0, %vector.ph ], [ %index.next, %vector.body ]
  %10 = add i32 %5, %index
  %11 = sext i32 %10 to i64
  %12 = getelementptr double, ptr %loadgep_2, i64 %11
  %13 = getelementptr i8, ptr %12, i64 -8
  %14 = getelementptr i8, ptr %12, i64 8
  %wide.load = load <2 x double>, ptr %13, align 8, !tbaa !12
  %wide.load5 = load <2 x double>, ptr %14, align 8, !tbaa !12
  %15 = fmul contract <2 x double> %wide.load, %wide.load
  %16 = fmul contract <2 x double> %wide.load5, %wide.load5
  store <2 x double> %15, ptr %13, align 8, !tbaa !12
  store <2 x double> %16, ptr %14, align 8, !tbaa !12
  %index.next = add nuw i32 %index, 4
  %17 = icmp eq i32 %index.next, %n.vec
  br i1 %17, label %middle.block, label %vector.body, !llvm.loop !14

middle.block:                                     ; preds = %vector.body
  %cmp.n = icmp eq i32 %7, %n.vec
  br i1 %cmp.n, label %omp_loop.exit, label %omp_loop.body.preheader

omp_loop.body.preheader:                          ; preds = %omp_loop.body.lr.ph, %middle.block
  %omp_loop.iv4.ph = phi i32 [ 0, %omp_loop.body.lr.ph ], [ %n.vec, %middle.block ]
  br label %omp_loop.body

omp_loop.exit:                                    ; preds = %omp_loop.body, %middle.block, %omp.par.entry
  call void @__kmpc_for_static_fini(ptr nonnull @1, i32 %omp_global_thread_num6)
  call void @__kmpc_barrier(ptr nonnull @2, i32 %omp_global_thread_num6)
  ret void

omp_loop.body:                                    ; preds = %omp_loop.body.preheader, %omp_loop.body
  %omp_loop.iv4 = phi i32 [ %omp_loop.next, %omp_loop.body ], [ %omp_loop.iv4.ph, %omp_loop.body.preheader ]
  %18 = add i32 %5, %omp_loop.iv4
  %19 = sext i32 %18 to i64
  %20 = getelementptr double, ptr %loadgep_2, i64 %19
  %21 = getelementptr i8, ptr %20, i64 -8
  %22 = load double, ptr %21, align 8, !tbaa !12
  %23 = fmul contract double %22, %22
  store double %23, ptr %21, align 8, !tbaa !12
  %omp_loop.next = add nuw i32 %omp_loop.iv4, 1
  %exitcond.not = icmp eq i32 %omp_loop.iv4, %reass.sub
  br i1 %exitcond.not, label %omp_loop.exit, label %omp_loop.body, !llvm.loop !17
}

; Function Attrs: nounwind
declare i32 @__kmpc_global_thread_num(ptr) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4u(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #2

; Function Attrs: convergent nounwind
declare void @__kmpc_barrier(ptr, i32) local_unnamed_addr #3

declare !callback !18 void @__kmpc_fork_call_if(ptr, i32, ptr, i32, ptr) local_unnamed_addr

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #4

attributes #0 = { "target-cpu"="x86-64" }
attributes #1 = { nounwind "target-cpu"="x86-64" }
attributes #2 = { nounwind }
attributes #3 = { convergent nounwind }
attributes #4 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 7, !"openmp", i32 31}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{!"Debian flang version 22.1.8"}
!5 = !{!6, !6, i64 0}
!6 = !{!"dummy arg data/_QFscale_ifEn", !7, i64 0}
!7 = !{!"dummy arg data", !8, i64 0}
!8 = !{!"any data access", !9, i64 0}
!9 = !{!"any access", !10, i64 0}
!10 = !{!"Flang function root _QPscale_if"}
!11 = !{i64 1}
!12 = !{!13, !13, i64 0}
!13 = !{!"dummy arg data/_QFscale_ifEx", !7, i64 0}
!14 = distinct !{!14, !15, !16}
!15 = !{!"llvm.loop.isvectorized", i32 1}
!16 = !{!"llvm.loop.unroll.runtime.disable"}
!17 = distinct !{!17, !15}
!18 = !{!19}
!19 = !{i64 2, i64 -1, i64 -1, i1 true}

; CHECK-LABEL: define internal void @fz_grad_scale_if_(
; CHECK-NOT: @__kmpc_fork_call_if
; CHECK: [[C:%.*]] = icmp sgt i32 {{%.*}}, 100
; CHECK: br i1 [[C]], label %fz.forkif.fork, label %fz.forkif.serial
; CHECK: fz.forkif.fork:
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @1, i32 3, ptr @fz_omp_aug.scale_if_..omp_par,
; CHECK: fz.forkif.serial:
; CHECK: call void @__kmpc_serialized_parallel(
; CHECK-NEXT: call { ptr } @fz_aug_scale_if_..omp_par
; CHECK-NEXT: call void @__kmpc_end_serialized_parallel(
; CHECK: rev.fz.forkif.fork:
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @1, i32 3, ptr @fz_omp_rev.scale_if_..omp_par,
; CHECK: rev.fz.forkif.serial:
; CHECK-NEXT: [[G:%.*]] = call i32 @__kmpc_global_thread_num(
; CHECK-NEXT: call void @__kmpc_serialized_parallel(ptr @1, i32 [[G]])
; CHECK-NEXT: call void @fz_rev_scale_if_..omp_par
; CHECK-NEXT: [[G2:%.*]] = call i32 @__kmpc_global_thread_num(
; CHECK-NEXT: call void @__kmpc_end_serialized_parallel(ptr @1, i32 [[G2]])
; CHECK: select i1 [[C]], i32 0, i32 1
; CHECK-NEXT: switch i32
