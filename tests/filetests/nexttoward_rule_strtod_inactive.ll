; Decision: `nexttoward(double x, long double y)` takes `nextafter`'s rule (1 in x, 0 in
; the direction) although its direction is an `x86_fp80` (the call fits a rule when an
; argument of another floating type has a zero partial no other partial mentions), and
; `strtod` is inactive: its result is parsed from characters and its end pointer points
; into that string. The adjoint of `f` is d_ret times the `strtod` result (1 from
; `nexttoward`), and `strtod` is called once, in the primal part.
; Why it matters: both were missing-derivative errors (tests/c/671, 672): Enzyme users
; parse coefficients with `strtod` next to active code, and `nexttoward` is C99 libm.
;
; double f(double x, const char *s) { return nexttoward(x, 10.0L) * strtod(s, 0); }
; double grad(double x, const char *s) {
;   return __enzyme_autodiff((void *)f, x, enzyme_const, s); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

define dso_local double @f(double noundef %0, ptr noundef %1) {
  %3 = tail call double @nexttoward(double noundef %0, x86_fp80 noundef 0xK4002A000000000000000)
  %4 = tail call double @strtod(ptr noundef %1, ptr noundef null)
  %5 = fmul double %3, %4
  ret double %5
}

declare double @nexttoward(double noundef, x86_fp80 noundef) local_unnamed_addr

declare double @strtod(ptr noundef, ptr noundef) local_unnamed_addr

define dso_local double @grad(double noundef %0, ptr noundef %1) local_unnamed_addr {
  %3 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, double noundef %0, ptr @enzyme_const, ptr noundef %1)
  ret double %3
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr
@enzyme_const = external global i32

; CHECK-LABEL: define internal { double } @fz_grad_f(double %0, ptr %1, double %d_ret)
; CHECK: call double @nexttoward(double noundef %0, x86_fp80
; CHECK: %[[S:[0-9]+]] = tail call double @strtod(ptr noundef %1, ptr noundef null)
; CHECK: rev.:
; CHECK-NOT: @strtod
; CHECK: fmul double %d_ret, %[[S]]
; CHECK-NOT: @nexttoward
; CHECK: ret { double }
