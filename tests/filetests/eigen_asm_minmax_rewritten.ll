; Decision: the one-instruction inline assembly Eigen 3.4 uses for `pmax`/`pmin` of
; packets under clang (`maxpd $1, $0` with constraints `=x,x,0`; the AVX form
; `vmaxpd $1, $2, $0`) and for AVX `pmadd` (`vfmadd231pd $1, $2, $0`) is rewritten before
; differentiation into what the instruction computes: `r > a ? r : a` as
; `fcmp ogt` + `select` (x86's MAX returns its source operand for NaNs and equal zeros),
; `fcmp olt` for min, `llvm.fma(a, b, c)` for the fused multiply-add. Other assembly stays
; assembly (and an error on a derivative's path).
; Why it matters: Eigen guards these with `EIGEN_COMP_GNUC < 63`, which clang satisfies
; (`__GNUC__` is 4), so every vectorized `maxCoeff()`, `minCoeff()`, `cwiseMax` was refused
; with "cannot differentiate inline assembly" (tests/cxx/123 at every -O level).
;
; double f(const double *x) { // Eigen's redux of pmax over two packets, then a sum
;   __m128d a = load(x), b = load(x + 2), m = pmax(a, b); return m[0] * m[1]; }
; (clang-22 -O2 shape, written by hand)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(ptr %x) {
entry:
  %a = load <2 x double>, ptr %x, align 8
  %p2 = getelementptr inbounds double, ptr %x, i64 2
  %b = load <2 x double>, ptr %p2, align 8
  %m = call <2 x double> asm "maxpd $1, $0", "=x,x,0,~{dirflag},~{fpsr},~{flags}"(<2 x double> %a, <2 x double> %b)
  %n = call <2 x double> asm "vminpd $1, $2, $0", "=x,x,x,~{dirflag},~{fpsr},~{flags}"(<2 x double> %a, <2 x double> %b)
  %s = call <2 x double> asm "vfmadd231pd $1, $2, $0", "=x,x,x,0,~{dirflag},~{fpsr},~{flags}"(<2 x double> %m, <2 x double> %n, <2 x double> %a)
  %m0 = extractelement <2 x double> %s, i64 0
  %m1 = extractelement <2 x double> %s, i64 1
  %r = fmul double %m0, %m1
  ret double %r
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(ptr %x, ptr %x.shadow, double %d_ret)
; CHECK-NOT: asm
; CHECK: [[GT:%.*]] = fcmp ogt <2 x double> %b, %a
; CHECK: [[M:%.*]] = select <2 x i1> [[GT]], <2 x double> %b, <2 x double> %a
; CHECK: [[LT:%.*]] = fcmp olt <2 x double> %b, %a
; CHECK: [[N:%.*]] = select <2 x i1> [[LT]], <2 x double> %b, <2 x double> %a
; CHECK: call {{.*}}<2 x double> @llvm.fma.v2f64(<2 x double> [[M]], <2 x double> [[N]], <2 x double> %a)
; CHECK-NOT: asm
; CHECK: ret void
