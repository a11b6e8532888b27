; Decision: a pointer chosen at run time between an `enzyme_const` table and the
; duplicated x (`coef = use_table ? table : x`), captured by an OpenMP region through its
; home slot (clang -O2 keeps the by-reference capture): the table is its own shadow in
; the select that builds coef's shadow, and the region's reverse sweep adds the adjoint
; of each `coef[i]` read only where the shadow differs from the primal (a masked load and
; store under `icmp ne ptr`), so with the table chosen no adjoint goes into it
; (tests/openmp/73 runs it). Made by `ferrozyme cc -O2 -fopenmp --save-temps` from:
;
;   double energy(double *x, const double *table, int n, int use_table) {
;     const double *coef = use_table ? table : x;
;     double s = 0;
;   #pragma omp parallel for reduction(+ : s)
;     for (int i = 0; i < n; i++) s += coef[i] * x[i];
;     return s;
;   }
;   void grad(double *x, double *dx, const double *t, int n, int u) {
;     __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, t, n, u);
;   }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal void @fz_grad_energy(
; CHECK: %[[USE:[0-9]+]] = icmp eq i32 %3, 0
; CHECK: select i1 %[[USE]], ptr %0, ptr %1
; CHECK-NEXT: select i1 %[[USE]], ptr %.shadow, ptr %1
; CHECK: call void {{.*}} @__kmpc_fork_call({{.*}}@fz_omp_aug.energy.omp_outlined
; CHECK: call void {{.*}} @__kmpc_fork_call({{.*}}@fz_omp_rev.energy.omp_outlined
; CHECK-LABEL: define internal void @fz_rev_energy.omp_outlined(
; CHECK: %[[OK:[0-9]+]] = icmp ne ptr
; CHECK: %[[M:[0-9]+]] = insertelement <1 x i1> poison, i1 %[[OK]], i32 0
; CHECK-NEXT: call {{.*}} @llvm.masked.load.v1f64.p0(ptr {{.*}}, <1 x i1> %[[M]]
; CHECK: call void @llvm.masked.store.v1f64.p0({{.*}}, <1 x i1> %[[M]])

source_filename = "ft.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 22, ptr @0 }, align 8
@.gomp_critical_user_.reduction.var = common global [8 x i32] zeroinitializer, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 18, i32 0, i32 22, ptr @0 }, align 8
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind uwtable
define dso_local double @energy(ptr noundef %0, ptr noundef %1, i32 noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca ptr, align 8
  %8 = alloca double, align 8
  store ptr %0, ptr %5, align 8, !tbaa !11
  store i32 %2, ptr %6, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %7) #3
  %9 = icmp eq i32 %3, 0
  %10 = select i1 %9, ptr %0, ptr %1
  store ptr %10, ptr %7, align 8, !tbaa !11
  call void @llvm.lifetime.start.p0(ptr nonnull %8) #3
  store double 0.000000e+00, ptr %8, align 8, !tbaa !14
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @3, i32 4, ptr nonnull @energy.omp_outlined, ptr nonnull %6, ptr nonnull %8, ptr nonnull %7, ptr nonnull %5)
  %11 = load double, ptr %8, align 8, !tbaa !14
  call void @llvm.lifetime.end.p0(ptr nonnull %8) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %7) #3
  ret double %11
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @energy.omp_outlined(ptr noalias noundef readonly captures(none) %0, ptr noalias readnone captures(none) %1, ptr noundef nonnull readonly align 4 captures(none) dereferenceable(4) %2, ptr noundef nonnull align 8 captures(none) dereferenceable(8) %3, ptr noundef nonnull readonly align 8 captures(none) dereferenceable(8) %4, ptr noundef nonnull readonly align 8 captures(none) dereferenceable(8) %5) #2 {
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca double, align 8
  %12 = alloca [1 x ptr], align 8
  %13 = load i32, ptr %2, align 4, !tbaa !6
  %14 = icmp sgt i32 %13, 0
  br i1 %14, label %15, label %48

15:                                               ; preds = %6
  %16 = add nsw i32 %13, -1
  call void @llvm.lifetime.start.p0(ptr nonnull %7) #3
  store i32 0, ptr %7, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %8) #3
  store i32 %16, ptr %8, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %9) #3
  store i32 1, ptr %9, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %10) #3
  store i32 0, ptr %10, align 4, !tbaa !6
  call void @llvm.lifetime.start.p0(ptr nonnull %11) #3
  store double 0.000000e+00, ptr %11, align 8, !tbaa !14
  %17 = load i32, ptr %0, align 4, !tbaa !6
  call void @__kmpc_for_static_init_4(ptr nonnull @1, i32 %17, i32 34, ptr nonnull %10, ptr nonnull %7, ptr nonnull %8, ptr nonnull %9, i32 1, i32 1)
  %18 = load i32, ptr %8, align 4, !tbaa !6
  %19 = call i32 @llvm.smin.i32(i32 %18, i32 %16)
  store i32 %19, ptr %8, align 4, !tbaa !6
  %20 = load i32, ptr %7, align 4, !tbaa !6
  %21 = icmp sgt i32 %20, %19
  br i1 %21, label %38, label %22

