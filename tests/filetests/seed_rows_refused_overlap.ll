; Decision: refused because of aliasing: the first call's row (`buf + 1`, bytes 8..24 of
; `buf`) overlaps what the second call reads as its primal input (`buf`, bytes 0..16), so
; the first call's shadow writes change the second call's input; fusing would run one
; forward sweep on the old values. Same base pointer, so this is decided statically: the
; two calls stay two width-1 calls, in order (seed_fusion.rs).
; Why it matters: a fused call is only right when no lane's writes reach another call's
; primal reads; this is the case where they do.
;
; void f(const double *x, double *y) {
;   y[0] = x[0] * x[1];
;   y[1] = x[0] + x[1] * x[1];
; }
; void jac(double *buf) {
;   double y[2], d0[2] = {1, 0}, d1[2] = {0, 1};
;   __enzyme_autodiff((void *)f, enzyme_dup, buf, buf + 1, enzyme_dupnoneed, y, d0);
;   __enzyme_autodiff((void *)f, enzyme_dup, buf, buf + 3, enzyme_dupnoneed, y, d1);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__const.jac.d0 = private unnamed_addr constant [2 x double] [double 1.000000e+00, double 0.000000e+00], align 16
@__const.jac.d1 = private unnamed_addr constant [2 x double] [double 0.000000e+00, double 1.000000e+00], align 16
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4

define dso_local void @f(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) initializes((0, 16)) %1) {
  %3 = load double, ptr %0, align 8
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %5 = load double, ptr %4, align 8
  %6 = fmul double %3, %5
  store double %6, ptr %1, align 8
  %7 = load double, ptr %0, align 8
  %8 = load double, ptr %4, align 8
  %9 = tail call double @llvm.fmuladd.f64(double %8, double %8, double %7)
  %10 = getelementptr inbounds nuw i8, ptr %1, i64 8
  store double %9, ptr %10, align 8
  ret void
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @jac(ptr noundef %0) local_unnamed_addr {
  %2 = alloca [2 x double], align 16
  %3 = alloca [2 x double], align 16
  %4 = alloca [2 x double], align 16
  call void @llvm.lifetime.start.p0(ptr nonnull %2)
  call void @llvm.lifetime.start.p0(ptr nonnull %3)
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 16 dereferenceable(16) %3, ptr noundef nonnull align 16 dereferenceable(16) @__const.jac.d0, i64 16, i1 false)
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 16 dereferenceable(16) %4, ptr noundef nonnull align 16 dereferenceable(16) @__const.jac.d1, i64 16, i1 false)
  %5 = load i32, ptr @enzyme_dup, align 4
  %6 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %7 = load i32, ptr @enzyme_dupnoneed, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %5, ptr noundef %0, ptr noundef nonnull %6, i32 noundef %7, ptr noundef nonnull %2, ptr noundef nonnull %3)
  %8 = load i32, ptr @enzyme_dup, align 4
  %9 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %10 = load i32, ptr @enzyme_dupnoneed, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %8, ptr noundef %0, ptr noundef nonnull %9, i32 noundef %10, ptr noundef nonnull %2, ptr noundef nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %3)
  call void @llvm.lifetime.end.p0(ptr nonnull %2)
  ret void
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg)

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare void @llvm.lifetime.end.p0(ptr captures(none))

; CHECK-LABEL: define dso_local void @jac(
; CHECK-NOT: fz_grad2
; CHECK: [[R0:%[0-9]+]] = getelementptr inbounds nuw i8, ptr %0, i64 8
; CHECK-NEXT: call void @fz_grad_f(ptr %0, ptr [[R0]],
; CHECK: [[R1:%[0-9]+]] = getelementptr inbounds nuw i8, ptr %0, i64 24
; CHECK-NEXT: call void @fz_grad_f(ptr %0, ptr [[R1]],
; CHECK-NOT: fz_grad2
; CHECK: ret void
