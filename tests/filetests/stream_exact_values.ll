; Decision: without -ffast-math (no `reassoc`) the reverse neighbour updates of a peeled
; stencil loop (dx[c - 1], dx[c], dx[c + 1]) are still carried, in value form: the
; registers hold the cells' values, not partial sums. The first iteration's cells c, c + 1
; are loaded in the preheader (here the peeled last iteration's block), the entering cell
; c - 1 is loaded by its own add, every add stays in place on the register in the loop's
; order (an add of c reads the phi that add of c - 1 left in the previous iteration), the
; cell left behind (c + 1) is stored, not added, and the two cells still open are stored
; on the exit edge (`fz.stream.flush`). The adds move to the end of the iteration, cell
; after cell from the entering one (c - 1, c, c + 1): only adds of different cells change
; places, and LoopVectorize takes the phis as fixed-order recurrences.
; Why it matters: the same operands in the same order, so the derivative is bit-identical
; to the scatter's, while the loop-carried memory dependences become register
; recurrences (streams/values.rs; the reassoc form: stream_neighbours_carried; refused:
; stream_exact_refused_other_add).
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x) {
;   for (int i = 1; i < 37; i++)
;     out[i] = x[i - 1] + x[clampi(i + 1, 37)] - 2.0 * x[i] * x[i];
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dup, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
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
  %15 = fadd double %8, %14
  %16 = load double, ptr %6, align 8
  %17 = fmul double %16, -2.000000e+00
  %18 = tail call double @llvm.fmuladd.f64(double %17, double %16, double %15)
  %19 = getelementptr inbounds nuw double, ptr %0, i64 %5
  store double %18, ptr %19, align 8
  %20 = icmp eq i64 %9, 37
  br i1 %20, label %3, label %4
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.umin.i32(i32, i32)


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK: {{^}}.peel:
; CHECK: %[[A0:.*]] = getelementptr double, ptr %.shadow1, i64 35
; CHECK: %[[F0:fz.cell.first[0-9]*]] = load double, ptr %[[A0]], align 8
; CHECK: %[[P1:[0-9]+]] = getelementptr i8, ptr %[[A0]], i64 8
; CHECK: %[[F1:fz.cell.first[0-9]*]] = load double, ptr %[[P1]], align 8
; CHECK: {{^}}fz.stream.flush:
; CHECK: store double %[[LEFT:[0-9]+]], ptr %{{[0-9]+}}, align 8
; CHECK: store double %[[MID:[0-9]+]], ptr %{{[0-9]+}}, align 8
; CHECK: {{^}}rev.{{[0-9]+}}:
; CHECK: %[[C0:fz.cell[0-9]*]] = phi double [ %[[F0]], %.peel ], [ %[[LEFT]], %rev.{{[0-9]+}} ]
; CHECK: %[[C1:fz.cell[0-9]*]] = phi double [ %[[F1]], %.peel ], [ %[[MID]], %rev.{{[0-9]+}} ]
; CHECK-NOT: store double %{{[0-9]+}}, ptr %{{[0-9]+}}, align 8, !noalias
; CHECK: %[[AN:[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 8
; CHECK: %[[AL:[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 -8
; CHECK: %[[OLD:sh[0-9]+]] = load double, ptr %[[AL]], align 8
; CHECK-NEXT: %[[LEFT]] = fadd nsz contract double %[[OLD]], %[[SH:sh[0-9]+]]
; CHECK-NEXT: %[[MID]] = fadd nsz contract double %[[C0]], %{{[0-9]+}}
; CHECK-NEXT: %[[R:[0-9]+]] = fadd nsz contract double %[[C1]], %[[SH]]
; CHECK-NEXT: store double %[[R]], ptr %[[AN]], align 8
; CHECK-NOT: store double
; CHECK: br i1 %{{[0-9]+}}, label %rev.{{[0-9]+}}, label %fz.stream.flush
; CHECK: {{^}}}
