; Decision: after the pipeline, a one-block reverse loop that carries an adjoint sum in a
; register (`d = d + t`, the step marked as the reverse sweep's, the phi read by nothing
; else, the loop's only exit entering a block of its own) has its body doubled into
; `<loop>.second` and the sum split in two: the first copy adds to the old phi, the
; second to a new phi `%fz.split` that starts at -0.0 (the exact identity of fadd; +0.0,
; as here, when the old sum starts at +0.0: then no partial sum can be -0.0), and
; the exit block adds the two partial sums once (`%fz.split.rest` is the second sum as
; either copy left it). Each copy keeps its own exit test (no remainder loop). The
; primal's own reduction (`sumsq`) carries no adjoint mark and keeps its single chain
; (`crates/ferrozyme-transform/src/adjoint_split.rs`).
; Why it matters: the reverse of a column reduction (GMM's triangle `out[r] += L[t] *
; x[c]`) is bound by one dependent addition per trip (4 cycles at rocketlake, the
; forward loop ~1); two interleaved sums halve that path (llvm-mca 4.06 -> 2.5 cycles
; per trip on GMM's row loop). The derivative changes by rounding only: how the chain
; rule's contributions to one adjoint are grouped is the AD tool's choice (bench/README
; "gmm13", as `adjoint_chain.rs` for products), not an expression of the user's program.
;
; extern double __enzyme_autodiff(void *, ...);
; extern int enzyme_dup, enzyme_const;
; void axpy(long n, double x, const double *L, double *out) {
;   long i = 0;
;   do out[i] += L[i] * x; while (++i < n);
; }
; double sumsq(long n, const double *a) {
;   double s = 0.0;
;   long i = 0;
;   do s += a[i] * a[i]; while (++i < n);
;   return s;
; }
; double g(long n, double x, const double *L, double *dL, double *out, double *dout) {
;   return __enzyme_autodiff((void *)axpy, enzyme_const, n, x, enzyme_dup, L, dL,
;                            enzyme_dup, out, dout);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed; the derivative is inlined into `g`)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

; CHECK-LABEL: define {{.*}} @sumsq(
; CHECK-NOT: fz.split
; CHECK-LABEL: define {{.*}} @g(
; CHECK: [[EXIT:rev[.0-9a-z]*]]: {{.*}}; preds = %[[LOOP:rev[.0-9a-z]*]].second, %[[LOOP]]{{$}}
; CHECK-NEXT: %fz.split.rest = phi double [ %fz.split, %[[LOOP]] ], [ %[[S2:[0-9]+]], %[[LOOP]].second ]
; CHECK-NEXT: fadd nsz contract double %[[S1:[0-9]+]], %fz.split.rest
; CHECK: [[LOOP]]:
; CHECK-NEXT: %fz.split = phi double [ 0.000000e+00, %{{.*}} ], [ %[[S2]], %[[LOOP]].second ]
; CHECK-NEXT: %[[D:.*]] = phi double [ %[[S1]], %[[LOOP]].second ], [ 0.000000e+00, %{{.*}} ]
; CHECK: %[[S1]] = fadd nsz contract double %[[D]], %{{[0-9]+}}
; CHECK: br i1 %{{.*}}, label %[[EXIT]], label %[[LOOP]].second
; CHECK: [[LOOP]].second:
; CHECK: %[[S2]] = fadd nsz contract double %fz.split, %{{[0-9]+}}
; CHECK: br i1 %{{.*}}, label %[[EXIT]], label %[[LOOP]]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @axpy(i64 noundef %0, double noundef %1, ptr noundef readonly captures(none) %2, ptr noundef captures(none) %3) {
  %5 = tail call i64 @llvm.smax.i64(i64 %0, i64 1)
  br label %6

6:                                                ; preds = %6, %4
  %7 = phi i64 [ 0, %4 ], [ %13, %6 ]
  %8 = getelementptr inbounds nuw double, ptr %2, i64 %7
  %9 = load double, ptr %8, align 8
  %10 = getelementptr inbounds nuw double, ptr %3, i64 %7
  %11 = load double, ptr %10, align 8
  %12 = tail call double @llvm.fmuladd.f64(double %9, double %1, double %11)
  store double %12, ptr %10, align 8
  %13 = add nuw nsw i64 %7, 1
  %14 = icmp eq i64 %13, %5
  br i1 %14, label %15, label %6

15:                                               ; preds = %6
  ret void
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local double @sumsq(i64 noundef %0, ptr noundef readonly captures(none) %1) local_unnamed_addr {
  %3 = tail call i64 @llvm.smax.i64(i64 %0, i64 1)
  br label %4

4:                                                ; preds = %4, %2
  %5 = phi double [ 0.000000e+00, %2 ], [ %9, %4 ]
  %6 = phi i64 [ 0, %2 ], [ %10, %4 ]
  %7 = getelementptr inbounds nuw double, ptr %1, i64 %6
  %8 = load double, ptr %7, align 8
  %9 = tail call double @llvm.fmuladd.f64(double %8, double %8, double %5)
  %10 = add nuw nsw i64 %6, 1
  %11 = icmp eq i64 %10, %3
  br i1 %11, label %12, label %4

12:                                               ; preds = %4
  ret double %9
}

define dso_local double @g(i64 noundef %0, double noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr noundef %5) local_unnamed_addr {
  %7 = load i32, ptr @enzyme_const, align 4
  %8 = load i32, ptr @enzyme_dup, align 4
  %9 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @axpy, i32 noundef %7, i64 noundef %0, double noundef %1, i32 noundef %8, ptr noundef %2, ptr noundef %3, i32 noundef %8, ptr noundef %4, ptr noundef %5)
  ret double %9
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i64 @llvm.smax.i64(i64, i64)

