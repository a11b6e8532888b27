; Decision: one pointer of a call's aggregate result that the callee always takes from a
; constant argument has no shadow, though the pair as a whole has one
; (`activity::extracted_returned_arg`). ndarray's `OffsetTuple::stride_offset` returns
; (row of the constant matrix, slot of the differentiable result) for `ArrayView2::dot`;
; the row is stored into a view. Before front18 the row was taken as shadowed with the
; callee's null element as its shadow, stored into the view's shadow, and `dot`'s reverse
; added into that null pointer (SIGSEGV in tests/rust-linalg's `lsq_views`, debug build;
; C: tests/c/850). From front18 to cxx26 the view had a shadow and the constant row was
; its own shadow (run-time activity, `dot` guarded by `shadow != primal`); since cxx26
; the view, a slot holding only pointers that `dot` only reads, has no shadow at all
; (`activity/copy_slots.rs` pointer slots): `dot` gets it as a constant argument.
; Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define internal { ptr, ptr } @offset(ptr %a, ptr %r, i64 %i) #0 {
entry:
  %k = shl i64 %i, 1
  %row = getelementptr inbounds double, ptr %a, i64 %k
  %out = getelementptr inbounds double, ptr %r, i64 %i
  %p0 = insertvalue { ptr, ptr } poison, ptr %row, 0
  %p1 = insertvalue { ptr, ptr } %p0, ptr %out, 1
  ret { ptr, ptr } %p1
}

define internal double @dot(ptr %u, ptr %x) #0 {
entry:
  %d = load ptr, ptr %u, align 8
  %d0 = load double, ptr %d, align 8
  %x0 = load double, ptr %x, align 8
  %d1p = getelementptr inbounds double, ptr %d, i64 1
  %x1p = getelementptr inbounds double, ptr %x, i64 1
  %d1 = load double, ptr %d1p, align 8
  %x1 = load double, ptr %x1p, align 8
  %m0 = fmul double %d0, %x0
  %m1 = fmul double %d1, %x1
  %s = fadd double %m0, %m1
  ret double %s
}

define double @rowdot(ptr %a, ptr %x, ptr %r) {
entry:
  %u = alloca ptr, align 8
  %p = call { ptr, ptr } @offset(ptr %a, ptr %r, i64 1)
  %row = extractvalue { ptr, ptr } %p, 0
  %out = extractvalue { ptr, ptr } %p, 1
  store ptr %row, ptr %u, align 8
  %v = call double @dot(ptr %u, ptr %x)
  store double %v, ptr %out, align 8
  %w = load double, ptr %out, align 8
  %sq = fmul double %w, %w
  ret double %sq
}

define void @grad(ptr %a, ptr %x, ptr %dx, ptr %r, ptr %dr) {
entry:
  %c = load i32, ptr @enzyme_const, align 4
  %d = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @rowdot, i32 %c, ptr %a, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %r, ptr %dr)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

attributes #0 = { noinline }

; CHECK-LABEL: define internal void @fz_grad_rowdot(
; CHECK: %row = extractvalue { ptr, ptr } %{{[0-9]+}}, 0
; CHECK-NOT: %u.shadow
; CHECK: store ptr %row, ptr %u,
; CHECK-NOT: %u.shadow
; CHECK: call {{.*}} @fz_aug_dot.nest(ptr %u, ptr %x, ptr %x.shadow,
; CHECK: call void @fz_rev_dot.nest(ptr %u, ptr %x, ptr %x.shadow,
; CHECK-LABEL: define internal void @fz_rev_dot.nest(
; CHECK-NOT: icmp ne ptr
; CHECK: ret void
