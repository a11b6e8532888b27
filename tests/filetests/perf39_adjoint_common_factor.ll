; Decision: two adjoint products with a common factor, subtracted (or added), become one
; product of the difference: `gu * v - v * gv` -> `(gu - gv) * v`, and the second pair of
; the same seeds, `gu * w - w * gv`, reuses that difference (one `fsub` of the two
; shadow loads, two products). The pairs come from a primal value used by two outputs
; with opposite signs (`w = u * u` in `w * v - 2u` and `3u - w * v`: the Brusselator's
; reaction term): the reverse sweep adds `gu * v` and `-(gv * v)` into `w`'s adjoint and
; instcombine pairs them. Only adjoint arithmetic is rewritten (the sum or one product
; carries the reverse sweep's mark, `ferrozyme_llvm::builder::ADJOINT_MD`): the user's own
; `a * b - a * c` under `nsz` (`@keep`, not differentiated) keeps its two products
; (`crates/ferrozyme-transform/src/adjoint_factor.rs`).
; Why it matters: per cell of the periodic Brusselator's reverse row loop 46 -> 43
; floating-point operations before code generation, 4 -> 3 after contraction into fused
; multiply-subtracts (bench/README "perf39"). The derivative changes by rounding only:
; how the chain rule's terms of one adjoint are grouped is the AD tool's choice.
;
; extern void __enzyme_autodiff(void *, ...);
; extern int enzyme_dup, enzyme_dupnoneed;
; void react(double *restrict out, const double *restrict x) {
;   double u = x[0], v = x[1];
;   double w = u * u;
;   out[0] = w * v - 2.0 * u;
;   out[1] = 3.0 * u - w * v;
; }
; void grad(double *out, double *dout, const double *x, double *dx) {
;   __enzyme_autodiff((void *)react, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed; the derivative is inlined into `grad`; `@keep` added by hand)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

; CHECK-LABEL: define {{.*}} @grad(
; CHECK: %[[D:[0-9]+]] = fsub nsz contract double %[[GU:sh[0-9.a-z]*]], %[[GV:sh[0-9.a-z]*]]
; CHECK-NEXT: fmul contract double %[[D]], %{{[0-9]+}}
; CHECK-NEXT: fmul contract double %[[D]], %{{[0-9]+}}
; CHECK-NOT: fsub nsz contract double %[[GU]], %[[GV]]
; CHECK: ret void
; CHECK-LABEL: define {{.*}} @keep(
; CHECK-NEXT: %x = fmul nsz double %a, %b
; CHECK-NEXT: %y = fmul nsz double %a, %c
; CHECK-NEXT: %r = fsub nsz double %x, %y

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @react(ptr noalias noundef writeonly captures(none) initializes((0, 16)) %0, ptr noalias noundef readonly captures(none) %1) {
  %3 = load double, ptr %1, align 8
  %4 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %5 = load double, ptr %4, align 8
  %6 = fmul double %3, %3
  %7 = fmul double %3, -2.000000e+00
  %8 = tail call double @llvm.fmuladd.f64(double %6, double %5, double %7)
  store double %8, ptr %0, align 8
  %9 = fneg double %5
  %10 = fmul double %6, %9
  %11 = tail call double @llvm.fmuladd.f64(double %3, double 3.000000e+00, double %10)
  %12 = getelementptr inbounds nuw i8, ptr %0, i64 8
  store double %11, ptr %12, align 8
  ret void
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %6 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @react, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

define double @keep(double %a, double %b, double %c) {
  %x = fmul nsz double %a, %b
  %y = fmul nsz double %a, %c
  %r = fsub nsz double %x, %y
  ret double %r
}
