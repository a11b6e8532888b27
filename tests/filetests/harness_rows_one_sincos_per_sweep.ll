; Pinned (ba9, issue 14; no new decision, a guard for what BA's gradient time relies on):
; the harness shape of BA's Jacobian, a two-output function with sin and cos of one angle
; under `if (sq != 0)`, differentiated once per seed (1,0), (0,1) into a row the caller
; has just zeroed with memset, the output `enzyme_dupnoneed`. Without optimisation the
; gradient calls cos and sin once each, in its forward sweep, storing both to tape slots
; its reverse sweep reads (no second call). After -O2 (gradient inlined into the loop)
; each sweep still has one cos and one sin (one `sincos` after code generation), and the
; row is not read between the memset and the gradient's stores (the memset's zeros are forwarded
; into the adjoint accumulations, so no store-to-load round trip through the row).
; Why it matters: BA's gradient time is latency-bound (bench/README.md, "ba9"): a second
; sin/cos evaluation or a reload of the row would sit on the exposed dependence chain.
;
; void rot(const double *r, double *out) {
;   double sq = r[0] * r[0] + r[1] * r[1];
;   if (sq != 0.0) {
;     double t = sqrt(sq);
;     double c = cos(t), s = sin(t);
;     out[0] = r[0] * c + r[1] * s;
;     out[1] = (r[1] * c - r[0] * s) / t;
;   } else {
;     out[0] = r[0];
;     out[1] = r[1];
;   }
; }
; void jacobian(const double *r, double *rows) {
;   for (int k = 0; k < 2; k++) {
;     double out[2], dout[2] = {k == 0, k == 1};
;     memset(rows + 2 * k, 0, 2 * sizeof(double));
;     __enzyme_autodiff((void *)rot, enzyme_dup, r, rows + 2 * k, enzyme_dupnoneed, out, dout);
;   }
; }
; (clang-22 -O2 -ffast-math -fno-slp-vectorize -fno-vectorize -fno-unroll-loops,
;  attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=OPT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_dupnoneed = external global i32, align 4

define dso_local void @rot(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) initializes((0, 16)) %1) {
  %3 = load double, ptr %0, align 8
  %4 = fmul fast double %3, %3
  %5 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %6 = load double, ptr %5, align 8
  %7 = fmul fast double %6, %6
  %8 = fadd fast double %7, %4
  %9 = fcmp fast une double %8, 0.000000e+00
  br i1 %9, label %10, label %23

10:                                               ; preds = %2
  %11 = tail call fast double @llvm.sqrt.f64(double %8)
  %12 = tail call fast double @llvm.cos.f64(double %11)
  %13 = tail call fast double @llvm.sin.f64(double %11)
  %14 = fmul fast double %12, %3
  %15 = fmul fast double %13, %6
  %16 = fadd fast double %14, %15
  store double %16, ptr %1, align 8
  %17 = load double, ptr %5, align 8
  %18 = fmul fast double %17, %12
  %19 = load double, ptr %0, align 8
  %20 = fmul fast double %19, %13
  %21 = fsub fast double %18, %20
  %22 = fdiv fast double %21, %11
  br label %25

23:                                               ; preds = %2
  store double %3, ptr %1, align 8
  %24 = load double, ptr %5, align 8
  br label %25

25:                                               ; preds = %23, %10
  %26 = phi double [ %22, %10 ], [ %24, %23 ]
  %27 = getelementptr inbounds nuw i8, ptr %1, i64 8
  store double %26, ptr %27, align 8
  ret void
}
declare void @llvm.lifetime.start.p0(ptr captures(none))
declare double @llvm.sqrt.f64(double)
declare double @llvm.cos.f64(double)
declare double @llvm.sin.f64(double)
declare void @llvm.lifetime.end.p0(ptr captures(none))
define dso_local void @jacobian(ptr noundef %0, ptr noundef %1) {
  %3 = alloca [2 x double], align 16
  %4 = alloca [2 x double], align 16
  %5 = getelementptr inbounds nuw i8, ptr %4, i64 8
  br label %7

6:                                                ; preds = %7
  ret void

7:                                                ; preds = %2, %7
  %8 = phi double [ 0.000000e+00, %2 ], [ 1.000000e+00, %7 ]
  %9 = phi i1 [ true, %2 ], [ false, %7 ]
  %10 = phi i64 [ 0, %2 ], [ 1, %7 ]
  call void @llvm.lifetime.start.p0(ptr nonnull %3)
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  %11 = trunc nuw nsw i64 %10 to i32
  %12 = xor i32 %11, 1
  %13 = uitofp nneg i32 %12 to double
  store double %13, ptr %4, align 16
  store double %8, ptr %5, align 8
  %14 = shl nuw nsw i64 %10, 4
  %15 = getelementptr inbounds nuw i8, ptr %1, i64 %14
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(16) %15, i8 0, i64 16, i1 false)
  %16 = load i32, ptr @enzyme_dup, align 4
  %17 = load i32, ptr @enzyme_dupnoneed, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @rot, i32 noundef %16, ptr noundef %0, ptr noundef nonnull %15, i32 noundef %17, ptr noundef nonnull %3, ptr noundef nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %3)
  br i1 %9, label %7, label %6, !llvm.loop !0
}
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg)
declare void @__enzyme_autodiff(ptr noundef, ...)

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}

