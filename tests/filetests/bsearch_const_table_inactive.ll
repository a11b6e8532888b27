; Decision: `bsearch` (no IR: glibc's inline version is a call at -O0) over a `const`
; global table is an inactive call: it reads the key (here the active query's stack
; slot) and constants and returns a pointer to constants, so the derivative copies the
; call and the interval index it gives selects which values' adjoints are updated.
; Before sweep20 the call was refused ("no derivative for `bsearch`", tests/c/896 at
; -O0); a search over memory that is not a constant global goes through the search's
; built-in rule since probe45 (probe45_bsearch_result_in_table_shadow.ll, tests/c/1517),
; which this inactive classification comes before. Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4
@KNOTS = internal constant [4 x double] [double 0.0, double 1.0, double 2.0, double 3.0], align 16

define internal i32 @cmp(ptr %key, ptr %elt) {
entry:
  %x = load double, ptr %key, align 8
  %k0 = load double, ptr %elt, align 8
  %lt = fcmp olt double %x, %k0
  %r = select i1 %lt, i32 -1, i32 0
  ret i32 %r
}

; v[i] * q, with i the interval of q found in the knots.
define double @pick(ptr %v, double %q) {
entry:
  %slot = alloca double, align 8
  store double %q, ptr %slot, align 8
  %hit = call ptr @bsearch(ptr %slot, ptr @KNOTS, i64 3, i64 8, ptr @cmp)
  %hi = ptrtoint ptr %hit to i64
  %off = sub i64 %hi, ptrtoint (ptr @KNOTS to i64)
  %i = ashr exact i64 %off, 3
  %pv = getelementptr inbounds double, ptr %v, i64 %i
  %vi = load double, ptr %pv, align 8
  %q2 = load double, ptr %slot, align 8
  %r = fmul double %vi, %q2
  ret double %r
}

define void @grad(ptr %v, ptr %dv, double %q) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @pick, i32 %0, ptr %v, ptr %dv, double %q)
  ret void
}

declare ptr @bsearch(ptr, ptr, i64, i64, ptr)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @fz_grad_pick(
; CHECK: call ptr @bsearch(ptr {{.*}}, ptr @KNOTS, i64 3, i64 8, ptr @cmp)
; CHECK: fadd {{.*}}double
; CHECK: ret
