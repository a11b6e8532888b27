; Decision: memory the program allocates outside the differentiated code and stores into
; a global the derivative reads through (`a = malloc(64)` in `init`) gets a zeroed shadow
; of the same size right after that store, in the global's shadow (Enzyme's implicit
; global shadow), recorded with its size and the primal pointer. Before each top-level
; derivative, while it is still the shadow's pointer, it is zeroed, or cleared if the
; global was given another pointer by code the pass does not see (then the derivative
; stops with the message of the null-shadow guard instead of using a shadow of another
; size).
; Why it matters: the shadow stayed null and the derivative stopped the program, though
; Enzyme gives this common pattern (an `init` filling a global array; flang's module
; arrays) a gradient.
;
; double *a;
; void init(void) { a = malloc(64); for (...) a[i] = i + 1; }
; double f(double x) { return a[0] * a[1] * x; }
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@a = global ptr null, align 8

define void @init() {
entry:
  %p = call noalias ptr @malloc(i64 64)
  store ptr %p, ptr @a, align 8
  store double 1.000000e+00, ptr %p, align 8
  %q = getelementptr inbounds i8, ptr %p, i64 8
  store double 2.000000e+00, ptr %q, align 8
  ret void
}

define double @f(double %x) {
entry:
  %0 = load ptr, ptr @a, align 8
  %1 = load double, ptr %0, align 8
  %q = getelementptr inbounds i8, ptr %0, i64 8
  %2 = load double, ptr %q, align 8
  %m = fmul double %1, %2
  %r = fmul double %m, %x
  ret double %r
}

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %call
}

declare noalias ptr @malloc(i64)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK: @__fz_shadow_a = internal global ptr null
; CHECK: @__fz_outside.__fz_shadow_a.0 = internal global { ptr, i64, ptr } zeroinitializer
; CHECK-LABEL: define void @init(
; CHECK: [[P:%.*]] = call noalias ptr @malloc(i64 64)
; CHECK-NEXT: store ptr [[P]], ptr @a
; CHECK-NEXT: [[S:%.*]] = call ptr @calloc(i64 64, i64 1)
; CHECK-NEXT: store ptr [[S]], ptr @__fz_shadow_a
; CHECK-NEXT: store ptr [[S]], ptr @__fz_outside.__fz_shadow_a.0
; CHECK-NEXT: store i64 64, ptr getelementptr (i8, ptr @__fz_outside.__fz_shadow_a.0, i64 8)
; CHECK-NEXT: store ptr [[P]], ptr getelementptr (i8, ptr @__fz_outside.__fz_shadow_a.0, i64 16)
; CHECK-LABEL: define double @grad(
; CHECK: call void @__fz_outside.__fz_shadow_a(i1 true)
; CHECK-LABEL: define internal void @__fz_outside.__fz_shadow_a(i1 %0)
; CHECK: [[MINE:%.*]] = load ptr, ptr @__fz_outside.__fz_shadow_a.0
; CHECK: [[N:%.*]] = load i64, ptr getelementptr (i8, ptr @__fz_outside.__fz_shadow_a.0, i64 8)
; CHECK: [[PRIMAL:%.*]] = load ptr, ptr getelementptr (i8, ptr @__fz_outside.__fz_shadow_a.0, i64 16)
; CHECK: [[CUR:%.*]] = load ptr, ptr @__fz_shadow_a
; CHECK: [[NOW:%.*]] = load ptr, ptr @a
; CHECK: icmp eq ptr [[CUR]], [[MINE]]
; CHECK: icmp ne ptr [[NOW]], [[PRIMAL]]
; CHECK: fz.stale:
; CHECK-NEXT: store ptr null, ptr @__fz_shadow_a
; CHECK: fz.zero:
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 [[MINE]], i8 0, i64 [[N]], i1 false)
