; Decision: a module with both kinds of threadprivate data (a libomp copy through
; `__kmpc_threadprivate_cached`, as flang's `!$omp threadprivate` in a mixed C/Fortran
; program, and a thread-local global, clang's default lowering) gets both rules, and
; each rule's shadow helper is the OpenMP runtime's definition: both rules' texts are
; linked before the runtime (`custom/threadprivate.rs`), and the thread-local data of
; the runtime itself does not count as the program's.
; Why it matters: linking the runtime for the first rule made its own `__thread` table
; look like program data, and the second rule's declaration of its helper, linked after
; the runtime's functions had become internal, stayed unresolved: an internal error in
; every -fnoopenmp-use-tls program (tests/openmp/32, 33 failed while hpc23 wrote this).
;
; double f(const double *x) {   /* scratch_: libomp's copy; acc: thread-local */
;   c[1] = x[0] * x[0];  acc = c[1] * x[0];  return acc * x[0];
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define void @grad(
; CHECK: call void @__fz_omp_tp_new_epoch()
; CHECK-LABEL: define internal { ptr, ptr, ptr } @__fz_aug.__kmpc_threadprivate_cached(
; CHECK: call ptr @__fz_omp_tp_shadow(
; CHECK-LABEL: define internal { ptr, ptr, ptr } @__fz_aug.__fz_omp_tls_copy(
; CHECK: call ptr @__fz_omp_tls_shadow(
; CHECK-LABEL: define internal {{.*}}ptr @__fz_omp_tp_shadow(
; CHECK-LABEL: define internal {{.*}}ptr @__fz_omp_tls_shadow(
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-DAG: call { ptr, ptr, ptr } @fz_aug___kmpc_threadprivate_cached(
; CHECK-DAG: call { ptr, ptr, ptr } @fz_aug___fz_omp_tls_copy(ptr @acc, ptr @__fz_shadow_acc, i64 8)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@scratch_ = common global [16 x i8] zeroinitializer, align 8
@scratch_.cache = common global ptr null, align 8
@acc = internal thread_local global double 0.000000e+00, align 8

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
  %a = call ptr @llvm.threadlocal.address.p0(ptr @acc)
  store double %m, ptr %a, align 8
  %b = load double, ptr %a, align 8
  %o = fmul double %b, %v
  ret double %o
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

declare i32 @__kmpc_global_thread_num(ptr)
declare ptr @__kmpc_threadprivate_cached(ptr, i32, ptr, i64, ptr)
declare ptr @llvm.threadlocal.address.p0(ptr)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
declare double @__enzyme_autodiff(...)
