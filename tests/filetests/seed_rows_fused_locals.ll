; Decision: two `__enzyme_autodiff` calls of one function with the same primal argument
; (`x`, a local copy), differing only in their row and seed, where every shadow, seed and
; primal pointer is a distinct local `alloca` whose address goes nowhere else, are fused
; in place into one width-2 call (`fz_grad2_f`, lanes r0/r1, seeds d0/d1), without a
; run-time test: distinct allocas cannot overlap (seed_fusion.rs).
; Why it matters: one forward sweep serves both rows of the Jacobian (ba13: BA's forward
; chain sqrt -> sincos -> division is latency-bound and ran once per row).
;
; void f(const double *x, double *y) {
;   y[0] = x[0] * x[1];
;   y[1] = x[0] + x[1] * x[1];
; }
; void jac(const double *xin, double *J) {
;   double x[2] = {xin[0], xin[1]}, r0[2] = {0, 0}, r1[2] = {0, 0}, y[2];
;   double d0[2] = {1, 0}, d1[2] = {0, 1};
;   __enzyme_autodiff((void *)f, enzyme_dup, x, r0, enzyme_dupnoneed, y, d0);
;   __enzyme_autodiff((void *)f, enzyme_dup, x, r1, enzyme_dupnoneed, y, d1);
;   J[0] = r0[0]; J[1] = r0[1]; J[2] = r1[0]; J[3] = r1[1];
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

define dso_local void @jac(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) initializes((0, 32)) %1) local_unnamed_addr {
  %3 = alloca [2 x double], align 16
  %4 = alloca [2 x double], align 16
  %5 = alloca [2 x double], align 16
  %6 = alloca [2 x double], align 16
  %7 = alloca [2 x double], align 16
  %8 = alloca [2 x double], align 16
  call void @llvm.lifetime.start.p0(ptr nonnull %3)
  %9 = load <2 x double>, ptr %0, align 8
  store <2 x double> %9, ptr %3, align 16
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(16) %4, i8 0, i64 16, i1 false)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(16) %5, i8 0, i64 16, i1 false)
  call void @llvm.lifetime.start.p0(ptr nonnull %6)
  call void @llvm.lifetime.start.p0(ptr nonnull %7)
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 16 dereferenceable(16) %7, ptr noundef nonnull align 16 dereferenceable(16) @__const.jac.d0, i64 16, i1 false)
  call void @llvm.lifetime.start.p0(ptr nonnull %8)
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 16 dereferenceable(16) %8, ptr noundef nonnull align 16 dereferenceable(16) @__const.jac.d1, i64 16, i1 false)
  %10 = load i32, ptr @enzyme_dup, align 4
  %11 = load i32, ptr @enzyme_dupnoneed, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %10, ptr noundef nonnull %3, ptr noundef nonnull %4, i32 noundef %11, ptr noundef nonnull %6, ptr noundef nonnull %7)
  %12 = load i32, ptr @enzyme_dup, align 4
  %13 = load i32, ptr @enzyme_dupnoneed, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %12, ptr noundef nonnull %3, ptr noundef nonnull %5, i32 noundef %13, ptr noundef nonnull %6, ptr noundef nonnull %8)
  %14 = load <2 x double>, ptr %4, align 16
  store <2 x double> %14, ptr %1, align 8
  %15 = getelementptr inbounds nuw i8, ptr %1, i64 16
  %16 = load <2 x double>, ptr %5, align 16
  store <2 x double> %16, ptr %15, align 8
  call void @llvm.lifetime.end.p0(ptr nonnull %8)
  call void @llvm.lifetime.end.p0(ptr nonnull %7)
  call void @llvm.lifetime.end.p0(ptr nonnull %6)
  call void @llvm.lifetime.end.p0(ptr nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %3)
  ret void
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg)

declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg)

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare void @llvm.lifetime.end.p0(ptr captures(none))

; CHECK-LABEL: define dso_local void @jac(
; CHECK-NOT: fz.seed
; CHECK: call void @fz_grad2_f(ptr [[X:%[0-9]+]], ptr [[R0:%[0-9]+]], ptr [[R1:%[0-9]+]], ptr [[Y:%[0-9]+]], ptr [[D0:%[0-9]+]], ptr [[D1:%[0-9]+]])
; CHECK-NOT: call void @fz_grad
; CHECK: load <2 x double>, ptr [[R0]]
; CHECK: load <2 x double>, ptr [[R1]]
; CHECK: ret void
