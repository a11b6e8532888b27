; Decision: a read-only global holding no reals, directly or through the globals it
; points at (a binding table of function pointers, flang's type descriptors), is its own
; shadow (common/shadows.rs, read_only_without_reals): the shadow object gets the
; table's address, not null. A null there made the shadow of a dynamic dispatch
; (`call self%method(...)` on a class(...) dummy) load through null: a segmentation
; fault, or at -O2 an endless loop once LLVM took the load as unreachable
; (tests/fortran/27). A table pointing at reals keeps no shadow (rates below).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal {{.*}}@fz_grad_dispatch(
; CHECK: store ptr @tbl, ptr %obj,
; CHECK-NEXT: store ptr @tbl, ptr %obj.shadow,
; CHECK: store ptr @rates, ptr %slot,
; CHECK-NEXT: store ptr null, ptr
; CHECK: ret

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32
@tbl = internal constant { ptr, ptr } { ptr @sq, ptr @name }
@name = internal constant [3 x i8] c"sq\00"
@vals = internal constant [2 x double] [double 1.0, double 2.0]
@rates = internal constant { ptr } { ptr @vals }

define double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @dispatch(ptr %obj, double %x) {
entry:
  store ptr @tbl, ptr %obj, align 8
  %slot = getelementptr i8, ptr %obj, i64 8
  store ptr @rates, ptr %slot, align 8
  %t = load ptr, ptr %obj, align 8
  %f = load ptr, ptr %t, align 8
  %r = call double %f(double %x)
  ret double %r
}

define double @grad(ptr %o, ptr %do, double %x) {
entry:
  %m = load i32, ptr @enzyme_dup, align 4
  %r = tail call double (ptr, ...) @__enzyme_autodiff(ptr nonnull @dispatch, i32 %m, ptr %o, ptr %do, double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
