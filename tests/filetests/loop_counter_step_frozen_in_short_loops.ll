; Decision: after the post-AD pipeline (`ferrozyme cc -O<n>`, `ferrozyme opt -O<n>`), in a
; generated loop that runs at most 16 times by a count known there, every integer
; recurrence of the loop's header with a constant step carries its next value through
; a `freeze` on the back edge, the loop's counter included, not only the tape record
; offset (tape_record_offset_step_frozen_in_short_loops; `record_freeze.rs`,
; `freeze_step`). Here `fixed` is differentiated with n = 12: its augmented forward's
; counter phi takes `freeze (i + 1)` from the latch, while the exit test still compares
; `i + 1` with 12; `free_n`, differentiated with a run-time n, keeps its recurrences as
; they were.
; Why it matters: with the counter visible, code generation's loop strength reduction
; still searched formulae for each such loop: 158M instructions on the generated
; functions of bench/compile_scaling's `chain` n = 80 (`llc-22 -O2` under callgrind on
; them: 1,143.9M, with `-disable-lsr` 985.4M, with the counters frozen 994.7M and the
; same machine code as with `-disable-lsr`). `freeze x` refines `x`: the derivative is
; unchanged (compile_scaling's own gradient checks, tests/c/665).
;
; The program: the one of tape_record_address_frozen_in_short_loops.ll.
; (clang-22 -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

; CHECK-LABEL: define internal {{.*}}void @fz_aug_fixed.nest(
; CHECK: %{{[a-zA-Z0-9._]+}} = phi i64 [ 0, %{{[a-zA-Z0-9._]+}} ], [ %{{[a-zA-Z0-9._]+}}, %{{[a-zA-Z0-9._]+}} ]
; CHECK-NEXT: %[[I:[a-zA-Z0-9._]+]] = phi i64 [ 0, %{{[a-zA-Z0-9._]+}} ], [ %[[IFR:[a-zA-Z0-9._]+]], %{{[a-zA-Z0-9._]+}} ]
; CHECK: %[[INEXT:[a-zA-Z0-9._]+]] = add nuw nsw i64 %[[I]], 1
; CHECK-NEXT: %[[IFR]] = freeze i64 %[[INEXT]]
; CHECK-NEXT: icmp eq i64 %[[INEXT]], 12
; CHECK-LABEL: define internal {{.*}}void @fz_aug_free_n.nest(
; CHECK-NOT: freeze
; CHECK-LABEL: define internal {{.*}}void @fz_rev_free_n.nest(
; CHECK-NOT: freeze
; CHECK: ret void

; ModuleID = 'rf.c'
source_filename = "rf.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree noinline norecurse nounwind memory(argmem: readwrite, errnomem: write) uwtable
define dso_local double @fixed(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %5, label %7

5:                                                ; preds = %3
  %6 = zext nneg i32 %2 to i64
  br label %9

7:                                                ; preds = %42, %3
  %8 = phi double [ 0.000000e+00, %3 ], [ %43, %42 ]
  ret double %8

9:                                                ; preds = %5, %42
  %10 = phi i64 [ 0, %5 ], [ %44, %42 ]
  %11 = phi double [ 0.000000e+00, %5 ], [ %43, %42 ]
  %12 = getelementptr inbounds nuw double, ptr %0, i64 %10
  %13 = load double, ptr %12, align 8, !tbaa !9
  %14 = fmul double %11, 1.000000e-02
  %15 = tail call double @llvm.fmuladd.f64(double %13, double 0x3FE6666666666666, double %14)
  %16 = fcmp ogt double %15, 5.000000e-01
  br i1 %16, label %17, label %29

17:                                               ; preds = %9
  %18 = tail call double @sin(double noundef %15) #6, !tbaa !5
  %19 = fmul double %18, 1.000000e-02
  %20 = fmul double %11, %15
  %21 = tail call double @cos(double noundef %20) #6, !tbaa !5
  %22 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %23 = load double, ptr %22, align 8, !tbaa !9
  %24 = fmul double %15, %23
  %25 = tail call double @tanh(double noundef %24) #6, !tbaa !5
  %26 = fmul double %25, 2.000000e-02
  %27 = tail call double @llvm.fmuladd.f64(double %19, double %21, double %26)
  %28 = fadd double %23, %27
  store double %28, ptr %22, align 8, !tbaa !9
  br label %42

29:                                               ; preds = %9
  %30 = fneg double %15
  %31 = fmul double %15, %30
  %32 = tail call double @exp(double noundef %31) #6, !tbaa !5
  %33 = fmul double %32, 1.000000e-02
  %34 = tail call double @llvm.fmuladd.f64(double %15, double %15, double 1.000000e+00)
  %35 = tail call double @log(double noundef %34) #6, !tbaa !5
  %36 = tail call double @atan(double noundef %11) #6, !tbaa !5
  %37 = fmul double %36, 3.000000e-02
  %38 = tail call double @llvm.fmuladd.f64(double %33, double %35, double %37)
  %39 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %40 = load double, ptr %39, align 8, !tbaa !9
  %41 = fsub double %40, %38
  store double %41, ptr %39, align 8, !tbaa !9
  br label %42

42:                                               ; preds = %29, %17
  %43 = fadd double %11, %15
  %44 = add nuw nsw i64 %10, 1
  %45 = icmp eq i64 %44, %6
  br i1 %45, label %7, label %9, !llvm.loop !11
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @sin(double noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @cos(double noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @tanh(double noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @exp(double noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @log(double noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @atan(double noundef) local_unnamed_addr #2

; Function Attrs: nofree noinline norecurse nounwind memory(argmem: readwrite, errnomem: write) uwtable
define dso_local double @free_n(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %5, label %7

5:                                                ; preds = %3
  %6 = zext nneg i32 %2 to i64
  br label %9

7:                                                ; preds = %42, %3
  %8 = phi double [ 0.000000e+00, %3 ], [ %43, %42 ]
  ret double %8

9:                                                ; preds = %5, %42
  %10 = phi i64 [ 0, %5 ], [ %44, %42 ]
  %11 = phi double [ 0.000000e+00, %5 ], [ %43, %42 ]
  %12 = getelementptr inbounds nuw double, ptr %0, i64 %10
  %13 = load double, ptr %12, align 8, !tbaa !9
  %14 = fmul double %11, 1.000000e-02
  %15 = tail call double @llvm.fmuladd.f64(double %13, double 0x3FE6666666666666, double %14)
  %16 = fcmp ogt double %15, 5.000000e-01
  br i1 %16, label %17, label %29

17:                                               ; preds = %9
  %18 = tail call double @sin(double noundef %15) #6, !tbaa !5
  %19 = fmul double %18, 1.000000e-02
  %20 = fmul double %11, %15
  %21 = tail call double @cos(double noundef %20) #6, !tbaa !5
  %22 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %23 = load double, ptr %22, align 8, !tbaa !9
  %24 = fmul double %15, %23
  %25 = tail call double @tanh(double noundef %24) #6, !tbaa !5
  %26 = fmul double %25, 2.000000e-02
  %27 = tail call double @llvm.fmuladd.f64(double %19, double %21, double %26)
  %28 = fadd double %23, %27
  store double %28, ptr %22, align 8, !tbaa !9
  br label %42

29:                                               ; preds = %9
  %30 = fneg double %15
  %31 = fmul double %15, %30
  %32 = tail call double @exp(double noundef %31) #6, !tbaa !5
  %33 = fmul double %32, 1.000000e-02
  %34 = tail call double @llvm.fmuladd.f64(double %15, double %15, double 1.000000e+00)
  %35 = tail call double @log(double noundef %34) #6, !tbaa !5
  %36 = tail call double @atan(double noundef %11) #6, !tbaa !5
  %37 = fmul double %36, 3.000000e-02
  %38 = tail call double @llvm.fmuladd.f64(double %33, double %35, double %37)
  %39 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %40 = load double, ptr %39, align 8, !tbaa !9
  %41 = fsub double %40, %38
  store double %41, ptr %39, align 8, !tbaa !9
  br label %42

42:                                               ; preds = %29, %17
  %43 = fadd double %11, %15
  %44 = add nuw nsw i64 %10, 1
  %45 = icmp eq i64 %44, %6
  br i1 %45, label %7, label %9, !llvm.loop !14
}

; Function Attrs: nofree norecurse nounwind memory(argmem: readwrite, errnomem: write) uwtable
define dso_local double @obj_fixed(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) #3 {
  %4 = tail call double @fixed(ptr noundef %0, ptr noundef %1, i32 noundef %2)
  ret double %4
}

; Function Attrs: nofree norecurse nounwind memory(argmem: readwrite, errnomem: write) uwtable
define dso_local double @obj_free(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) #3 {
  %4 = tail call double @free_n(ptr noundef %0, ptr noundef %1, i32 noundef %2)
  ret double %4
}

; Function Attrs: nounwind uwtable
define dso_local void @grad_fixed(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #4 {
  %5 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  %6 = load i32, ptr @enzyme_const, align 4, !tbaa !5
  %7 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @obj_fixed, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3, i32 noundef %6, i32 noundef 12) #6
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #5

; Function Attrs: nounwind uwtable
define dso_local void @grad_free(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) local_unnamed_addr #4 {
  %6 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  %7 = load i32, ptr @enzyme_const, align 4, !tbaa !5
  %8 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @obj_free, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, i32 noundef %7, i32 noundef %4) #6
  ret void
}

attributes #0 = { nofree noinline norecurse nounwind memory(argmem: readwrite, errnomem: write) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nofree nounwind willreturn memory(errnomem: write) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nofree norecurse nounwind memory(argmem: readwrite, errnomem: write) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = !{!10, !10, i64 0}
!10 = !{!"double", !7, i64 0}
!11 = distinct !{!11, !12, !13}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!"llvm.loop.unroll.disable"}
!14 = distinct !{!14, !12, !13}
