; Decision: the same periodic column loop (clang peeled its wrap iterations) in rows
; whose number `n` is known only at run time keeps the right neighbour's mask: `(j + 1 +
; 16i) & 0xffffffff` is exact only if `16i + 16` fits in 32 bits, which no constant or
; counter range proves here, so that index stays as it is and its shadow update stays a
; read-modify-write of its own in the reverse loop. The left neighbour's `ashr exact
; ((j << 32) - (1 << 32)), 29` needs only j's range ([1, 14]): it becomes the element
; `j - 1` of the row and is carried with the centre.
; Why it matters: dropping the mask on an unproven range would read the wrong cell once
; `16i` passes 2^32 - 16 (wrap_index.rs; the proven case:
; wrap_peeled_neighbours_anchored).
;
; enum { M = 16 };
; void st(double *restrict out, const double *restrict x, int n) {
;   for (int i = 0; i < n; i++) {
;     for (int j = 0; j < M; j++) {
;       int jp = j == M - 1 ? 0 : j + 1, jm = j == 0 ? M - 1 : j - 1;
;       out[M * i + j] = x[M * i + jp] + x[M * i + jm] - 4.0 * x[M * i + j] * x[M * i + j];
;     }
;   }
; }
; void grad(double *out, double *dout, double *x, double *dx, int n) {
;   __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx, enzyme_const, n);
; }
; (clang-22 -O2 -ffast-math, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1, i32 noundef %2) {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %5, label %25

5:                                                ; preds = %3
  %6 = zext nneg i32 %2 to i64
  br label %7

7:                                                ; preds = %26, %5
  %8 = phi i64 [ 0, %5 ], [ %40, %26 ]
  %9 = shl nsw i64 %8, 4
  %10 = and i64 %9, 4294967280
  %11 = getelementptr inbounds nuw double, ptr %1, i64 %10
  %12 = getelementptr inbounds nuw i8, ptr %11, i64 8
  %13 = load double, ptr %12, align 8
  %14 = getelementptr inbounds nuw double, ptr %1, i64 %9
  %15 = getelementptr inbounds nuw i8, ptr %14, i64 120
  %16 = load double, ptr %15, align 8
  %17 = fadd fast double %16, %13
  %18 = getelementptr inbounds nuw double, ptr %1, i64 %9
  %19 = load double, ptr %18, align 8
  %20 = fmul fast double %19, %19
  %21 = fmul fast double %20, -4.000000e+00
  %22 = fadd fast double %17, %21
  %23 = getelementptr inbounds nuw double, ptr %0, i64 %9
  store double %22, ptr %23, align 8
  %24 = getelementptr double, ptr %1, i64 %9
  br label %42

25:                                               ; preds = %26, %3
  ret void

26:                                               ; preds = %42
  %27 = and i64 %9, 4294967280
  %28 = getelementptr inbounds nuw double, ptr %1, i64 %27
  %29 = load double, ptr %28, align 8
  %30 = getelementptr i8, ptr %24, i64 112
  %31 = load double, ptr %30, align 8
  %32 = fadd fast double %31, %29
  %33 = or disjoint i64 %44, %9
  %34 = getelementptr inbounds nuw double, ptr %1, i64 %33
  %35 = load double, ptr %34, align 8
  %36 = fmul fast double %35, %35
  %37 = fmul fast double %36, -4.000000e+00
  %38 = fadd fast double %32, %37
  %39 = getelementptr inbounds nuw double, ptr %0, i64 %33
  store double %38, ptr %39, align 8
  %40 = add nuw nsw i64 %8, 1
  %41 = icmp eq i64 %40, %6
  br i1 %41, label %25, label %7

42:                                               ; preds = %7, %42
  %43 = phi i64 [ 1, %7 ], [ %44, %42 ]
  %44 = add nuw nsw i64 %43, 1
  %45 = add nuw i64 %44, %9
  %46 = and i64 %45, 4294967295
  %47 = getelementptr inbounds nuw double, ptr %1, i64 %46
  %48 = load double, ptr %47, align 8
  %49 = shl i64 %43, 32
  %50 = add nsw i64 %49, -4294967296
  %51 = ashr exact i64 %50, 29
  %52 = getelementptr i8, ptr %24, i64 %51
  %53 = load double, ptr %52, align 8
  %54 = fadd fast double %53, %48
  %55 = or disjoint i64 %43, %9
  %56 = getelementptr inbounds nuw double, ptr %1, i64 %55
  %57 = load double, ptr %56, align 8
  %58 = fmul fast double %57, %57
  %59 = fmul fast double %58, -4.000000e+00
  %60 = fadd fast double %54, %59
  %61 = getelementptr inbounds nuw double, ptr %0, i64 %55
  store double %60, ptr %61, align 8
  %62 = icmp eq i64 %44, 15
  br i1 %62, label %26, label %42
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) local_unnamed_addr {
  %6 = load i32, ptr @enzyme_dupnoneed, align 4
  %7 = load i32, ptr @enzyme_dup, align 4
  %8 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %7, ptr noundef %2, ptr noundef %3, i32 noundef %8, i32 noundef %4)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK: %fz.stream = phi double [ 0.000000e+00,
; CHECK: [[M:%[0-9]+]] = and i64 {{%[0-9]+}}, 4294967295
; CHECK-NEXT: [[R:%[0-9]+]] = getelementptr inbounds nuw double, ptr %.shadow1, i64 [[M]]
; CHECK-NEXT: [[OLD:%sh[0-9]+]] = load double, ptr [[R]]
; CHECK-NEXT: [[NEW:%[0-9]+]] = fadd reassoc {{.*}}[[OLD]]
; CHECK-NEXT: store double [[NEW]], ptr [[R]]
; CHECK: %fz.stream.old = load double
; CHECK: {{^}}}
