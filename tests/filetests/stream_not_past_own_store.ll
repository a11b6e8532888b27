; Decision: an in-place stencil (x[i] overwritten from x[i - 1], x[i], x[i + 1]) is
; peeled, but its reverse loop keeps the neighbour updates in memory: the loop also reads
; and zeroes dx[c] (the adjoint of the value it overwrote) with a plain load and store of
; the same shadow, which would read or overwrite a cell whose sum a stream still held in a
; register.
; Why it matters: a stream must never pass the loop's own store to that shadow; this is
; the in-place update of tests/c/580 (streams/mod.rs; the carried case:
; stream_neighbours_carried).
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void ip(double *restrict x) {
;   for (int i = 1; i < 36; i++) x[i] = x[i - 1] * 0.5 + x[i] * x[clampi(i + 1, 36)];
; }
; void grad(double *x, double *dx) { __enzyme_autodiff((void *)ip, enzyme_dup, x, dx); }
; (clang-22 -O2 -ffast-math -fno-vectorize -fno-slp-vectorize -fno-unroll-loops,
; attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @ip(ptr noalias noundef captures(none) %0) {
  br label %3

2:                                                ; preds = %3
  ret void

3:                                                ; preds = %1, %3
  %4 = phi i64 [ 1, %1 ], [ %10, %3 ]
  %5 = getelementptr double, ptr %0, i64 %4
  %6 = getelementptr i8, ptr %5, i64 -8
  %7 = load double, ptr %6, align 8
  %8 = fmul fast double %7, 5.000000e-01
  %9 = load double, ptr %5, align 8
  %10 = add nuw nsw i64 %4, 1
  %11 = trunc nuw nsw i64 %10 to i32
  %12 = tail call noundef range(i32 0, 36) i32 @llvm.umin.i32(i32 %11, i32 35)
  %13 = zext nneg i32 %12 to i64
  %14 = getelementptr inbounds nuw double, ptr %0, i64 %13
  %15 = load double, ptr %14, align 8
  %16 = fmul fast double %15, %9
  %17 = fadd fast double %16, %8
  store double %17, ptr %5, align 8
  %18 = icmp eq i64 %10, 36
  br i1 %18, label %2, label %3
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1) local_unnamed_addr {
  %3 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @ip, i32 noundef %3, ptr noundef %0, ptr noundef %1)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.umin.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_ip(
; CHECK-NOT: fz.stream
; CHECK: {{^}}.peel:
; CHECK-NOT: fz.stream
; CHECK: store double 0.000000e+00, ptr
; CHECK-NOT: fz.stream
; CHECK: {{^}}}
