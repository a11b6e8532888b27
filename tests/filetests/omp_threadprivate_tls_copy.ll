; Decision: in a module with OpenMP parallel regions, a thread-local global read through
; `llvm.threadlocal.address(@g)` (clang's default lowering of `#pragma omp
; threadprivate`, and `_Thread_local` data) becomes `__fz_omp_tls_copy(@g, size)` in
; the clone, an identity call with a built-in rule: the primal is the calling thread's
; copy, the shadow the calling thread's copy of the thread-local shadow global, through
; __fz_omp_tls_shadow, which zeroes it the first time the thread reaches it in a
; top-level call (the top-level call starts that epoch: __fz_omp_tp_new_epoch). Both
; come back from the augmented call, so the reverse sweep uses the copies the forward
; sweep reached, whichever thread reverses the region. The call has no adjoint.
; Why it matters: it was an unsupported-instruction error (users had to compile with
; -fnoopenmp-use-tls); replacing the intrinsic by `@g` alone, as outside parallel
; modules, would leave a worker thread's shadow copy unzeroed between top-level calls
; (the adjoint of the previous call leaks into the next) and would read the reversing
; thread's copy instead of the one the forward sweep used (tests/openmp/36).
;
; static double acc;  #pragma omp threadprivate(acc)
; double f(const double *x) { acc = x[0] * x[0]; return acc * x[0]; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK: @__fz_shadow_acc = internal thread_local global double
; CHECK-LABEL: define void @grad(
; CHECK: call void @__fz_omp_tp_new_epoch()
; CHECK-LABEL: define internal ptr @__fz_omp_tls_copy(ptr %copy, i64 %size)
; CHECK-NEXT: ret ptr %copy
; CHECK-LABEL: define internal { ptr, ptr, ptr } @__fz_aug.__fz_omp_tls_copy(
; CHECK: call ptr @__fz_omp_tls_shadow(ptr %dcopy, i64 %size)
; CHECK-LABEL: define internal void @__fz_rev.__fz_omp_tls_copy(
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal {{.*}}ptr @__fz_omp_tls_shadow(
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-NOT: llvm.threadlocal.address
; CHECK: call { ptr, ptr, ptr } @fz_aug___fz_omp_tls_copy(ptr @acc, ptr @__fz_shadow_acc, i64 8)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@acc = internal thread_local global double 0.000000e+00, align 8
@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8

define double @f(ptr %x) {
entry:
  %c = call ptr @llvm.threadlocal.address.p0(ptr @acc)
  %v = load double, ptr %x, align 8
  %sq = fmul double %v, %v
  store double %sq, ptr %c, align 8
  %r = load double, ptr %c, align 8
  %m = fmul double %r, %v
  ret double %m
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

; A module with parallel regions (the region itself does not matter here).
define void @unused() {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @1, i32 0, ptr @microtask)
  ret void
}

define internal void @microtask(ptr %gtid, ptr %btid) {
  ret void
}

declare ptr @llvm.threadlocal.address.p0(ptr)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare double @__enzyme_autodiff(...)
