; Decision: the reverse column loop of a peeled stencil, compiled with -ffast-math,
; runs UPWARDS (streams/upward.rs, issue 14, bruss18): its counter starts at the old last
; value 1, steps +1 and leaves after 35, because its iterations commute: the only phi
; besides the counter is the `reassoc` sum of a's adjoint (only its final value is used
; after the loop), every store is a `reassoc` read-modify-write add into x's shadow or
; the read-and-zero of the seed's own cell dout[c], and the other loads read the
; primal x, which the loop does not write. The carried stream then rises
; (streams/mod.rs): the cell left behind is dx[c - 1] (8 bytes below the anchor), the open
; cells dx[c] and dx[c + 1] are flushed on the exit edge.
; Why it matters: LoopVectorize reverses every vector of a loop that walks memory
; downwards (18 `shufpd` of the 119 instructions of the u/v Brusselator's reverse
; column loop at users' -O2 -ffast-math, bruss17).
; Not taken without fast-math: `stream_upward_refused_exact.ll`.
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x, double a) {
;   for (int i = 1; i < 37; i++)
;     out[i] = a * (x[i - 1] + x[clampi(i + 1, 37)]) - 2.0 * x[i] * x[i];
; }
; double grad(double *out, double *dout, double *x, double *dx, double a) {
;   return __enzyme_autodiff((void *)st, enzyme_dup, out, dout, enzyme_dup, x, dx,
;                            enzyme_out, a);
; }
; (clang-22 -O2 -ffast-math -fno-vectorize -fno-slp-vectorize -fno-unroll-loops,
; attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_out = external local_unnamed_addr global i32, align 4
define dso_local void @st(ptr noalias noundef writeonly captures(none) %out, ptr noalias noundef readonly captures(none) %x, double noundef nofpclass(nan inf) %a) {
entry:
  br label %for.body
for.cond.cleanup:                                 ; preds = %for.body
  ret void
for.body:                                         ; preds = %entry, %for.body
  %indvars.iv = phi i64 [ 1, %entry ], [ %indvars.iv.next, %for.body ]
  %0 = getelementptr double, ptr %x, i64 %indvars.iv
  %arrayidx = getelementptr i8, ptr %0, i64 -8
  %1 = load double, ptr %arrayidx, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %2 = trunc nuw nsw i64 %indvars.iv.next to i32
  %cond6.i = tail call noundef range(i32 0, 37) i32 @llvm.umin.i32(i32 %2, i32 36)
  %idxprom1 = zext nneg i32 %cond6.i to i64
  %arrayidx2 = getelementptr inbounds nuw double, ptr %x, i64 %idxprom1
  %3 = load double, ptr %arrayidx2, align 8
  %add3 = fadd fast double %3, %1
  %mul = fmul fast double %add3, %a
  %4 = load double, ptr %0, align 8
  %5 = fmul fast double %4, %4
  %mul9 = fmul fast double %5, 2.000000e+00
  %sub10 = fsub fast double %mul, %mul9
  %arrayidx12 = getelementptr inbounds nuw double, ptr %out, i64 %indvars.iv
  store double %sub10, ptr %arrayidx12, align 8
  %exitcond.not = icmp eq i64 %indvars.iv.next, 37
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}
define dso_local nofpclass(nan inf) double @grad(ptr noundef %out, ptr noundef %dout, ptr noundef %x, ptr noundef %dx, double noundef nofpclass(nan inf) %a) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_out, align 4
  %call = tail call fast nofpclass(nan inf) double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %0, ptr noundef %out, ptr noundef %dout, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, double noundef nofpclass(nan inf) %a)
  ret double %call
}
declare nofpclass(nan inf) double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr
declare i32 @llvm.umin.i32(i32, i32)

; CHECK-LABEL: define internal { double } @fz_grad_st(
; CHECK: {{^}}fz.stream.flush:
; CHECK-NEXT: [[H:%[0-9]+]] = getelementptr i8, ptr [[A:%[0-9]+]], i64 8
; CHECK: {{^}}rev.for.body:
; CHECK-NEXT: %indvars.iv.rev.0 = phi i64 [ 1, %for.body.peel ], [ [[UP:%[0-9]+]], %rev.for.body ]
; CHECK-NEXT: %d.a.0 = phi double
; CHECK-NEXT: %fz.stream = phi double [ 0.000000e+00,
; CHECK-NEXT: %fz.stream{{[0-9]+}} = phi double [ 0.000000e+00,
; CHECK: [[A]] = getelementptr double, ptr %x.shadow, i64 %indvars.iv.rev.0
; CHECK: [[UP]] = add nsw i64 %indvars.iv.rev.0, 1
; CHECK-NEXT: icmp ne i64 [[UP]], 36
; CHECK: [[R:%[0-9]+]] = getelementptr i8, ptr [[A]], i64 -8
; CHECK-NEXT: %fz.stream.old = load double, ptr [[R]]
; CHECK-NEXT: [[S:%[0-9]+]] = fadd reassoc {{.*}}%fz.stream.old
; CHECK-NEXT: store double [[S]], ptr [[R]]
; CHECK-NEXT: br i1 {{%[0-9]+}}, label %rev.for.body, label %fz.stream.flush
