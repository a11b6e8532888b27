; Decision: the two-result intrinsics `{T, T} @llvm.sincos(x)` and `{T, T} @llvm.modf(x)`
; (and the library calls `sincos(x, &s, &c)`, `modf(x, &ip)`) are split, in the clone
; being differentiated, into `llvm.sin`/`llvm.cos` and `llvm.trunc` plus an exact
; subtraction (crates/ferrozyme-transform/src/split_math.rs), which have rules: the
; fractional part of modf gets derivative 1, the integral part 0, sincos's parts cos and
; -sin. Vector forms (`<2 x double>`, what the loop vectorizer makes of modf/sincos loops
; under -ffast-math) split the same way, at the vector type.
; Why it matters: before, each was an unsupported-instruction error (`no derivative rule
; for the intrinsic llvm.modf.f64`), and clang emits llvm.modf for every C `modf` call at
; every -O level.
;
; double f(double x) { double s, c, ip; sincos(x, &s, &c); return s * c + modf(x, &ip) + ip; }
; with the modf of a two-lane vector added by hand (what the vectorizer emits), and
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (clang-22 -O2 -ffast-math, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

define dso_local double @f(double noundef %0) {
  %2 = tail call fast { double, double } @llvm.sincos.f64(double %0)
  %3 = extractvalue { double, double } %2, 0
  %4 = extractvalue { double, double } %2, 1
  %5 = fmul fast double %3, %4
  %6 = tail call fast { double, double } @llvm.modf.f64(double %0)
  %7 = extractvalue { double, double } %6, 0
  %8 = extractvalue { double, double } %6, 1
  %9 = fadd fast double %5, %7
  %10 = fadd fast double %9, %8
  %11 = insertelement <2 x double> poison, double %0, i64 0
  %12 = insertelement <2 x double> %11, double %5, i64 1
  %13 = tail call fast { <2 x double>, <2 x double> } @llvm.modf.v2f64(<2 x double> %12)
  %14 = extractvalue { <2 x double>, <2 x double> } %13, 0
  %15 = extractelement <2 x double> %14, i64 1
  %16 = fadd fast double %10, %15
  ret double %16
}

declare { double, double } @llvm.sincos.f64(double)
declare { double, double } @llvm.modf.f64(double)
declare { <2 x double>, <2 x double> } @llvm.modf.v2f64(<2 x double>)

define dso_local double @grad(double noundef %0) local_unnamed_addr {
  %2 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, double noundef %0)
  ret double %2
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal { double } @fz_grad_f(double %0, double %d_ret)
; CHECK: %[[S:[0-9]+]] = call double @llvm.sin.f64(double %0)
; CHECK: %[[C:[0-9]+]] = call double @llvm.cos.f64(double %0)
; CHECK: %[[I:[0-9]+]] = call double @llvm.trunc.f64(double %0)
; CHECK: fsub double %0, %[[I]]
; CHECK: call <2 x double> @llvm.trunc.v2f64(
; CHECK-NOT: @llvm.modf
; CHECK-NOT: @llvm.sincos
; CHECK: rev.:
; CHECK: fneg double %[[S]]
; CHECK: ret { double }
