; Decision: without fast-math the reverse column loop keeps counting DOWN
; (streams/upward.rs refuses): its adds into x's shadow have no `reassoc`, so each cell's
; sum must be formed in program order, which the reversed iteration order would change
; (the stream is carried in value form instead, streams/values.rs: `fz.cell` phis).
; The same program as `stream_upward_reversed.ll`, compiled without -ffast-math.
; Here nothing vectorizes after the pass (no -O): where something does, the loop runs
; upwards with the stream's contributions carried instead (perf28,
; `stream_rising_exact_contributions.ll`).
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
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_out = external local_unnamed_addr global i32, align 4
define dso_local void @st(ptr noalias noundef writeonly captures(none) %out, ptr noalias noundef readonly captures(none) %x, double noundef %a) {
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
  %add3 = fadd double %1, %3
  %4 = load double, ptr %0, align 8
  %mul6 = fmul double %4, 2.000000e+00
  %5 = fneg double %4
  %neg = fmul double %mul6, %5
  %6 = tail call double @llvm.fmuladd.f64(double %a, double %add3, double %neg)
  %arrayidx11 = getelementptr inbounds nuw double, ptr %out, i64 %indvars.iv
  store double %6, ptr %arrayidx11, align 8
  %exitcond.not = icmp eq i64 %indvars.iv.next, 37
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}
declare double @llvm.fmuladd.f64(double, double, double)
define dso_local double @grad(ptr noundef %out, ptr noundef %dout, ptr noundef %x, ptr noundef %dx, double noundef %a) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_out, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %0, ptr noundef %out, ptr noundef %dout, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, double noundef %a)
  ret double %call
}
declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr
declare i32 @llvm.umin.i32(i32, i32)

; CHECK-LABEL: define internal { double } @fz_grad_st(
; CHECK: {{^}}rev.for.body:
; CHECK-NEXT: %indvars.iv.rev.0 = phi i64 [ 35, %for.body.peel ],
; CHECK-NEXT: %d.a.0 = phi double
; CHECK-NEXT: %fz.cell = phi double
; CHECK-NOT: add nsw i64 %indvars.iv.rev.0, 1
; CHECK: icmp ne i64 %indvars.iv.rev.0, 1
; CHECK: br i1 {{%[0-9]+}}, label %rev.for.body, label %fz.stream.flush
