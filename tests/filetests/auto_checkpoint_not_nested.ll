; Decision: automatic checkpointing (checkpoint/auto.rs) leaves alone the loops of a
; function that a reverse-mode hook differentiates from inside differentiated code. Here
; @grad calls __enzyme_autodiff(@ode) and @hvp calls __enzyme_fwddiff(@grad) (forward
; over reverse, a Hessian-vector product): @ode's time loop would be a candidate for a
; first-order gradient (tests/filetests/auto_checkpoint_candidate.ll, same loop), but
; nested it stays a plain taped loop: no @__fz_ckpt_auto_use test, no outlined step, no
; checkpoint driver.
; Why it matters: the outer forward derivative would have to differentiate the driver
; (snapshots, trampolines called through function pointers, fread/remove of spilled
; snapshots): `ferrozyme cc` failed with unsupported-instruction/missing-derivative errors
; on every such second derivative (the Python package's fz_hvp of heat.c;
; tests/c/960_fwd_over_rev_auto_ckpt_loop.c).
;
; double ode(double *x, double *tmp, int m, long n) {
;   for (long t = 0; t < n; t++) {
;     for (int i = 0; i < m; i++) tmp[i] = x[i] + 0.05 * sin(x[i]);
;     for (int i = 0; i < m; i++) x[i] = tmp[i];
;   }
;   double s = 0;
;   for (int i = 0; i < m; i++) s += x[i];
;   return s;
; }
; void grad(double *x, double *dx, double *t, double *dt, int m, long n) {
;   __enzyme_autodiff((void *)ode, enzyme_dup, x, dx, enzyme_dup, t, dt, enzyme_const, m,
;                     enzyme_const, n);
; }
; void hvp(double *x, double *v, double *dx, double *hv, double *t, double *tv,
;          double *dt, double *dtv, int m, long n) {
;   __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, dx, hv, enzyme_dup, t, tv,
;                    enzyme_dup, dt, dtv, enzyme_const, m, enzyme_const, n);
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=NONE

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree norecurse nounwind memory(argmem: readwrite, errnomem: write) uwtable
define dso_local double @ode(ptr noundef captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2, i64 noundef %3) {
  %5 = icmp sgt i64 %3, 0
  br i1 %5, label %6, label %12

6:                                                ; preds = %4
  %7 = icmp sgt i32 %2, 0
  %8 = zext nneg i32 %2 to i64
  %9 = zext nneg i32 %2 to i64
  br label %10

10:                                               ; preds = %6, %25
  %11 = phi i64 [ 0, %6 ], [ %26, %25 ]
  br i1 %7, label %16, label %25

12:                                               ; preds = %25, %4
  %13 = icmp sgt i32 %2, 0
  br i1 %13, label %14, label %35

14:                                               ; preds = %12
  %15 = zext nneg i32 %2 to i64
  br label %37

16:                                               ; preds = %10, %16
  %17 = phi i64 [ %23, %16 ], [ 0, %10 ]
  %18 = getelementptr inbounds nuw double, ptr %0, i64 %17
  %19 = load double, ptr %18, align 8
  %20 = tail call double @sin(double noundef %19)
  %21 = tail call double @llvm.fmuladd.f64(double %20, double 5.000000e-02, double %19)
  %22 = getelementptr inbounds nuw double, ptr %1, i64 %17
  store double %21, ptr %22, align 8
  %23 = add nuw nsw i64 %17, 1
  %24 = icmp eq i64 %23, %8
  br i1 %24, label %28, label %16

25:                                               ; preds = %28, %10
  %26 = add nuw nsw i64 %11, 1
  %27 = icmp eq i64 %26, %3
  br i1 %27, label %12, label %10

28:                                               ; preds = %16, %28
  %29 = phi i64 [ %33, %28 ], [ 0, %16 ]
  %30 = getelementptr inbounds nuw double, ptr %1, i64 %29
  %31 = load double, ptr %30, align 8
  %32 = getelementptr inbounds nuw double, ptr %0, i64 %29
  store double %31, ptr %32, align 8
  %33 = add nuw nsw i64 %29, 1
  %34 = icmp eq i64 %33, %9
  br i1 %34, label %25, label %28

35:                                               ; preds = %37, %12
  %36 = phi double [ 0.000000e+00, %12 ], [ %42, %37 ]
  ret double %36

37:                                               ; preds = %14, %37
  %38 = phi i64 [ 0, %14 ], [ %43, %37 ]
  %39 = phi double [ 0.000000e+00, %14 ], [ %42, %37 ]
  %40 = getelementptr inbounds nuw double, ptr %0, i64 %38
  %41 = load double, ptr %40, align 8
  %42 = fadd double %39, %41
  %43 = add nuw nsw i64 %38, 1
  %44 = icmp eq i64 %43, %15
  br i1 %44, label %35, label %37
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @sin(double noundef) local_unnamed_addr

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double)

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4, i64 noundef %5) {
  %7 = load i32, ptr @enzyme_dup, align 4
  %8 = load i32, ptr @enzyme_const, align 4
  %9 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @ode, i32 noundef %7, ptr noundef %0, ptr noundef %1, i32 noundef %7, ptr noundef %2, ptr noundef %3, i32 noundef %8, i32 noundef %4, i32 noundef %8, i64 noundef %5)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; Function Attrs: nounwind uwtable
define dso_local void @hvp(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr noundef %5, ptr noundef %6, ptr noundef %7, i32 noundef %8, i64 noundef %9) local_unnamed_addr {
  %11 = load i32, ptr @enzyme_dup, align 4
  %12 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @grad, i32 noundef %11, ptr noundef %0, ptr noundef %1, i32 noundef %11, ptr noundef %2, ptr noundef %3, i32 noundef %11, ptr noundef %4, ptr noundef %5, i32 noundef %11, ptr noundef %6, ptr noundef %7, i32 noundef %12, i32 noundef %8, i32 noundef %12, i64 noundef %9)
  ret void
}

declare void @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr




; CHECK-LABEL: define dso_local double @ode(
; CHECK-NOT: @__fz_
; CHECK: ret double
; CHECK-LABEL: define dso_local void @hvp(
; CHECK-NEXT: call void @fz_fwd_grad(

; NONE-NOT: __fz_ckpt
; NONE-NOT: __fz_auto_step
