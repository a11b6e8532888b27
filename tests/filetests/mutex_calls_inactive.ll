; Decision: `pthread_mutex_lock`/`unlock` on the differentiated path are inactive
; library calls (rows of `ferrozyme_abi::library`, `Writes::IntegersTo(0)`: integer state
; in the mutex): the derivative copies both calls around the counter update and
; differentiates the rest. Before sweep23 they were "no derivative for
; `pthread_mutex_lock`" (tests/c/938, boost's tanh_sinh through libstdc++'s
; `__gthread_mutex_lock`). Written by hand after clang-22 -O2 output of tests/c/938.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%union.pthread_mutex_t = type { %struct.__pthread_mutex_s }
%struct.__pthread_mutex_s = type { i32, i32, i32, i32, i32, i16, i16, %struct.__pthread_internal_list }
%struct.__pthread_internal_list = type { ptr, ptr }

@lock = internal global %union.pthread_mutex_t zeroinitializer, align 8
@hits = internal global i64 0, align 8

; x^2, counting calls under the lock.
define double @f(double %x) {
entry:
  %l = call i32 @pthread_mutex_lock(ptr @lock)
  %h = load i64, ptr @hits, align 8
  %h1 = add i64 %h, 1
  store i64 %h1, ptr @hits, align 8
  %u = call i32 @pthread_mutex_unlock(ptr @lock)
  %r = fmul double %x, %x
  ret double %r
}

define double @g(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

declare i32 @pthread_mutex_lock(ptr)
declare i32 @pthread_mutex_unlock(ptr)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define {{.*}} @fz_{{.*}}f(
; CHECK: call i32 @pthread_mutex_lock(ptr @lock)
; CHECK: call i32 @pthread_mutex_unlock(ptr @lock)
; CHECK: fmul
; CHECK: ret
