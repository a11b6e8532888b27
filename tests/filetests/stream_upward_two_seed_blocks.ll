; Decision: a reverse column loop that reads and zeroes TWO seed cells of one object per
; iteration (out[i] and out[40 + i]: the du/dv blocks of the periodic Brusselator's one
; `out`, issue 14, brus26) runs UPWARDS when no two iterations touch a common byte and
; the cells are blocks apart over the counter's span (streams/own_cells.rs): byte
; offsets 8 c and 8 c + 320 from `out`, c in 1 .. 35, so the first block reaches bytes
; [8, 288) and the second [328, 608). `near` writes out[2 + i] instead: iteration i + 2
; overwrites what iteration i wrote (bytes 8 c + 16), so its reverse must zero that seed
; before iteration i reads it and its loop keeps counting down from 35.
; Why it matters: before brus26 the upward rule took one plain-stored address per
; object, and the periodic-if Brusselator's reverse loop counted down at users'
; -O2 -ffast-math (LoopVectorize reverses every vector of it: 96.2k -> 86.7k
; instructions per gradient with the loop rising, bench/README "brus26").
; One seed block: stream_upward_reversed.ll; no fast-math: stream_upward_refused_exact.ll.
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x, double a) {
;   for (int i = 1; i < 37; i++) {
;     out[i] = a * (x[i - 1] + x[clampi(i + 1, 37)]) - 2.0 * x[i] * x[i];
;     out[40 + i] = x[i] * x[i - 1] + a * x[i];   /* near: out[2 + i] */
;   }
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
for.cond.cleanup:
  ret void
for.body:
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
  %6 = fadd fast double %1, %a
  %add22 = fmul fast double %4, %6
  %arrayidx25 = getelementptr inbounds nuw i8, ptr %arrayidx12, i64 320
  store double %add22, ptr %arrayidx25, align 8
  %exitcond.not = icmp eq i64 %indvars.iv.next, 37
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}
define dso_local void @near(ptr noalias noundef writeonly captures(none) %out, ptr noalias noundef readonly captures(none) %x, double noundef nofpclass(nan inf) %a) {
entry:
  br label %for.body
for.cond.cleanup:
  ret void
for.body:
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
  %6 = fadd fast double %1, %a
  %add22 = fmul fast double %4, %6
  %arrayidx25 = getelementptr inbounds nuw i8, ptr %arrayidx12, i64 16
  store double %add22, ptr %arrayidx25, align 8
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
declare nofpclass(nan inf) double @__enzyme_autodiff(ptr noundef, ...)
define dso_local nofpclass(nan inf) double @grad_near(ptr noundef %out, ptr noundef %dout, ptr noundef %x, ptr noundef %dx, double noundef nofpclass(nan inf) %a) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_out, align 4
  %call = tail call fast nofpclass(nan inf) double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @near, i32 noundef %0, ptr noundef %out, ptr noundef %dout, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, double noundef nofpclass(nan inf) %a)
  ret double %call
}
declare i32 @llvm.umin.i32(i32, i32)

; CHECK-LABEL: define internal { double } @fz_grad_near(
; CHECK: {{^}}rev.for.body:
; CHECK-NEXT: %indvars.iv.rev.0 = phi i64 [ 35, %for.body.peel ], [ [[DN:%[0-9]+]], %rev.for.body ]
; CHECK-NOT: add nsw i64 %indvars.iv.rev.0, 1
; CHECK: [[DN]] = add i64 %indvars.iv.rev.0, -1

; CHECK-LABEL: define internal { double } @fz_grad_st(
; CHECK: {{^}}rev.for.body:
; CHECK-NEXT: %indvars.iv.rev.0 = phi i64 [ 1, %for.body.peel ], [ [[UP:%[0-9]+]], %rev.for.body ]
; CHECK: [[C:%[0-9]+]] = getelementptr inbounds nuw double, ptr %out.shadow, i64 %indvars.iv.rev.0
; CHECK-NEXT: [[V:%[0-9]+]] = getelementptr inbounds nuw i8, ptr [[C]], i64 320
; CHECK-NEXT: load double, ptr [[V]]
; CHECK-NEXT: store double 0.000000e+00, ptr [[V]]
; CHECK: load double, ptr [[C]]
; CHECK-NEXT: store double 0.000000e+00, ptr [[C]]
; CHECK: [[UP]] = add nsw i64 %indvars.iv.rev.0, 1
; CHECK-NEXT: icmp ne i64 [[UP]], 36
; CHECK: br i1 {{%[0-9]+}}, label %rev.for.body, label %fz.stream.flush
