; Decision: in a 1-D periodic loop by branches, after clang peeled the wrap iterations,
; the left neighbour is a byte offset `gep i8, x, ashr exact ((j << 32) - (1 << 32)), 29`
; next to `gep double, x, j` and `gep double, x, j + 1`. With j in [1, 35] the shift pair
; is `8 * (j - 1)` exactly; a GEP through which only doubles are loaded becomes `gep
; double, x, j - 1`, the three addresses offsets of it (byte forms from one root), and the
; reverse loop carries the stream of x's shadow.
; Why it matters: without it the 1-D periodic stencil's reverse kept three
; read-modify-write adds per cell (wrap_index.rs: `sign_extension`, `typed_gep`,
; `anchor_bytes`; the 2-D case: wrap_peeled_neighbours_anchored).
;
; enum { N = 37 };
; void st(double *restrict out, const double *restrict x) {
;   for (int i = 0; i < N; i++) {
;     int ip, im;
;     if (i == N - 1) ip = 0; else ip = i + 1;
;     if (i == 0) im = N - 1; else im = i - 1;
;     out[i] = x[im] + x[ip] - 2.0 * x[i] * x[i];
;   }
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -ffast-math, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) initializes((0, 8)) %0, ptr noalias noundef readonly captures(none) %1) {
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 288
  %4 = load double, ptr %3, align 8
  %5 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %6 = load double, ptr %5, align 8
  %7 = fadd fast double %6, %4
  %8 = load double, ptr %1, align 8
  %9 = fmul fast double %8, %8
  %10 = fmul fast double %9, -2.000000e+00
  %11 = fadd fast double %7, %10
  store double %11, ptr %0, align 8
  br label %23

12:                                               ; preds = %23
  %13 = getelementptr inbounds nuw i8, ptr %1, i64 280
  %14 = load double, ptr %13, align 8
  %15 = load double, ptr %1, align 8
  %16 = fadd fast double %15, %14
  %17 = getelementptr inbounds nuw double, ptr %1, i64 %25
  %18 = load double, ptr %17, align 8
  %19 = fmul fast double %18, %18
  %20 = fmul fast double %19, -2.000000e+00
  %21 = fadd fast double %16, %20
  %22 = getelementptr inbounds nuw double, ptr %0, i64 %25
  store double %21, ptr %22, align 8
  ret void

23:                                               ; preds = %2, %23
  %24 = phi i64 [ 1, %2 ], [ %25, %23 ]
  %25 = add nuw nsw i64 %24, 1
  %26 = shl i64 %24, 32
  %27 = add nsw i64 %26, -4294967296
  %28 = ashr exact i64 %27, 29
  %29 = getelementptr inbounds i8, ptr %1, i64 %28
  %30 = load double, ptr %29, align 8
  %31 = getelementptr inbounds nuw double, ptr %1, i64 %25
  %32 = load double, ptr %31, align 8
  %33 = fadd fast double %32, %30
  %34 = getelementptr inbounds nuw double, ptr %1, i64 %24
  %35 = load double, ptr %34, align 8
  %36 = fmul fast double %35, %35
  %37 = fmul fast double %36, -2.000000e+00
  %38 = fadd fast double %33, %37
  %39 = getelementptr inbounds nuw double, ptr %0, i64 %24
  store double %38, ptr %39, align 8
  %40 = icmp eq i64 %25, 36
  br i1 %40, label %12, label %23
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %6 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK: {{^}}fz.stream.flush:
; CHECK: %fz.stream = phi double [ 0.000000e+00,
; CHECK-NEXT: %fz.stream{{[0-9]+}} = phi double [ 0.000000e+00,
; CHECK-NOT: ashr
; CHECK: [[A:%[0-9]+]] = getelementptr inbounds double, ptr %.shadow1, i64
; CHECK-NEXT: getelementptr inbounds nuw i8, ptr [[A]], i64 8
; CHECK-NEXT: getelementptr inbounds nuw i8, ptr [[A]], i64 16
; CHECK: %fz.stream.old = load double
; CHECK: {{^}}}
