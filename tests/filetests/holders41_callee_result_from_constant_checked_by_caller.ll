; Decision: a callee given a constant (`enzyme_const`) pointer that returns a pointer
; computed from it (here `select` of the constant and the duplicated buffer) returns a
; shadow that may be the primal itself; the caller counts the call's result maybe-primal
; (`runtime_activity/constant_args.rs`), guards the accesses through it (`shadow !=
; primal`), and requests the callee with `RuntimeIn::result`, which lets the callee
; return its maybe-primal pointer.
; Why it matters: the callee refused its own return before ("returned from the
; differentiated function, whose caller cannot check it"), as a `noinline` accessor
; chain into an `enzyme_const` struct did (tests/c/1386; holders40, landed by holders41).
;
; __attribute__((noinline)) static const double *pick(const double *w, const double *x,
;                                                     int k) {
;   return k > 1 ? w + k : x + k;
; }
; double f(double *x, const double *w, int n) {
;   double s = 0;
;   for (int k = 0; k < n; k++) { const double *p = pick(w, x, k); s += *p * x[k]; }
;   return s;
; }
; void grad(double *x, double *dx, const double *w, int n) {
;   __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, w, n);
; }
; (clang-22 -O2 -fno-unroll-loops -fno-vectorize, attributes and metadata removed.) Run
; natively (x = {0.4, -0.7, 1.1, 0.3}, w = {9, 9, 2.5, -1.5}, n = 4): dx = {2 x0, 2 x1,
; 2.5, -1.5} analytic, w unchanged.
;
; RUN: %ferrozyme opt %s -o - --print-activity | %FileCheck %s --check-prefix=ACT
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @f(ptr %x, ptr %w, i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %pre, label %exit

pre:
  %count = zext nneg i32 %n to i64
  br label %body

exit:
  %s.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.next, %body ]
  ret double %s.lcssa

body:
  %k = phi i64 [ 0, %pre ], [ %k.next, %body ]
  %s = phi double [ 0.000000e+00, %pre ], [ %s.next, %body ]
  %k32 = trunc nuw nsw i64 %k to i32
  %p = tail call fastcc ptr @pick(ptr %w, ptr %x, i32 %k32)
  %wk = load double, ptr %p, align 8
  %xk.addr = getelementptr inbounds nuw double, ptr %x, i64 %k
  %xk = load double, ptr %xk.addr, align 8
  %s.next = tail call double @llvm.fmuladd.f64(double %wk, double %xk, double %s)
  %k.next = add nuw nsw i64 %k, 1
  %done = icmp eq i64 %k.next, %count
  br i1 %done, label %exit, label %body
}

define internal fastcc ptr @pick(ptr %w, ptr %x, i32 %k) noinline {
  %far = icmp sgt i32 %k, 1
  %k64 = sext i32 %k to i64
  %base = select i1 %far, ptr %w, ptr %x
  %p = getelementptr inbounds double, ptr %base, i64 %k64
  ret ptr %p
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, ptr %w, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %2 = tail call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %1, ptr %w, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; The caller guards what it reads through the result; the callee returns its select.
; ACT-DAG: runtime activity in @f: shadow = primal for ; accesses guarded through %p
; ACT-DAG: runtime activity in @pick: shadow = primal for %w; accesses guarded through %base, %p

; The adjoint of `*p` is added only where the returned shadow is not the primal.
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: call { ptr, ptr, ptr } @fz_aug_pick(ptr %w, ptr %x, ptr %x.shadow, i32 %k32)
; CHECK: [[NE:%.*]] = icmp ne ptr [[SH:%fz.cached[0-9]*]], %fz.cached{{[0-9]*}}
; CHECK: insertelement <1 x i1> poison, i1 [[NE]], i32 0
; CHECK: call contract <1 x double> @llvm.masked.load.v1f64.p0(ptr [[SH]],
; CHECK-LABEL: define internal { ptr, ptr, ptr } @fz_aug_pick(
; CHECK: %base = select i1 %far, ptr %w, ptr %x
; CHECK-NEXT: select i1 %far, ptr %w, ptr %x.shadow