; CHECK-LABEL: define internal void @fz_grad_rot(
; CHECK: [[T:%[0-9]+]] = tail call fast double @llvm.sqrt.f64(
; CHECK: [[C:%[0-9]+]] = tail call fast double @llvm.cos.f64(double [[T]])
; CHECK-NEXT: [[CP:%[0-9]+]] = getelementptr i8, ptr %fz.tape, i64 [[COFF:[0-9]+]]
; CHECK-NEXT: store double [[C]], ptr [[CP]]
; CHECK-NEXT: [[S:%[0-9]+]] = tail call fast double @llvm.sin.f64(double [[T]])
; CHECK-NEXT: [[SP:%[0-9]+]] = getelementptr i8, ptr %fz.tape, i64 [[SOFF:[0-9]+]]
; CHECK-NEXT: store double [[S]], ptr [[SP]]
; CHECK-NOT: @llvm.cos.f64
; CHECK-NOT: @llvm.sin.f64
; CHECK: {{^}}rev.2:
; CHECK-NOT: @llvm.cos.f64
; CHECK-NOT: @llvm.sin.f64
; CHECK: getelementptr i8, ptr %fz.tape, i64 [[SOFF]]
; CHECK-NOT: @llvm.cos.f64
; CHECK-NOT: @llvm.sin.f64
; CHECK: getelementptr i8, ptr %fz.tape, i64 [[COFF]]
; CHECK-NOT: @llvm.cos.f64
; CHECK-NOT: @llvm.sin.f64
; CHECK: {{^}}}

; Since ba13 the two-iteration seed loop is unrolled and its two calls fused into one
; width-2 call behind a run-time test that the rows do not overlap `r` (seed_fusion.rs):
; on the fused path one cos and one sin serve both rows, and the rows are not read.
; OPT-LABEL: define dso_local void @jacobian(
; OPT: br i1 {{.*}}, label %fz.seed_fusion, label %fz.seed_split1
; OPT: {{^}}fz.seed_fusion:
; OPT-NOT: load {{.*}}, ptr %1,
; OPT: tail call fast double @llvm.cos.f64(
; OPT-NEXT: tail call fast double @llvm.sin.f64(
; OPT-NOT: load {{.*}}, ptr %1,
; OPT-NOT: @llvm.cos.f64(
; OPT-NOT: @llvm.sin.f64(
; OPT: store <2 x double> {{.*}}, ptr %1,
; OPT-NOT: @llvm.cos.f64(
; OPT-NOT: @llvm.sin.f64(
; OPT: {{^}}}
