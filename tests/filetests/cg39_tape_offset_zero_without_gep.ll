; Decision: the tape's first slot (a stack header at tape offset 0) and a record's first
; field are addressed by the pointer itself: `Builder::byte_gep` with the constant offset 0
; emits no `getelementptr` (issue 18, branch cg39).
; Why it matters: such zero-offset GEPs were generated only for the post-AD pipeline to
; delete: 440 of the generated functions' 7,633 instructions before the pipeline in
; bench/compile_scaling's chain (n = 40). The stack of `inner`'s loop is the first field
; of its nested tape, and the loop's records start with the value `x[k]`.
;
; __attribute__((noinline)) double inner(const double *x, double *y, int n) {
;   double s = 0.0;
;   for (int k = 0; k < n; k++) {
;     double t = x[k] * 0.5 + s * 0.01;
;     if (t > 0.5) y[k] += 0.1 * sin(t); else y[k] -= 0.2 * exp(-t * t);
;     s += t;
;   }
;   return s;
; }
; double outer(const double *x, double *y, int n) { return inner(x, y, n) * y[0]; }
; void grad(const double *x, double *dx, double *y, double *dy, int n) {
;   __enzyme_autodiff((void *)outer, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
; }
; (clang-22 -O2 -fno-unroll-loops, attributes and metadata removed; tests/c/1399 runs such
; tapes against finite differences at O0-O3)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @inner(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %5, label %7

5:                                                ; preds = %3
  %6 = zext nneg i32 %2 to i64
  br label %9

7:                                                ; preds = %29, %3
  %8 = phi double [ 0.000000e+00, %3 ], [ %30, %29 ]
  ret double %8

9:                                                ; preds = %5, %29
  %10 = phi i64 [ 0, %5 ], [ %31, %29 ]
  %11 = phi double [ 0.000000e+00, %5 ], [ %30, %29 ]
  %12 = getelementptr inbounds nuw double, ptr %0, i64 %10
  %13 = load double, ptr %12, align 8
  %14 = fmul double %11, 1.000000e-02
  %15 = tail call double @llvm.fmuladd.f64(double %13, double 5.000000e-01, double %14)
  %16 = fcmp ogt double %15, 5.000000e-01
  br i1 %16, label %17, label %22

17:                                               ; preds = %9
  %18 = tail call double @sin(double noundef %15)
  %19 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %20 = load double, ptr %19, align 8
  %21 = tail call double @llvm.fmuladd.f64(double %18, double 1.000000e-01, double %20)
  store double %21, ptr %19, align 8
  br label %29

22:                                               ; preds = %9
  %23 = fneg double %15
  %24 = fmul double %15, %23
  %25 = tail call double @exp(double noundef %24)
  %26 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %27 = load double, ptr %26, align 8
  %28 = tail call double @llvm.fmuladd.f64(double %25, double -2.000000e-01, double %27)
  store double %28, ptr %26, align 8
  br label %29

29:                                               ; preds = %22, %17
  %30 = fadd double %11, %15
  %31 = add nuw nsw i64 %10, 1
  %32 = icmp eq i64 %31, %6
  br i1 %32, label %7, label %9
}

declare double @llvm.fmuladd.f64(double, double, double)

declare double @sin(double noundef) local_unnamed_addr

declare double @exp(double noundef) local_unnamed_addr

define dso_local double @outer(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) {
  %4 = tail call double @inner(ptr noundef %0, ptr noundef %1, i32 noundef %2)
  %5 = load double, ptr %1, align 8
  %6 = fmul double %4, %5
  ret double %6
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) local_unnamed_addr {
  %6 = load i32, ptr @enzyme_dup, align 4
  %7 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @outer, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, i32 noundef %7, i32 noundef %4)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr



; The augmented function: the stack's header is the tape itself.
; CHECK-LABEL: define internal { double, ptr } @fz_aug_inner.nest(
; CHECK-NOT: getelementptr i8, ptr %{{[^,]+}}, i64 0{{$}}
; CHECK: call ptr @__fz_push_reserved(ptr %fz.tape,
; CHECK-NOT: getelementptr i8, ptr %{{[^,]+}}, i64 0{{$}}
; The reverse: pops from the tape, reads the record's first field at the top.
; CHECK-LABEL: define internal void @fz_rev_inner.nest(
; CHECK-NOT: getelementptr i8, ptr %{{[^,]+}}, i64 0{{$}}
; CHECK: call void @__fz_pop(ptr %fz.tape,
; CHECK: [[TOP:%[0-9]+]] = call ptr @__fz_top(ptr %fz.tape,
; CHECK-NEXT: %fz.cached{{[0-9]*}} = load double, ptr [[TOP]],
; CHECK-NOT: getelementptr i8, ptr %{{[^,]+}}, i64 0{{$}}
; CHECK-LABEL: define internal void @__fz_state_init(
