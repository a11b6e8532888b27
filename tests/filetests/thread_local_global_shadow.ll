; Decision: a thread-local global (`_Thread_local`, `thread_local`) read and written by
; the differentiated function through `llvm.threadlocal.address` gets a shadow that is
; itself thread-local (each thread's copy its own adjoint), and the derivative uses the
; globals directly (the intrinsic guards coroutines' thread switches; a derivative runs on
; its caller's thread). Before sweep22 every such access was refused ("thread-local data
; ... is not differentiated", tests/c/902); in a module with OpenMP parallel regions the
; intrinsic becomes `__fz_omp_tls_copy` instead (filetest omp_threadprivate_tls_copy).
; Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@scratch = internal thread_local global [2 x double] zeroinitializer, align 16

; scratch[1] = x * x; return scratch[1] * x  (= x^3)
define double @cube(double %x) {
entry:
  %tls = call align 16 ptr @llvm.threadlocal.address.p0(ptr align 16 @scratch)
  %p = getelementptr inbounds double, ptr %tls, i64 1
  %sq = fmul double %x, %x
  store double %sq, ptr %p, align 8
  %tls2 = call align 16 ptr @llvm.threadlocal.address.p0(ptr align 16 @scratch)
  %p2 = getelementptr inbounds double, ptr %tls2, i64 1
  %v = load double, ptr %p2, align 8
  %r = fmul double %v, %x
  ret double %r
}

define double @grad(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @cube, double %x)
  ret double %d
}

declare ptr @llvm.threadlocal.address.p0(ptr)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK: @__fz_shadow_scratch = internal thread_local global [2 x double] zeroinitializer
; CHECK-LABEL: define internal {{.*}} @fz_grad_cube(
; CHECK-NOT: llvm.threadlocal.address
; CHECK: getelementptr {{.*}}@__fz_shadow_scratch
; CHECK: ret
