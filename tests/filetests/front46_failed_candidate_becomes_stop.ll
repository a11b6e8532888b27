; Decision: a possible target of a call through a pointer (one of several candidates, or
; the candidate of a call made only where the pointer is not null) whose derivative cannot
; be made gets derivative functions that stop the program with the reason, instead of the
; refusal of the whole module (front46: `candidate_stops.rs`).
; Why it matters: candidates are chosen by type. A Rust boxed closure owning a `Vec` makes
; its drop glue a candidate of every other `Box<dyn Fn>`'s drop (the vtable's drop slot, a
; `void (ptr)` called when not null) and its `call_once` shim one of every other boxed
; closure's call; differentiated with another closure's environment they met
; cannot-deduce-type (`drop_in_place<RawVec<f64>>`), in debug builds a missing
; `RawVecInner::deallocate`, and the program was refused for paths it never takes.
; `@drop_owned` plays that drop glue: its derivative cannot be made (`@opaque` has no IR);
; the base binary refuses the module with missing-derivative in `drop_owned`.
;
; (written by hand in rustc -O's shape)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=TEXT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32
@enzyme_const = external global i32
; A vtable of another type, whose drop slot is drop glue: its address is taken.
@vtable.owned = constant [3 x ptr] [ptr @drop_owned, ptr null, ptr null]

; The other type's drop glue: it calls a function with no IR and no rule on a float it
; reads (its derivative cannot be made).
define void @drop_owned(ptr %env) {
  %v = load double, ptr %env
  %w = call double @opaque(double %v)
  store double %w, ptr %env
  ret void
}
declare double @opaque(double)

define double @f(ptr %p, ptr %vt) {
  %v = load double, ptr %p
  %d = load ptr, ptr %vt, !invariant.load !0
  %isnull = icmp eq ptr %d, null
  br i1 %isnull, label %done, label %drop

drop:
  call void %d(ptr %p)
  br label %done

done:
  %r = fmul double %v, %v
  ret double %r
}

define void @grad(ptr %p, ptr %dp, ptr %vt) {
  %e = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %e, ptr %p, ptr %dp, i32 %c, ptr %vt)
  ret void
}

define void @tangent(ptr %p, ptr %dp, ptr %vt) {
  %e = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %e, ptr %p, ptr %dp, i32 %c, ptr %vt)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
!0 = !{}

; The call itself still checks its target and calls the candidate's derivative.
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: call void @__fz_check_shadow(i1 %{{[0-9]+}}, ptr @fz.msg
; CHECK-LABEL: define internal { double, double } @fz_fwd_f(
; CHECK: call void @__fz_check_shadow(i1 %{{[0-9]+}}, ptr @fz.msg
; The candidate's derivatives: a stop, nothing else.
; CHECK-LABEL: define internal void @fz_fwd_drop_owned(
; CHECK-NEXT: stop:
; CHECK-NEXT: call void @__fz_check_shadow(i1 true, ptr @fz.msg
; CHECK-NEXT: unreachable
; CHECK-LABEL: define internal { ptr } @fz_aug_drop_owned(
; CHECK-NEXT: stop:
; CHECK-NEXT: call void @__fz_check_shadow(i1 true, ptr @fz.msg
; CHECK-NEXT: unreachable
; CHECK-LABEL: define internal void @fz_rev_drop_owned(
; CHECK-NEXT: stop:
; CHECK-NEXT: call void @__fz_check_shadow(i1 true, ptr @fz.msg
; CHECK-NEXT: unreachable

; TEXT: @fz.msg{{.*}} = private constant {{.*}}the derivative of `drop_owned` was reached: it is a possible target of a call through a function pointer {{.*}}could not be made (missing-derivative: no derivative for `opaque`