22:                                               ; preds = %15
  %23 = load ptr, ptr %4, align 8, !tbaa !11
  %24 = load ptr, ptr %5, align 8, !tbaa !11
  %25 = sext i32 %20 to i64
  %26 = add nsw i32 %19, 1
  br label %27

27:                                               ; preds = %22, %27
  %28 = phi i64 [ %25, %22 ], [ %35, %27 ]
  %29 = phi double [ 0.000000e+00, %22 ], [ %34, %27 ]
  %30 = getelementptr inbounds double, ptr %23, i64 %28
  %31 = load double, ptr %30, align 8, !tbaa !14
  %32 = getelementptr inbounds double, ptr %24, i64 %28
  %33 = load double, ptr %32, align 8, !tbaa !14
  %34 = call double @llvm.fmuladd.f64(double %31, double %33, double %29)
  store double %34, ptr %11, align 8, !tbaa !14
  %35 = add nsw i64 %28, 1
  %36 = trunc i64 %35 to i32
  %37 = icmp eq i32 %26, %36
  br i1 %37, label %38, label %27

38:                                               ; preds = %27, %15
  call void @__kmpc_for_static_fini(ptr nonnull @1, i32 %17)
  store ptr %11, ptr %12, align 8
  %39 = call i32 @__kmpc_reduce_nowait(ptr nonnull @2, i32 %17, i32 1, i64 8, ptr nonnull %12, ptr nonnull @energy.omp_outlined.omp.reduction.reduction_func, ptr nonnull @.gomp_critical_user_.reduction.var)
  switch i32 %39, label %47 [
    i32 1, label %40
    i32 2, label %44
  ]

40:                                               ; preds = %38
  %41 = load double, ptr %3, align 8, !tbaa !14
  %42 = load double, ptr %11, align 8, !tbaa !14
  %43 = fadd double %41, %42
  store double %43, ptr %3, align 8, !tbaa !14
  call void @__kmpc_end_reduce_nowait(ptr nonnull @2, i32 %17, ptr nonnull @.gomp_critical_user_.reduction.var)
  br label %47

44:                                               ; preds = %38
  %45 = load double, ptr %11, align 8, !tbaa !14
  %46 = atomicrmw fadd ptr %3, double %45 monotonic, align 8
  br label %47

47:                                               ; preds = %44, %40, %38
  call void @llvm.lifetime.end.p0(ptr nonnull %11) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %10) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %9) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %8) #3
  call void @llvm.lifetime.end.p0(ptr nonnull %7) #3
  br label %48

48:                                               ; preds = %47, %6
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #4

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #3

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable
define internal void @energy.omp_outlined.omp.reduction.reduction_func(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1) #5 {
  %3 = load ptr, ptr %1, align 8
  %4 = load ptr, ptr %0, align 8
  %5 = load double, ptr %4, align 8, !tbaa !14
  %6 = load double, ptr %3, align 8, !tbaa !14
  %7 = fadd double %5, %6
  store double %7, ptr %4, align 8, !tbaa !14
  ret void
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce_nowait(ptr, i32, i32, i64, ptr, ptr, ptr) local_unnamed_addr #6

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce_nowait(ptr, i32, ptr) local_unnamed_addr #6

; Function Attrs: nounwind
declare !callback !16 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr #3

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = load i32, ptr @enzyme_dup, align 4, !tbaa !6
  %7 = load i32, ptr @enzyme_const, align 4, !tbaa !6
  %8 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @energy, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %7, ptr noundef %2, i32 noundef %3, i32 noundef %4) #3
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #7

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #4

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { alwaysinline norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nounwind }
attributes #4 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { convergent nounwind }
attributes #7 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}
!llvm.errno.tbaa = !{!6}
!ferrozyme.opt = !{!10}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"openmp", i32 51}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C/C++ TBAA"}
!10 = !{!"-O2"}
!11 = !{!12, !12, i64 0}
!12 = !{!"p1 double", !13, i64 0}
!13 = !{!"any pointer", !8, i64 0}
!14 = !{!15, !15, i64 0}
!15 = !{!"double", !8, i64 0}
!16 = !{!17}
!17 = !{i64 2, i64 -1, i64 -1, i1 true}
