; Decision: a pointer stored into memory as an integer (`store i64 (ptrtoint %q)`, the
; form SROA gives Rust's `Option<&f64>` kept in a stack slot: ndarray's `unrolled_dot`
; tail in debug builds) keeps its shadow, and the shadow slot gets the shadow pointer's
; bits (`ptrtoint` of `%q`'s shadow). Before front18 the shadow of a pointer used only by
; a `ptrtoint` was pruned as unneeded: the shadow slot stayed 0 and the callee's reverse
; sweep added its adjoint through a null pointer (SIGSEGV in tests/rust-linalg's
; `lsq_views`, debug). Written by hand; `square_at` is `noinline` so the slot stays.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define internal double @square_at(ptr %slot) #0 {
entry:
  %p = load ptr, ptr %slot, align 8
  %v = load double, ptr %p, align 8
  %m = fmul double %v, %v
  ret double %m
}

define double @f(ptr %x) {
entry:
  %slot = alloca i64, align 8
  %q = getelementptr inbounds double, ptr %x, i64 1
  %qi = ptrtoint ptr %q to i64
  store i64 %qi, ptr %slot, align 8
  %r = call double @square_at(ptr %slot)
  ret double %r
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

attributes #0 = { noinline }

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %[[S:[0-9]+]] = getelementptr inbounds double, ptr %x.shadow, i64 1
; CHECK: store i64 %qi, ptr %slot
; CHECK: %[[I:[0-9]+]] = ptrtoint ptr %[[S]] to i64
; CHECK: store i64 %[[I]], ptr %slot.shadow
; CHECK: call {{.*}} @fz_aug_square_at
