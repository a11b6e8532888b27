; Decision: `lgamma` and `tgamma` have derivative rules through the digamma function,
; `digamma(x)` and `r*digamma(x)`, lowered to a call of `__fz_digamma`, a definition of
; Ferrozyme's own (crates/ferrozyme-transform/src/libdefs/digamma.c) linked into the
; module once, with internal linkage; the Bessel function `j0`'s partial `-j1(x)` is a
; call of the C library's `j1` (declared). `tgamma`'s partial reuses the primal result.
; Why it matters: before, each of these calls was a missing-derivative error (Enzyme
; differentiates them); an external `__fz_digamma` would not link, and two modules
; each defining it non-internal would clash.
;
; double f(double x) { return lgamma(x) + tgamma(x) + j0(x); }
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

define dso_local double @f(double noundef %0) {
  %2 = tail call double @lgamma(double noundef %0)
  %3 = tail call double @tgamma(double noundef %0)
  %4 = fadd double %2, %3
  %5 = tail call double @j0(double noundef %0)
  %6 = fadd double %4, %5
  ret double %6
}

declare double @lgamma(double noundef) local_unnamed_addr

declare double @tgamma(double noundef) local_unnamed_addr

declare double @j0(double noundef) local_unnamed_addr

define dso_local double @grad(double noundef %0) local_unnamed_addr {
  %2 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, double noundef %0)
  ret double %2
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal { double } @fz_grad_f(double %0, double %d_ret)
; CHECK: %[[T:[0-9]+]] = tail call double @tgamma(double noundef %0)
; CHECK: rev.:
; CHECK: call double @j1(double %0)
; CHECK: %[[P:[0-9]+]] = call double @__fz_digamma(double %0)
; CHECK: fmul double %[[T]], %[[P]]
; CHECK: call double @__fz_digamma(double %0)
; CHECK: ret { double }
; CHECK: declare double @j1(double)
; CHECK: define internal double @__fz_digamma(double noundef %0)
