; Decision: an `ordered` region (`__kmpc_ordered`/`__kmpc_end_ordered`) is reversed like a
; critical section: the forward sweep takes a ticket before `__kmpc_end_ordered`, the
; reverse takes its turn (`__fz_omp_critical_turn`) and gives it back
; (`__fz_omp_critical_done`), and the reverse region must get the forward team
; (`__fz_omp_check_team(..., i32 1)`: a thread reversing two tapes would wait for its own
; later turn).
; Why it matters: the ordered calls used to be copied as inactive calls; the reverse
; sweep ran the regions in any order and the gradient of an order-dependent update
; (`p = p * v + x[i]`) was silently wrong with 2 threads (tests/openmp/24). Without the
; team check, a smaller reverse team waited 300 s and stopped.
;
; double rec(const double *x, int n) {
;   double p = 1;
; #pragma omp parallel for ordered schedule(static, 1)
;   for (int i = 0; i < n; i++) {
;     double v = x[i] * x[i];
; #pragma omp ordered
;     p = p * v + x[i];
;   }
;   return p;
; }
; (clang-22 -O1 -fopenmp, attributes and metadata dropped)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal { ptr } @fz_aug_rec.omp_outlined(
; CHECK: call i64 @__fz_omp_critical_ticket()
; CHECK-NEXT: call void @__kmpc_end_ordered(
; CHECK-LABEL: define internal void @fz_rev_rec.omp_outlined(
; CHECK: call void @__fz_omp_critical_turn(i64
; CHECK-NOT: @__kmpc_ordered
; CHECK: call void @__fz_omp_critical_done()
; CHECK-LABEL: define internal void @fz_omp_rev.rec.omp_outlined(
; CHECK: call void @__fz_omp_check_team(ptr %{{.*}}, i32 1)


%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local double @rec(ptr noundef %0, i32 noundef %1) {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca double, align 8
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  store double 1.000000e+00, ptr %5, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @1, i32 3, ptr nonnull @rec.omp_outlined, ptr nonnull %4, ptr nonnull %3, ptr nonnull %5)
  %6 = load double, ptr %5, align 8
  call void @llvm.lifetime.end.p0(ptr nonnull %5)
  ret double %6
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

define internal void @rec.omp_outlined(ptr noalias noundef readonly captures(none) %0, ptr noalias readnone captures(none) %1, ptr noundef nonnull readonly align 4 captures(none) dereferenceable(4) %2, ptr noundef nonnull readonly align 8 captures(none) dereferenceable(8) %3, ptr noundef nonnull align 8 captures(none) dereferenceable(8) %4) {
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = load i32, ptr %2, align 4
  %11 = icmp sgt i32 %10, 0
  br i1 %11, label %12, label %42

12:                                               ; preds = %5
  %13 = add nsw i32 %10, -1
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  store i32 0, ptr %6, align 4
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  store i32 %13, ptr %7, align 4
  call void @llvm.lifetime.start.p0(ptr nonnull %8)
  store i32 1, ptr %8, align 4
  call void @llvm.lifetime.start.p0(ptr nonnull %9)
  store i32 0, ptr %9, align 4
  %14 = load i32, ptr %0, align 4
  tail call void @__kmpc_dispatch_init_4(ptr nonnull @1, i32 %14, i32 65, i32 0, i32 %13, i32 1, i32 1)
  %15 = call i32 @__kmpc_dispatch_next_4(ptr nonnull @1, i32 %14, ptr nonnull %9, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8)
  %16 = icmp eq i32 %15, 0
  br i1 %16, label %41, label %20

17:                                               ; preds = %26, %20
  %18 = call i32 @__kmpc_dispatch_next_4(ptr nonnull @1, i32 %14, ptr nonnull %9, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8)
  %19 = icmp eq i32 %18, 0
  br i1 %19, label %41, label %20

20:                                               ; preds = %12, %17
  %21 = load i32, ptr %6, align 4
  %22 = load i32, ptr %7, align 4
  %23 = icmp sgt i32 %21, %22
  br i1 %23, label %17, label %24

24:                                               ; preds = %20
  %25 = sext i32 %21 to i64
  br label %26

26:                                               ; preds = %24, %26
  %27 = phi i64 [ %25, %24 ], [ %37, %26 ]
  %28 = load ptr, ptr %3, align 8
  %29 = getelementptr inbounds double, ptr %28, i64 %27
  %30 = load double, ptr %29, align 8
  %31 = fmul double %30, %30
  call void @__kmpc_ordered(ptr nonnull @1, i32 %14)
  %32 = load double, ptr %4, align 8
  %33 = load ptr, ptr %3, align 8
  %34 = getelementptr inbounds double, ptr %33, i64 %27
  %35 = load double, ptr %34, align 8
  %36 = call double @llvm.fmuladd.f64(double %32, double %31, double %35)
  store double %36, ptr %4, align 8
  call void @__kmpc_end_ordered(ptr nonnull @1, i32 %14)
  %37 = add nsw i64 %27, 1
  call void @__kmpc_dispatch_fini_4(ptr nonnull @1, i32 %14)
  %38 = load i32, ptr %7, align 4
  %39 = sext i32 %38 to i64
  %40 = icmp slt i64 %27, %39
  br i1 %40, label %26, label %17

41:                                               ; preds = %17, %12
  call void @__kmpc_dispatch_deinit(ptr nonnull @1, i32 %14)
  call void @llvm.lifetime.end.p0(ptr nonnull %9)
  call void @llvm.lifetime.end.p0(ptr nonnull %8)
  call void @llvm.lifetime.end.p0(ptr nonnull %7)
  call void @llvm.lifetime.end.p0(ptr nonnull %6)
  br label %42

42:                                               ; preds = %41, %5
  ret void
}

declare void @llvm.lifetime.end.p0(ptr captures(none))

declare void @__kmpc_dispatch_init_4(ptr, i32, i32, i32, i32, i32, i32) local_unnamed_addr

declare i32 @__kmpc_dispatch_next_4(ptr, i32, ptr, ptr, ptr, ptr) local_unnamed_addr

declare void @__kmpc_ordered(ptr, i32) local_unnamed_addr

declare void @__kmpc_end_ordered(ptr, i32) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

declare void @__kmpc_dispatch_fini_4(ptr, i32) local_unnamed_addr

declare void @__kmpc_dispatch_deinit(ptr, i32) local_unnamed_addr

declare void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr

define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr {
  %4 = load i32, ptr @enzyme_dup, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @rec, i32 noundef %4, ptr noundef %0, ptr noundef %1, i32 noundef %2)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


