; Decision: a vector quotient whose lanes are extracted into selects with a run-time
; condition is select-fed (`reverse/speculated.rs`): its contributions get the strong
; zero lane by lane, `d == 0 ? 0 : d·∂` on `<2 x double>`.
; Why it matters: SLP vectorizes Rust's `if den < f64::EPSILON { 0.0 } else { (x0 - x1) /
; den }` (den = |x0| + |x1|) into `<2 x double>` arithmetic with lane 0 extracted and
; selected away at x = 0: the unselected quotient's adjoint is 0 and its partials are
; 1/0, so the gradient was NaN where the function is locally constant (rust31,
; tests/rust-probe/src/styles31.rs `eps_guards`).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @rel(ptr %x) {
entry:
  %v = load <2 x double>, ptr %x, align 8
  %a = call <2 x double> @llvm.fabs.v2f64(<2 x double> %v)
  %ash = shufflevector <2 x double> %a, <2 x double> poison, <2 x i32> <i32 1, i32 poison>
  %den = fadd <2 x double> %a, %ash
  %den0 = extractelement <2 x double> %den, i64 0
  %tiny = fcmp olt double %den0, 0x3CB0000000000000
  %vsh = shufflevector <2 x double> %v, <2 x double> poison, <2 x i32> <i32 1, i32 poison>
  %num = fsub <2 x double> %v, %vsh
  %q = fdiv <2 x double> %num, %den
  %q0 = extractelement <2 x double> %q, i64 0
  %r = select i1 %tiny, double 0.000000e+00, double %q0
  ret double %r
}

define void @grad(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @rel, ptr %x, ptr %dx)
  ret void
}

declare <2 x double> @llvm.fabs.v2f64(<2 x double>)
declare void @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_rel(
; CHECK: [[Z:%.*]] = fcmp oeq <2 x double> [[D:%.*]], zeroinitializer
; CHECK: select <2 x i1> [[Z]], <2 x double> zeroinitializer, <2 x double>
