; Decision: a mutable float global the function reads and writes gets a shadow global
; (`@__fz_shadow_<name>`, internal, zero-initialised) that holds its adjoint; the
; reverse sweep moves adjoints through it exactly as through a `enzyme_dup` buffer. The
; final store to the global (nothing reads memory after it) is moved after the reverse
; sweep, so the forward value of `g_scale` is still the one the loads saw.
; Why it matters: programs keep parameters in globals; without a shadow their
; derivatives would be dropped silently.
;
; double g_scale = 2.0;
; double useglob(double x) {
;   g_scale = g_scale * x;
;   return g_scale * x;
; }
; double grad(double x) { return __enzyme_autodiff((void *)useglob, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g_scale = global double 2.000000e+00, align 8

define double @useglob(double %x) {
entry:
  %0 = load double, ptr @g_scale, align 8
  %mul = fmul double %x, %0
  store double %mul, ptr @g_scale, align 8
  %mul1 = fmul double %x, %mul
  ret double %mul1
}

define double @grad(double %x) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @useglob, double %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK: @__fz_shadow_g_scale = internal global double 0.000000e+00
; CHECK-LABEL: define internal { double } @fz_grad_useglob(
; CHECK-LABEL: {{^}}entry:
; CHECK: [[G:%.*]] = load double, ptr @g_scale
; CHECK-NOT: store double {{.*}}, ptr @g_scale
; CHECK: br label %rev.entry
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: load double, ptr @__fz_shadow_g_scale
; CHECK: store double 0.000000e+00, ptr @__fz_shadow_g_scale
; CHECK: store double {{%.*}}, ptr @__fz_shadow_g_scale
; CHECK: store double {{%.*}}, ptr @g_scale
; CHECK: ret { double }
; CHECK: {{^}}}
