; Decision: a thread's copy of an OpenMP threadprivate variable
; (`__kmpc_threadprivate_cached(loc, gtid, @var, size, @var.cache)`, flang's
; `!$omp threadprivate`, clang's under -fnoopenmp-use-tls) gets as its shadow the same
; call on the shadows: the shadow global of the variable (here a common block, a byte
; array that holds doubles through the copy) and the shadow of its cache, through
; __fz_omp_tp_shadow, which zeroes a thread's shadow copy the first time the thread
; reaches it in a top-level call; the top-level call starts that epoch
; (__fz_omp_tp_new_epoch). The call itself has no adjoint.
; Why it matters: libomp's call was a missing-derivative error before hpc22; a shadow of
; the primal variable instead of the thread's copy would add every thread's adjoint into
; one copy (a race, and wrong per-thread values), and a thread's shadow copy left over
; from the previous top-level call would be consumed by the next (tests/openmp/32, 33).
;
; double f(const double *x) {   /* scratch_: a threadprivate common block */
;   double *c = copy of scratch_;  c[1] = x[0] * x[0];  return c[1] * x[0];
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define void @grad(
; CHECK: call void @__fz_omp_tp_new_epoch()
; CHECK-LABEL: define internal { ptr, ptr, ptr } @__fz_aug.__kmpc_threadprivate_cached(
; CHECK: call ptr @__kmpc_threadprivate_cached(ptr %loc, i32 %gtid, ptr %var, i64 %size, ptr %cache)
; CHECK: call ptr @__fz_omp_tp_shadow(ptr %loc, i32 %gtid, ptr %dvar, i64 %size, ptr %dcache)
; CHECK-LABEL: define internal void @__fz_rev.__kmpc_threadprivate_cached(
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal ptr @__fz_omp_tp_shadow(
; CHECK: call ptr @__kmpc_threadprivate_cached(
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: call { ptr, ptr, ptr } @fz_aug___kmpc_threadprivate_cached(ptr @1, i32 %gtid, ptr @scratch_, ptr @__fz_shadow_scratch_, i64 16, ptr @scratch_.cache, ptr @__fz_shadow_scratch_.cache)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@scratch_ = common global [16 x i8] zeroinitializer, align 8
@scratch_.cache = common global ptr null, align 8

define double @f(ptr %x) {
entry:
  %gtid = call i32 @__kmpc_global_thread_num(ptr @1)
  %c = call ptr @__kmpc_threadprivate_cached(ptr @1, i32 %gtid, ptr @scratch_, i64 16, ptr @scratch_.cache)
  %c1 = getelementptr inbounds i8, ptr %c, i64 8
  %v = load double, ptr %x, align 8
  %sq = fmul double %v, %v
  store double %sq, ptr %c1, align 8
  %r = load double, ptr %c1, align 8
  %m = fmul double %r, %v
  ret double %m
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

declare i32 @__kmpc_global_thread_num(ptr)
declare ptr @__kmpc_threadprivate_cached(ptr, i32, ptr, i64, ptr)
declare double @__enzyme_autodiff(...)
