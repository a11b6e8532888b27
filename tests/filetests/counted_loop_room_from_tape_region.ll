; Decision: the record stack of a counted loop (a sure bound, `fixed_tape.rs`) in a
; split-mode function takes its whole room from the outermost call's tape region
; (`reverse/tape_region.rs`): the nested pair `fz_aug_inner.nest` gets the region as its
; last parameter and claims the loop's room with one `__fz_region_claim` before the loop,
; the result becoming the stack's data pointer (no header stores at entry, no
; `__fz_reserve`); its reverse never releases the stack. The owner, the combined
; `fz_grad_top`, has the region as a zeroed 32-byte `alloca`, passes it to every nested
; callee and releases it once after the reverse sweep. A loop with a `break` (`upto`: no
; sure bound) keeps its own stack, starting empty, pushed with checks and released by its
; reverse. `inner` is called twice, so the region holds two claims (a single claim gets
; the stack's own room instead: filetest `counted_loop_single_claim_own_room`). Under `fz_grad_top2` nothing claims (`upto` and `plain` only): its region is
; removed after the drain and the callees get a null region.
; Why it matters: per loop and call, one claim replaces a `__fz_grow` call, three header
; stores and, in the reverse, the header's capacity load, a release test and a
; `__fz_pool_put` call (issue 18: a third of the chain's tape handling; issue 14: the
; run-time allocation per loop); a region nothing uses would cost code and a call.
;
; __attribute__((noinline)) double inner(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   return s;
; }
; __attribute__((noinline)) double upto(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) { if (x[i] > 100.0) break; s += exp(x[i]) * x[i]; }
;   return s;
; }
; __attribute__((noinline)) double plain(const double *x) { return x[0] * x[1]; }
; double top(const double *x, int n) { return inner(x, n) + upto(x, n) + plain(x) + inner(x + 1, n); }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)top, x, dx, enzyme_const, n); }
; double top2(const double *x, int n) { return upto(x, n) + plain(x); }
; void grad2(const double *x, double *dx, int n) { __enzyme_autodiff((void *)top2, x, dx, enzyme_const, n); }
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

declare double @exp(double )

declare double @llvm.fmuladd.f64(double, double, double)

define double @upto(ptr %0, i32 %1) {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %17

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64
  br label %6

6:                                                ; preds = %4, %12
  %7 = phi i64 [ 0, %4 ], [ %15, %12 ]
  %8 = phi double [ 0.000000e+00, %4 ], [ %14, %12 ]
  %9 = getelementptr inbounds nuw double, ptr %0, i64 %7
  %10 = load double, ptr %9, align 8
  %11 = fcmp ogt double %10, 1.000000e+02
  br i1 %11, label %17, label %12

12:                                               ; preds = %6
  %13 = tail call double @exp(double %10)
  %14 = tail call double @llvm.fmuladd.f64(double %13, double %10, double %8)
  %15 = add nuw nsw i64 %7, 1
  %16 = icmp eq i64 %15, %5
  br i1 %16, label %17, label %6

17:                                               ; preds = %12, %6, %2
  %18 = phi double [ 0.000000e+00, %2 ], [ %8, %6 ], [ %14, %12 ]
  ret double %18
}

define double @plain(ptr %0) {
  %2 = load double, ptr %0, align 8
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %4 = load double, ptr %3, align 8
  %5 = fmul double %2, %4
  ret double %5
}

define double @top(ptr %0, i32 %1) {
  %3 = tail call double @inner(ptr %0, i32 %1)
  %4 = tail call double @upto(ptr %0, i32 %1)
  %5 = fadd double %3, %4
  %6 = tail call double @plain(ptr %0)
  %7 = fadd double %5, %6
  %8 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %9 = tail call double @inner(ptr %8, i32 %1)
  %10 = fadd double %7, %9
  ret double %10
}

define void @grad(ptr %0, ptr %1, i32 %2) {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr @top, ptr %0, ptr %1, i32 %4, i32 %2)
  ret void
}

declare double @__enzyme_autodiff(ptr , ...)

define double @top2(ptr %0, i32 %1) {
  %3 = tail call double @upto(ptr %0, i32 %1)
  %4 = tail call double @plain(ptr %0)
  %5 = fadd double %3, %4
  ret double %5
}

define void @grad2(ptr %0, ptr %1, i32 %2) {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr @top2, ptr %0, ptr %1, i32 %4, i32 %2)
  ret void
}



; CHECK-LABEL: define internal void @fz_grad_top2(
; CHECK-NOT: fz.region
; CHECK: call { double, ptr } @fz_aug_upto.nest(ptr %0, ptr %.shadow, i32 %1, ptr {{%.*}}, ptr null)
; CHECK: call { double, ptr } @fz_aug_plain.nest(ptr %0, ptr %.shadow, ptr {{%.*}}, ptr null)
; CHECK-NOT: __fz_region_release
; CHECK: {{^}}}
; CHECK-LABEL: define internal void @fz_grad_top(
; CHECK: %fz.region = alloca i8, i64 32, align 16
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 16 %fz.region, i8 0, i64 32, i1 false)
; CHECK: call { double, ptr } @fz_aug_inner.nest(ptr %0, ptr %.shadow, i32 %1, ptr {{%.*}}, ptr %fz.region)
; CHECK: call { double, ptr } @fz_aug_upto.nest(ptr %0, ptr %.shadow, i32 %1, ptr {{%.*}}, ptr %fz.region)
; CHECK: call { double, ptr } @fz_aug_plain.nest(ptr %0, ptr %.shadow, ptr {{%.*}}, ptr %fz.region)
; CHECK: call { double, ptr } @fz_aug_inner.nest(ptr {{%.*}}, ptr {{%.*}}, i32 %1, ptr {{%.*}}, ptr %fz.region)
; CHECK: call void @fz_rev_inner.nest(
; CHECK: call void @fz_rev_inner.nest(
; CHECK-NEXT: call void @__fz_region_release(ptr %fz.region)
; CHECK-LABEL: define internal { double, ptr } @fz_aug_inner.nest(ptr %0, ptr %.shadow, i32 %1, ptr %tape, ptr %region)
; CHECK-NEXT: fz.entry:
; CHECK-NEXT: [[T:%fz.tape]] = alloca i8, i64 32, align 16
; CHECK-NOT: store
; CHECK-NOT: __fz_reserve
; CHECK: [[ROOM:%.*]] = call ptr @__fz_region_claim(ptr %region, i64 {{%.*}})
; CHECK-NEXT: store ptr [[ROOM]], ptr [[T]]
; CHECK-NOT: __fz_reserve
; CHECK: call ptr @__fz_push_reserved(
; CHECK-NOT: __fz_reserve
; CHECK-LABEL: define internal void @fz_rev_inner.nest(
; CHECK-NOT: __fz_stack_free
; CHECK-NOT: __fz_region_release
; CHECK: {{^}}}
; CHECK-LABEL: define internal { double, ptr } @fz_aug_upto.nest(ptr %0, ptr %.shadow, i32 %1, ptr %tape, ptr %region)
; CHECK: store ptr null
; CHECK-NOT: __fz_region_claim
; CHECK: call ptr @__fz_push(
; CHECK-LABEL: define internal void @fz_rev_upto.nest(
; CHECK: call void @__fz_stack_free(
