; Decision: a derivative that user code calls from 2 to 4 places is made
; `alwaysinline` before the post-AD pipeline (`entry_inline.rs`), within a cap on what each
; caller grows by (ba11, issue 14). Here BA's harness with its two-seed loop unrolled (users' flags
; `-O2 -ffast-math` unroll it): `jacobian` calls the gradient of `proj` twice, seeds (1,0)
; and (0,1), each into a row it has just zeroed. After -O2 the two calls are gone, each copy
; is specialised to its seed (the seed buffer `derr`, an alloca, is folded away) and the
; gradient function itself is deleted. Without the rule LLVM keeps both calls (two call
; sites of a ~150-instruction function are above its inline threshold).
; Why it matters: BA's gradient under users' flags, 39.26M -> 35.06M instructions per call
; (grad/primal 4.74 -> 4.23), ba-matrix 43.40M -> 38.59M (bench/README.md, "ba11"): the
; caller's zeroed rows and constant seeds only fold into an inlined gradient, and the
; call's argument passing, prologue and spills go.
;
; void proj(const double *cam, const double *X, double *err) {
;   double sq = cam[0] * cam[0] + cam[1] * cam[1];
;   double t = sqrt(sq), c = cos(t), s = sin(t);
;   double y0 = X[0] - cam[2], y1 = X[1] - cam[3], y2 = X[2] - cam[4];
;   double z0 = c * y0 - s * y1, z1 = s * y0 + c * y1 + cam[1] * y2, z2 = y2 + cam[0] * y0;
;   double p0 = z0 / z2, p1 = z1 / z2;
;   double L = 1.0 + cam[5] * (p0 * p0 + p1 * p1);
;   err[0] = p0 * L * cam[6];
;   err[1] = p1 * L * cam[6];
; }
; void jacobian(const double *cam, const double *X, double *rows) {
;   for (int k = 0; k < 2; k++) {
;     double err[2], derr[2] = {k == 0, k == 1};
;     memset(rows + 10 * k, 0, 10 * sizeof(double));
;     __enzyme_autodiff((void *)proj, enzyme_dup, cam, rows + 10 * k, enzyme_dup, X,
;                       rows + 10 * k + 7, enzyme_dupnoneed, err, derr);
;   }
; }
; (clang-22 -O2 -ffast-math, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=OPT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4

define dso_local void @proj(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) initializes((0, 16)) %2) {
  %4 = load double, ptr %0, align 8
  %5 = fmul fast double %4, %4
  %6 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %7 = load double, ptr %6, align 8
  %8 = fmul fast double %7, %7
  %9 = fadd fast double %8, %5
  %10 = tail call fast double @llvm.sqrt.f64(double %9)
  %11 = tail call fast double @llvm.cos.f64(double %10)
  %12 = tail call fast double @llvm.sin.f64(double %10)
  %13 = load double, ptr %1, align 8
  %14 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %15 = load double, ptr %14, align 8
  %16 = fsub fast double %13, %15
  %17 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %18 = load double, ptr %17, align 8
  %19 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %20 = load double, ptr %19, align 8
  %21 = fsub fast double %18, %20
  %22 = getelementptr inbounds nuw i8, ptr %1, i64 16
  %23 = load double, ptr %22, align 8
  %24 = getelementptr inbounds nuw i8, ptr %0, i64 32
  %25 = load double, ptr %24, align 8
  %26 = fsub fast double %23, %25
  %27 = fmul fast double %11, %16
  %28 = fmul fast double %21, %12
  %29 = fsub fast double %27, %28
  %30 = fmul fast double %12, %16
  %31 = fmul fast double %21, %11
  %32 = fadd fast double %31, %30
  %33 = fmul fast double %26, %7
  %34 = fadd fast double %32, %33
  %35 = fmul fast double %16, %4
  %36 = fadd fast double %26, %35
  %37 = fdiv fast double %29, %36
  %38 = fdiv fast double %34, %36
  %39 = getelementptr inbounds nuw i8, ptr %0, i64 40
  %40 = load double, ptr %39, align 8
  %41 = fmul fast double %37, %37
  %42 = fmul fast double %38, %38
  %43 = fadd fast double %42, %41
  %44 = fmul fast double %43, %40
  %45 = fadd fast double %44, 1.000000e+00
  %46 = getelementptr inbounds nuw i8, ptr %0, i64 48
  %47 = load double, ptr %46, align 8
  %48 = fmul fast double %37, %47
  %49 = fmul fast double %48, %45
  store double %49, ptr %2, align 8
  %50 = load double, ptr %46, align 8
  %51 = fmul fast double %50, %38
  %52 = fmul fast double %51, %45
  %53 = getelementptr inbounds nuw i8, ptr %2, i64 8
  store double %52, ptr %53, align 8
  ret void
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

declare double @llvm.sqrt.f64(double)

declare double @llvm.cos.f64(double)

declare double @llvm.sin.f64(double)

declare void @llvm.lifetime.end.p0(ptr captures(none))

define dso_local void @jacobian(ptr noundef %0, ptr noundef %1, ptr noundef initializes((0, 80)) %2) local_unnamed_addr {
  %4 = alloca [2 x double], align 16
  %5 = alloca [2 x double], align 16
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  store <2 x double> <double 1.000000e+00, double 0.000000e+00>, ptr %5, align 16
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(80) %2, i8 0, i64 80, i1 false)
  %6 = load i32, ptr @enzyme_dup, align 4
  %7 = getelementptr inbounds nuw i8, ptr %2, i64 56
  %8 = load i32, ptr @enzyme_dupnoneed, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @proj, i32 noundef %6, ptr noundef %0, ptr noundef nonnull %2, i32 noundef %6, ptr noundef %1, ptr noundef nonnull %7, i32 noundef %8, ptr noundef nonnull %4, ptr noundef nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %5)
  store <2 x double> <double 0.000000e+00, double 1.000000e+00>, ptr %5, align 16
  %9 = getelementptr inbounds nuw i8, ptr %2, i64 80
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(80) %9, i8 0, i64 80, i1 false)
  %10 = load i32, ptr @enzyme_dup, align 4
  %11 = getelementptr inbounds nuw i8, ptr %2, i64 136
  %12 = load i32, ptr @enzyme_dupnoneed, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @proj, i32 noundef %10, ptr noundef %0, ptr noundef nonnull %9, i32 noundef %10, ptr noundef %1, ptr noundef nonnull %11, i32 noundef %12, ptr noundef nonnull %4, ptr noundef nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %5)
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  ret void
}

declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg)

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; Without re-optimization the two sites call one gradient function.
; CHECK-LABEL: define dso_local void @jacobian(
; CHECK: call void @fz_grad_proj(
; CHECK: call void @fz_grad_proj(
; CHECK: define internal void @fz_grad_proj(

; OPT-LABEL: define dso_local void @jacobian(
; OPT-NOT: alloca
; OPT-NOT: call {{.*}}@fz_grad_proj(
; OPT: call fast double @llvm.sqrt.f64(
; OPT-NOT: alloca
; OPT-NOT: call {{.*}}@fz_grad_proj(
; OPT: call fast double @llvm.sqrt.f64(
; OPT-NOT: alloca
; OPT-NOT: call {{.*}}@fz_grad_proj(
; OPT: ret void
; OPT-NEXT: {{^}}}
; OPT-NOT: @fz_grad_proj(
