; Decision: after the post-AD pipeline, a vectorized fixed-order recurrence of order 2
; (a rising exact stream's contribution from two iterations back, streams/rising.rs) is
; read as ONE shuffle of vectors the loop already carries (splice_chains.rs): LoopVectorize
; builds it as a splice of a carried splice (`%vector.recur34 = phi [.., splice(a, b)]`,
; then `splice(%vector.recur34, splice(%vector.recur33, a))`); its lane 0 is a lane of the
; last iteration's `b`, which `%vector.recur33` holds now, so the value is
; `shufflevector(%vector.recur33, a, <2, 3, 4, 5>)`, `%vector.recur33`'s initial lane 2 takes
; the deleted phi's initial lane 3 (-0.0), and one carried vector goes. Values are moved,
; not computed: every cell's sum stays bit-identical (tests/c/1133 checks it against the
; twin without `restrict`). main's binary keeps three recurrence phis and the splice of
; a splice. Why it matters: the Brusselators at -O3 -march=x86-64-v3 (no fast-math): the
; periodic-`if` gradient's reverse vector body 80 -> 66 instructions, grad/primal by
; instructions 2.33 -> 2.04, clamped 2.22 -> 1.96 (bench/README.md "perf29").
;
; The program of stream_rising_exact_contributions.ll built for x86-64-v3 (4 doubles per
; vector; the loop is interleaved by 2 at -O2), with 44 cells instead of 36 since bruss32:
; a split main loop of at most 32 iterations has its vector body unrolled fully
; (streams/split.rs), and the recurrences this test reads are those of a rolled loop:
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x, double a) {
;   for (int i = 1; i < 45; i++)
;     out[i] = a * (x[i - 1] + x[clampi(i + 1, 45)]) - 2.0 * x[i] * x[i];
; }
; double grad(double *out, double *dout, double *x, double *dx, double a) {
;   return __enzyme_autodiff((void *)st, enzyme_dup, out, dout, enzyme_dup, x, dx,
;                            enzyme_out, a);
; }
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_out = external local_unnamed_addr global i32, align 4
define dso_local void @st(ptr noalias noundef writeonly captures(none) %out, ptr noalias noundef readonly captures(none) %x, double noundef %a) #0 {
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
  %cond6.i = tail call noundef range(i32 0, 45) i32 @llvm.umin.i32(i32 %2, i32 44)
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
  %exitcond.not = icmp eq i64 %indvars.iv.next, 45
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}
declare double @llvm.fmuladd.f64(double, double, double)
define dso_local double @grad(ptr noundef %out, ptr noundef %dout, ptr noundef %x, ptr noundef %dx, double noundef %a) local_unnamed_addr #0 {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_out, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %0, ptr noundef %out, ptr noundef %dout, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, double noundef %a)
  ret double %call
}
declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr
declare i32 @llvm.umin.i32(i32, i32)
attributes #0 = { "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }

; CHECK-LABEL: define dso_local double @grad(
; CHECK: {{^}}vector.body{{[0-9]*}}:
; CHECK: %[[R1:vector.recur[0-9]*]] = phi <4 x double> [ <double poison, double poison, double poison, double -0.000000e+00>,
; CHECK-NEXT: %[[R2:vector.recur[0-9]*]] = phi <4 x double> [ <double poison, double poison, double -0.000000e+00, double -0.000000e+00>, %{{[a-z.]+}} ], [ %[[B:[0-9]+]], %vector.body{{[0-9]*}} ]
; CHECK-NOT: {{= phi}}
; CHECK: %[[A:[0-9]+]] = fmul contract <4 x double> %{{[a-z.0-9]+}}, %wide.load
; CHECK-NEXT: %[[B]] = fmul contract <4 x double> %{{[a-z.0-9]+}}, %wide.load
; CHECK-NEXT: shufflevector <4 x double> %[[R2]], <4 x double> %[[A]], <4 x i32> <i32 2, i32 3, i32 4, i32 5>
; CHECK-NEXT: shufflevector <4 x double> %[[A]], <4 x double> %[[B]], <4 x i32> <i32 2, i32 3, i32 4, i32 5>
; CHECK-NOT: shufflevector <4 x double> %[[R2]], <4 x double> %{{[0-9]+}}, <4 x i32> <i32 3, i32 4, i32 5,
; CHECK: {{^}}}
