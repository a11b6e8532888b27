; Values whose only uses pass no derivative: comparisons and float-to-integer conversions.
; (Regression: restrict_to_useful used to walk through a comparison into its operands, so
; `exp(x)` below got an adjoint; zero times exp(800) = inf was NaN in the gradient.)

define double @compared(double %x) {
  %t = call double @exp(double %x)
  %c = fcmp ogt double %t, 2.000000e+00
  %sq = fmul double %x, %x
  %lin = fmul double %x, 3.000000e+00
  %r = select i1 %c, double %sq, double %lin
  ret double %r
}

define double @converted(double %x) {
  %t = call double @exp(double %x)
  %k = fptosi double %t to i32
  %kf = sitofp i32 %k to double
  %r = fmul double %x, %kf
  ret double %r
}

define double @compared_and_returned(double %x) {
  %t = call double @exp(double %x)
  %c = fcmp ogt double %t, 2.000000e+00
  %r = select i1 %c, double %t, double %x
  ret double %r
}

declare double @exp(double)
