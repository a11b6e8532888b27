; Decision: where the pipeline after the pass vectorizes (-O2, -O3), a reverse column
; loop whose stream keeps its adds' order (no fast-math: no `reassoc`) runs UPWARDS
; (streams/upward.rs, its own adds left out of the check) and the stream carries each
; cell's contributions instead of its value (streams/rising.rs): iteration c adds into
; the cell it leaves behind, c - 1, its load from memory plus this iteration's, the
; previous one's and the one before's added values in that order, the falling loop's
; order, so every cell's sum is bit-identical; the added values wait in phis that start
; at -0.0 (x + -0.0 == x for every x). LoopVectorize then walks memory upwards: no lane
; reversal (`%reverse` shuffles) in the vector body; the carried values are fixed-order
; recurrences starting at -0.0. The same program as `stream_upward_refused_exact.ll`
; (which pins the falling value form where nothing vectorizes after the pass); main's
; binary at -O2 reverses every vector the loop loads (`%reverse` twice per iteration).
; Why it matters: the Brusselators at -O3 -march=x86-64-v3 (no fast-math): 11 of 86
; instructions of the periodic-`if` gradient's vector body were `vpermpd $0x1b`
; (bench/README.md "bench24", "perf28").
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
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

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

; CHECK-LABEL: define dso_local double @grad(
; CHECK: {{^}}vector.body{{[0-9]*}}:
; CHECK-NOT: %reverse
; CHECK: %vector.recur{{[0-9]*}} = phi <2 x double> [ <double poison, double -0.000000e+00>,
; CHECK-NOT: %reverse
; CHECK: %index.next{{[0-9]*}} = add nuw i64 %index{{[0-9]*}}, 4
; CHECK-NOT: %reverse
; CHECK: {{^}}}
