; Decision: a pointer slot (`activity/copy_slots.rs`) drops the blanket shadow of an -O0
; stack slot holding pointers only when every pointer flowing in is provably constant
; (`activity/constant_pointers.rs`), not merely unshadowed. Here (the shape of
; tests/c/508 at -O0) @place carves a `double *` out of the global byte array @pool,
; keeps it in the slot %m, stores the active `x` through it and returns it; @f keeps the
; result in %t and reads it back. The pool's declared type holds no floats and the store
; goes through the slot, so the pool has no shadow the analysis can see: with the slots
; taken as constant, f's derivative was a silent zero. Both slots keep their shadow, and
; @place is differentiated with a shadow for its result. Written from clang-22 -O0.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@used = global i32 0, align 4
@pool = global [1024 x i8] zeroinitializer, align 16

define ptr @place(double %x) {
entry:
  %x.addr = alloca double, align 8
  %m = alloca ptr, align 8
  store double %x, ptr %x.addr, align 8
  %u = load i32, ptr @used, align 4
  %idx = sext i32 %u to i64
  %at = getelementptr inbounds [1024 x i8], ptr @pool, i64 0, i64 %idx
  store ptr %at, ptr %m, align 8
  %u2 = add i32 %u, 8
  store i32 %u2, ptr @used, align 4
  %xv = load double, ptr %x.addr, align 8
  %mp = load ptr, ptr %m, align 8
  store double %xv, ptr %mp, align 8
  %ret = load ptr, ptr %m, align 8
  ret ptr %ret
}

; t = place(a); return *t * *t
define double @f(double %a) {
entry:
  %a.addr = alloca double, align 8
  %t = alloca ptr, align 8
  store double %a, ptr %a.addr, align 8
  store i32 0, ptr @used, align 4
  %av = load double, ptr %a.addr, align 8
  %call = call ptr @place(double %av)
  store ptr %call, ptr %t, align 8
  %tp = load ptr, ptr %t, align 8
  %tv = load double, ptr %tp, align 8
  %sq = fmul double %tv, %tv
  ret double %sq
}

define double @grad(double %a) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %a)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @fz_grad_f(
; CHECK: %[[RES:[0-9]+]] = call { ptr, ptr, ptr } @fz_aug_place{{.*}}(double %a
; CHECK: %[[SH:[0-9]+]] = extractvalue { ptr, ptr, ptr } %[[RES]], 1
; CHECK: rev.entry:
; CHECK: load double, ptr %[[SH]]
; CHECK: store double {{.*}}, ptr %[[SH]]
; CHECK: call { double } @fz_rev_place
; CHECK-LABEL: define internal {{.*}} @fz_aug_place
; CHECK: getelementptr inbounds [1024 x i8], ptr @__fz_shadow_pool
