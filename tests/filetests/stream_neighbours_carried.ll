; Decision: in the reverse of a peeled stencil loop (peel.rs), the read-modify-write adds
; into one shadow at constant offsets from an address that moves by one element per
; iteration (dx[c - 1], dx[c], dx[c + 1]) become carried streams: two phis hold the sums
; of the cells the loop has not left yet, the cell left behind gets one load/add/store
; per iteration, and the two cells still open at the end are added in `fz.stream.flush`
; on the exit edge. Since bruss18 the reverse loop runs upwards (its iterations commute:
; streams/upward.rs, `stream_upward_reversed.ll`), so the window rises: the cell left
; behind is dx[c - 1], the open ones dx[c] and dx[c + 1]. Taken because every add has
; `reassoc` (-ffast-math), x is `restrict` (its shadow is reached by no other pointer)
; and the loop's only other accesses are another shadow and primal memory.
; Why it matters: three adds to memory per cell per iteration become one, and the
; loop-carried memory dependence a register recurrence: the Brusselator's gradient with
; users' flags 120.7k -> 112.9k instructions, harness 133.3k -> 130.3k (streams/mod.rs).
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x) {
;   for (int i = 1; i < 37; i++)
;     out[i] = x[i - 1] + x[clampi(i + 1, 37)] - 2.0 * x[i] * x[i];
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dup, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -ffast-math -fno-vectorize -fno-slp-vectorize -fno-unroll-loops,
; attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  br label %4

3:                                                ; preds = %4
  ret void

4:                                                ; preds = %2, %4
  %5 = phi i64 [ 1, %2 ], [ %9, %4 ]
  %6 = getelementptr double, ptr %1, i64 %5
  %7 = getelementptr i8, ptr %6, i64 -8
  %8 = load double, ptr %7, align 8
  %9 = add nuw nsw i64 %5, 1
  %10 = trunc nuw nsw i64 %9 to i32
  %11 = tail call noundef range(i32 0, 37) i32 @llvm.umin.i32(i32 %10, i32 36)
  %12 = zext nneg i32 %11 to i64
  %13 = getelementptr inbounds nuw double, ptr %1, i64 %12
  %14 = load double, ptr %13, align 8
  %15 = fadd fast double %14, %8
  %16 = load double, ptr %6, align 8
  %17 = fmul fast double %16, %16
  %18 = fmul fast double %17, -2.000000e+00
  %19 = fadd fast double %15, %18
  %20 = getelementptr inbounds nuw double, ptr %0, i64 %5
  store double %19, ptr %20, align 8
  %21 = icmp eq i64 %9, 37
  br i1 %21, label %3, label %4
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.umin.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK: {{^}}fz.stream.flush:
; CHECK-NEXT: [[H:%[0-9]+]] = getelementptr i8, ptr [[A:%[0-9]+]], i64 8
; CHECK-NEXT: load double, ptr [[H]]
; CHECK: load double, ptr [[A]]
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK-NEXT: %.rev.0 = phi i64 [ 1,
; CHECK-NEXT: %fz.stream = phi double [ 0.000000e+00,
; CHECK-NEXT: %fz.stream{{[0-9]+}} = phi double [ 0.000000e+00,
; CHECK: [[A]] = getelementptr double, ptr %.shadow1, i64 %.rev.0
; CHECK: add nsw i64 %.rev.0, 1
; CHECK-NOT: load double, ptr %.shadow1
; CHECK: [[R:%[0-9]+]] = getelementptr i8, ptr [[A]], i64 -8
; CHECK-NEXT: %fz.stream.old = load double, ptr [[R]]
; CHECK-NEXT: [[S:%[0-9]+]] = fadd reassoc {{.*}}%fz.stream.old
; CHECK-NEXT: store double [[S]], ptr [[R]]
; CHECK-NEXT: br i1 {{%[0-9]+}}, label %rev.{{[0-9]+}}, label %fz.stream.flush
