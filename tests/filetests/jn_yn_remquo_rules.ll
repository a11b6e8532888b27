; Decision: Bessel functions of integer order have the rule
; d/dx jn(n, x) = (jn(n - 1, x) - jn(n + 1, x)) / 2 (likewise yn), lowered to the C
; library's `jn`/`yn` with the order converted back to `int` (saturating: `jn(INT_MAX, x)`
; asks for order INT_MAX, not poison); the order gets no
; derivative. `remquo` has remainder's partials (the quotient bits it writes through its
; `int *` carry none), `nextafter` 1 in x and 0 in y, `logb` 0.
; Why it matters: before, each call was a missing-derivative error.
;
; double f(double x, int n) { int q; return jn(n, x) + yn(2, x) + remquo(x, 1.3, &q)
;                                     + nextafter(x, 0.0) + logb(x); }
; double grad(double x, int n) { return __enzyme_autodiff((void *)f, x, enzyme_const, n); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

@enzyme_const = external global i32

define dso_local double @f(double noundef %0, i32 noundef %1) {
  %3 = alloca i32, align 4
  %4 = tail call double @jn(i32 noundef %1, double noundef %0)
  %5 = tail call double @yn(i32 noundef 2, double noundef %0)
  %6 = fadd double %4, %5
  %7 = call double @remquo(double noundef %0, double noundef 1.300000e+00, ptr noundef nonnull %3)
  %8 = fadd double %6, %7
  %9 = tail call double @nextafter(double noundef %0, double noundef 0.000000e+00)
  %10 = fadd double %8, %9
  %11 = tail call double @logb(double noundef %0)
  %12 = fadd double %10, %11
  ret double %12
}

declare double @jn(i32 noundef, double noundef)
declare double @yn(i32 noundef, double noundef)
declare double @remquo(double noundef, double noundef, ptr noundef)
declare double @nextafter(double noundef, double noundef)
declare double @logb(double noundef)

define dso_local double @grad(double noundef %0, i32 noundef %1) local_unnamed_addr {
  %3 = load i32, ptr @enzyme_const, align 4
  %4 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, double noundef %0, i32 noundef %3, i32 noundef %1)
  ret double %4
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal { double } @fz_grad_f(double %0, i32 %1, double %d_ret)
; CHECK: call double @remquo(
; CHECK: rev.:
; CHECK: %[[Y1:[0-9]+]] = call i32 @llvm.fptosi.sat.i32.f64(double 1.000000e+00)
; CHECK: call double @yn(i32 %[[Y1]], double %0)
; CHECK: %[[Y3:[0-9]+]] = call i32 @llvm.fptosi.sat.i32.f64(double 3.000000e+00)
; CHECK: call double @yn(i32 %[[Y3]], double %0)
; CHECK: %[[N:[0-9]+]] = sitofp i32 %1 to double
; CHECK: %[[LO:[0-9]+]] = fsub double %[[N]], 1.000000e+00
; CHECK: %[[K:[0-9]+]] = call i32 @llvm.fptosi.sat.i32.f64(double %[[LO]])
; CHECK: call double @jn(i32 %[[K]], double %0)
; CHECK-NOT: call double @logb
; CHECK-NOT: call double @nextafter
; CHECK: ret { double }
