; Decision: a nested split pair whose only counted loop claims its stack's room from the
; outermost call's region leaves the stack's capacity out of its tape copy-out once the
; drain keeps the claim (`reverse/tape_region.rs`, `ClaimSite::keep_claim`), and copies it
; when the drain gives the stack its own room instead (the reverse then frees the stack
; and reads the capacity). `one` and `other` each have one loop and share `top`'s region
; (two claims under one owner: both claims stay; tape { data, len, cap }: 16 of its 24
; bytes copied); `alone` is `solo`'s only claimant, so it keeps its own reservation
; (`__fz_reserve`, `__fz_stack_free`) and its whole tape is copied.
; Why it matters: every unit of bench/compile_scaling's `chain` and `tree` is such a pair
; (chain24: 80 dead `store i64 0` and their addresses at chain n = 80; issue 18).
; chain22's skip (region_stack_capacity_not_copied_out.ll) covers pairs with two claims.
;
; __attribute__((noinline)) double one(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   return s;
; }
; __attribute__((noinline)) double other(const double *x, int n) {
;   double t = 1.0;
;   for (int i = 0; i < n; i++) t += exp(x[i] * t);
;   return t;
; }
; __attribute__((noinline)) double alone(const double *x, int n) { /* as one */ }
; double top(const double *x, int n) { return one(x, n) * other(x, n); }
; double solo(const double *x, int n) { return alone(x, n) * 2.0; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)top, x, dx, enzyme_const, n); }
; void grad_solo(const double *x, double *dx, int n) { __enzyme_autodiff((void *)solo, x, dx, enzyme_const, n); }
; (clang-22 -O2, attributes and metadata removed; tests/c/880 and bench/compile_scaling run
; such loops against finite differences)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree noinline norecurse nounwind memory(argmem: read, errnomem: write) uwtable
define dso_local double @one(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %6

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  br label %8

6:                                                ; preds = %8, %2
  %7 = phi double [ 0.000000e+00, %2 ], [ %14, %8 ]
  ret double %7

8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %15, %8 ]
  %10 = phi double [ 0.000000e+00, %4 ], [ %14, %8 ]
  %11 = getelementptr inbounds nuw double, ptr %0, i64 %9
  %12 = load double, ptr %11, align 8
  %13 = tail call double @exp(double noundef %12)
  %14 = tail call double @llvm.fmuladd.f64(double %13, double %12, double %10)
  %15 = add nuw nsw i64 %9, 1
  %16 = icmp eq i64 %15, %5
  br i1 %16, label %6, label %8
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @exp(double noundef) local_unnamed_addr

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double)

; Function Attrs: nofree noinline norecurse nounwind memory(argmem: read, errnomem: write) uwtable
define dso_local double @other(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %6

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  br label %8

6:                                                ; preds = %8, %2
  %7 = phi double [ 1.000000e+00, %2 ], [ %15, %8 ]
  ret double %7

8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %16, %8 ]
  %10 = phi double [ 1.000000e+00, %4 ], [ %15, %8 ]
  %11 = getelementptr inbounds nuw double, ptr %0, i64 %9
  %12 = load double, ptr %11, align 8
  %13 = fmul double %10, %12
  %14 = tail call double @exp(double noundef %13)
  %15 = fadd double %10, %14
  %16 = add nuw nsw i64 %9, 1
  %17 = icmp eq i64 %16, %5
  br i1 %17, label %6, label %8
}

; Function Attrs: nofree noinline norecurse nounwind memory(argmem: read, errnomem: write) uwtable
define dso_local double @alone(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %6

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  br label %8

6:                                                ; preds = %8, %2
  %7 = phi double [ 0.000000e+00, %2 ], [ %14, %8 ]
  ret double %7

8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %15, %8 ]
  %10 = phi double [ 0.000000e+00, %4 ], [ %14, %8 ]
  %11 = getelementptr inbounds nuw double, ptr %0, i64 %9
  %12 = load double, ptr %11, align 8
  %13 = tail call double @exp(double noundef %12)
  %14 = tail call double @llvm.fmuladd.f64(double %13, double %12, double %10)
  %15 = add nuw nsw i64 %9, 1
  %16 = icmp eq i64 %15, %5
  br i1 %16, label %6, label %8
}

; Function Attrs: nofree norecurse nounwind memory(argmem: read, errnomem: write) uwtable
define dso_local double @top(ptr noundef readonly captures(none) %0, i32 noundef %1) {
  %3 = tail call double @one(ptr noundef %0, i32 noundef %1)
  %4 = tail call double @other(ptr noundef %0, i32 noundef %1)
  %5 = fmul double %3, %4
  ret double %5
}

; Function Attrs: nofree norecurse nounwind memory(argmem: read, errnomem: write) uwtable
define dso_local double @solo(ptr noundef readonly captures(none) %0, i32 noundef %1) {
  %3 = tail call double @alone(ptr noundef %0, i32 noundef %1)
  %4 = fmul double %3, 2.000000e+00
  ret double %4
}

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @top, ptr noundef %0, ptr noundef %1, i32 noundef %4, i32 noundef %2)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; Function Attrs: nounwind uwtable
define dso_local void @grad_solo(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @solo, ptr noundef %0, ptr noundef %1, i32 noundef %4, i32 noundef %2)
  ret void
}


; CHECK-LABEL: define internal { double, ptr } @fz_aug_one.nest(
; CHECK-NOT: __fz_reserve
; CHECK: call ptr @__fz_region_claim(ptr %region,
; CHECK-NOT: __fz_reserve
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %tape, ptr align 16 %fz.tape, i64 16, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: ret { double, ptr }
; CHECK-LABEL: define internal void @fz_rev_one.nest(
; CHECK-NOT: __fz_stack_free(
; CHECK-LABEL: define internal { double, ptr } @fz_aug_other.nest(
; CHECK: call ptr @__fz_region_claim(ptr %region,
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %tape, ptr align 16 %fz.tape, i64 16, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: ret { double, ptr }
; CHECK-LABEL: define internal { double, ptr } @fz_aug_alone.nest(
; CHECK-NOT: __fz_region_claim
; CHECK: call void @__fz_reserve(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %tape, ptr align 16 %fz.tape, i64 24, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: ret { double, ptr }
; CHECK-LABEL: define internal void @fz_rev_alone.nest(
; CHECK: call void @__fz_stack_free(
