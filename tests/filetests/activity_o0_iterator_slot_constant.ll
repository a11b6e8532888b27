; Decision: at -O0 clang keeps an iterator in a stack slot and hands the slot to helpers
; such as `std::advance`, which move it in place. A slot that holds only pointers gets a
; shadow only once a pointer with a shadow flows into it (`activity/copy_slots.rs`
; pointer slots, `activity/local_stores.rs` param_writes): in @pick the iterator into the
; `enzyme_const` knots stays constant, so the derivative calls the primal `advance` and
; needs no shadow slot and no run-time activity guard (before cxx26 the slot had a shadow,
; the constant pointer became its own shadow, and `std::upper_bound` returning it was
; refused: tests/cxx/195 and 250 at -O0). In @pick_moved a callee points the slot at a
; duplicated argument's memory (`*it = w`): the slot keeps its shadow and the callee is
; differentiated with it. Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4
@enzyme_dup = external global i32, align 4

; std::advance at -O0: the iterator moved in place (*it += n).
define internal void @advance(ptr %it, i64 %n) {
entry:
  %it.addr = alloca ptr, align 8
  store ptr %it, ptr %it.addr, align 8
  %p = load ptr, ptr %it.addr, align 8
  %cur = load ptr, ptr %p, align 8
  %next = getelementptr inbounds double, ptr %cur, i64 %n
  store ptr %next, ptr %p, align 8
  ret void
}

; knots[2] * q * v[0], the iterator into the constant knots kept in the slot %it.
define double @pick(ptr %knots, ptr %v, double %q) {
entry:
  %it = alloca ptr, align 8
  store ptr %knots, ptr %it, align 8
  call void @advance(ptr %it, i64 2)
  %p = load ptr, ptr %it, align 8
  %kv = load double, ptr %p, align 8
  %vv = load double, ptr %v, align 8
  %m = fmul double %kv, %q
  %r = fmul double %m, %vv
  ret double %r
}

; The callee points the iterator at another argument's memory (*it = w): the slot
; receives what `w` holds, so with `w` duplicated it keeps its shadow.
define internal void @point_at(ptr %it, ptr %w) {
entry:
  store ptr %w, ptr %it, align 8
  ret void
}

define double @pick_moved(ptr %knots, ptr %v, double %q) {
entry:
  %it = alloca ptr, align 8
  store ptr %knots, ptr %it, align 8
  call void @point_at(ptr %it, ptr %v)
  %p = load ptr, ptr %it, align 8
  %kv = load double, ptr %p, align 8
  %m = fmul double %kv, %q
  ret double %m
}

define double @grad(ptr %knots, ptr %v, ptr %dv, double %q) {
entry:
  %c = load i32, ptr @enzyme_const, align 4
  %d = load i32, ptr @enzyme_dup, align 4
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @pick, i32 %c, ptr %knots, i32 %d, ptr %v, ptr %dv, double %q)
  %b = call double (ptr, ...) @__enzyme_autodiff(ptr @pick_moved, i32 %c, ptr %knots, i32 %d, ptr %v, ptr %dv, double %q)
  %s = fadd double %a, %b
  ret double %s
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @fz_grad_pick(
; CHECK-NOT: %it.shadow
; CHECK: call void @advance(ptr %it, i64 2)
; CHECK-NOT: icmp ne ptr
; CHECK: ret
; CHECK-LABEL: define internal {{.*}} @fz_grad_pick_moved(
; CHECK: %it.shadow = alloca ptr
; CHECK: call {{.*}} @fz_aug_point_at{{.*}}(ptr %it, ptr %it.shadow, ptr %v, ptr %v.shadow
