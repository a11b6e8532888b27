; Decision: a hook the clang plugin renamed `<hook>.fzargs.<digits>` (one digit per
; source argument after the function; `2`: a value the x86-64 ABI passes as two operands,
; a `double _Complex` or a struct of two doubles) has each such value read as two
; parameters with one marker, its tangents (one per lane) as values of the same kind:
; `f(z, dz)` passes `z.re, z.im, dz.re, dz.im` and the derivative gets `x = z.re,
; dx = dz.re, y = z.im, dy = dz.im` (request/reader/two_part.rs). A hook without digits
; reads the operands one at a time, as Enzyme does (`re, dre, im, dim`). A marker before
; the value (`enzyme_const`) applies to both halves; with `enzyme_width, 2` lane k's
; tangent is the k-th complex after the value.
; Why it matters: `__enzyme_fwddiff(f, z, dz)` read positionally is a silently wrong
; tangent (dz.re becomes the tangent of nothing and z.im the tangent of z.re).
;
; double f(double _Complex z) { return creal(z) * cimag(z) + cimag(z) * cimag(z); }
; double g(double _Complex z, double a) { return a * creal(z) * cimag(z); }
; __enzyme_fwddiff(f, z, dz); __enzyme_fwddiff(g, enzyme_const, z, a, da);
; __enzyme_fwddiff(f, enzyme_width, 2, z, dz1, dz2)   (clang-22 -O2, hand-trimmed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32
@enzyme_width = external global i32

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  %s = fmul double %y, %y
  %r = fadd double %m, %s
  ret double %r
}

define double @g(double %x, double %y, double %a) {
entry:
  %m = fmul double %x, %y
  %r = fmul double %m, %a
  ret double %r
}

; CHECK-LABEL: define double @tangent_as_written(
; CHECK: call { double, double } @fz_fwd_f(double %re, double %dre, double %im, double %dim)
define double @tangent_as_written(double %re, double %im, double %dre, double %dim) {
entry:
  %t = call double (ptr, ...) @__enzyme_fwddiff.fzargs.22(ptr @f, double %re, double %im, double %dre, double %dim)
  ret double %t
}

; CHECK-LABEL: define double @tangent_positional(
; CHECK: call { double, double } @fz_fwd_f(double %re, double %dre, double %im, double %dim)
define double @tangent_positional(double %re, double %dre, double %im, double %dim) {
entry:
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %re, double %dre, double %im, double %dim)
  ret double %t
}

; Both halves constant: only `a` has a tangent.
; CHECK-LABEL: define double @const_value(
; CHECK: call { double, double } @fz_fwd_g{{[.0-9]*}}(double %re, double %im, double %a, double %da)
define double @const_value(double %re, double %im, double %a, double %da) {
entry:
  %c = load i32, ptr @enzyme_const
  %t = call double (ptr, ...) @__enzyme_fwddiff.fzargs.1211(ptr @g, i32 %c, double %re, double %im, double %a, double %da)
  ret double %t
}

; Two lanes: the first complex after the value is lane 0's tangent.
; CHECK-LABEL: define { double, double } @two_lanes(
; CHECK: call { double, double, double } @fz_fwd2_f{{[.0-9]*}}(double %re, double %re1, double %re2, double %im, double %im1, double %im2)
define { double, double } @two_lanes(double %re, double %im, double %re1, double %im1, double %re2, double %im2) {
entry:
  %w = load i32, ptr @enzyme_width
  %t = call { double, double } (ptr, ...) @__enzyme_fwddiff.fzargs.11222(ptr @f, i32 %w, i64 2, double %re, double %im, double %re1, double %im1, double %re2, double %im2)
  ret { double, double } %t
}

declare double @__enzyme_fwddiff.fzargs.22(ptr, ...)
declare double @__enzyme_fwddiff.fzargs.1211(ptr, ...)
declare { double, double } @__enzyme_fwddiff.fzargs.11222(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
