; Decision: a nested pair's counted loop whose claim would be the only claim of its owner's
; tape region (`reverse/tape_region.rs`, "A single claim") reserves its stack's own room
; instead: `fz_aug_inner.nest` stores the empty header at entry and calls `__fz_reserve`
; before the loop (no `__fz_region_claim`), its reverse releases the stack with
; `__fz_stack_free`, and the owner `fz_grad_top` has no region (its nested callees get a
; null region, no `__fz_region_release`). With two claims under one owner the region stays
; (filetest `counted_loop_room_from_tape_region`).
; Why it matters: a region holding one stack costs what the stack's own buffer does plus
; the region's zeroed `alloca` and its out-of-line claim and release; in the iterative FFT
; (`bench/src/fft_iter.c`) that cost 0.8% more gradient instructions (register spills in
; the bit-reversal loops), `bench/README.md`, gmm22.
;
; __attribute__((noinline)) double inner(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   return s;
; }
; __attribute__((noinline)) double plain(const double *x) { return x[0] * x[1]; }
; double top(const double *x, int n) { return inner(x, n) + plain(x); }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)top, x, dx, enzyme_const, n); }
; (clang-22 -O2, attributes and metadata removed; tests/c/880 runs such loops)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4

define double @inner(ptr %0, i32 %1) {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %6

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64
  br label %8

6:                                                ; preds = %8, %2
  %7 = phi double [ 0.000000e+00, %2 ], [ %14, %8 ]
  ret double %7

8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %15, %8 ]
  %10 = phi double [ 0.000000e+00, %4 ], [ %14, %8 ]
  %11 = getelementptr inbounds nuw double, ptr %0, i64 %9
  %12 = load double, ptr %11, align 8
  %13 = tail call double @exp(double %12)
  %14 = tail call double @llvm.fmuladd.f64(double %13, double %12, double %10)
  %15 = add nuw nsw i64 %9, 1
  %16 = icmp eq i64 %15, %5
  br i1 %16, label %6, label %8
}

define double @plain(ptr %0) {
  %2 = load double, ptr %0, align 8
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %4 = load double, ptr %3, align 8
  %5 = fmul double %2, %4
  ret double %5
}


declare double @exp(double)

declare double @llvm.fmuladd.f64(double, double, double)

define double @top(ptr %0, i32 %1) {
  %3 = tail call double @inner(ptr %0, i32 %1)
  %4 = tail call double @plain(ptr %0)
  %5 = fadd double %3, %4
  ret double %5
}

define void @grad(ptr %0, ptr %1, i32 %2) {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr @top, ptr %0, ptr %1, i32 %4, i32 %2)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_top(
; CHECK-NOT: fz.region
; CHECK: call { double, ptr } @fz_aug_inner.nest(ptr %0, ptr %.shadow, i32 %1, ptr {{%.*}}, ptr null)
; CHECK: call { double, ptr } @fz_aug_plain.nest(ptr %0, ptr %.shadow, ptr {{%.*}}, ptr null)
; CHECK-NOT: __fz_region_release
; CHECK: {{^}}}
; CHECK-LABEL: define internal { double, ptr } @fz_aug_inner.nest(ptr %0, ptr %.shadow, i32 %1, ptr %tape, ptr %region)
; CHECK: store ptr null
; CHECK-NOT: __fz_region_claim
; CHECK: call void @__fz_reserve(
; CHECK-NOT: __fz_region_claim
; CHECK: call ptr @__fz_push_reserved(
; CHECK-NOT: __fz_region_claim
; CHECK-LABEL: define internal void @fz_rev_inner.nest(
; CHECK: call void @__fz_stack_free(
; CHECK-NOT: __fz_region_release
; CHECK: {{^}}}
