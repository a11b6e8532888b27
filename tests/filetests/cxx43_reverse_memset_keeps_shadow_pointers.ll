; Decision: the reverse sweep of a `memset` of memory that holds pointers and no floats
; (a global `std::vector`-like object zeroed before its buffer is stored into it) clears
; nothing: the shadow global keeps the shadow pointers the forward sweep stored after the
; `memset` (the primal buffer outlives the derivative).
; Why it matters: a function-local `static std::vector<double>` first built inside the
; gradient (tests/cxx/497, 500 at -O1..-O3): clearing the static's shadow left a null
; shadow beside a live pointer, and the next derivative call stopped ("the pointer read
; from global ... has no shadow"). The session's base binary clears `@__fz_shadow_T`.
;
; static struct { double *b, *e; } T;   /* built on the first call */
; double f(const double *x) {
;   if (!T.b) { memset(&T, 0, 16); T.b = malloc(64); T.e = T.b + 8; for (k < 8) T.b[k] = k; }
;   return T.b[3] * x[0] * x[0];
; }
; (written by hand)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@T = internal global { ptr, ptr } zeroinitializer, align 8

define double @f(ptr %x) {
entry:
  %b0 = load ptr, ptr @T, align 8
  %none = icmp eq ptr %b0, null
  br i1 %none, label %build, label %use

build:
  call void @llvm.memset.p0.i64(ptr align 8 @T, i8 0, i64 16, i1 false)
  %buf = call noalias ptr @malloc(i64 64)
  store ptr %buf, ptr @T, align 8
  %end = getelementptr inbounds nuw i8, ptr %buf, i64 64
  store ptr %end, ptr getelementptr inbounds nuw (i8, ptr @T, i64 8), align 8
  br label %fill

fill:
  %k = phi i64 [ 0, %build ], [ %k1, %fill ]
  %kf = uitofp i64 %k to double
  %slot = getelementptr inbounds nuw double, ptr %buf, i64 %k
  store double %kf, ptr %slot, align 8
  %k1 = add nuw i64 %k, 1
  %more = icmp ult i64 %k1, 8
  br i1 %more, label %fill, label %use

use:
  %b = load ptr, ptr @T, align 8
  %p3 = getelementptr inbounds nuw i8, ptr %b, i64 24
  %w = load double, ptr %p3, align 8
  %x0 = load double, ptr %x, align 8
  %wx = fmul double %w, %x0
  %r = fmul double %wx, %x0
  ret double %r
}

define void @grad(ptr %x, ptr %dx) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
declare noalias ptr @malloc(i64)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-NOT: call void @llvm.memset.p0.i64(ptr {{.*}}@__fz_shadow_T, i8 0, i64 16
; CHECK: {{^}}}
