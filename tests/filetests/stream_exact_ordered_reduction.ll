; Decision: after a stencil stream was carried in value form (no `reassoc`,
; stream_exact_values), `ferrozyme opt -O2` (and `ferrozyme cc`) run the re-optimization
; with `-force-ordered-reductions`: the reverse loop's adjoint of the active parameter `a`
; (a sum over the iterations in a register, one fadd per iteration) is vectorized as an
; in-order reduction (`llvm.vector.reduce.fadd` without `reassoc`: the lanes added one
; after the other, the same sums bit for bit), the cells as vector fixed-order
; recurrences. Without the switch LoopVectorize refuses the loop ("cannot prove it is
; safe to reorder floating-point operations") and it stays scalar.
; Since bruss14 the parameter's adjoint sum itself gets `reassoc` (reassoc_sums.rs: its
; grouping is the AD tool's choice), so it becomes an ordinary vector reduction (partial
; sums per lane, `llvm.vector.reduce.fadd reassoc` after the loop); the switch still
; serves sums that are not marked, and the cells stay fixed-order recurrences (exact).
; Why it matters: the exact stream alone does not vectorize a loop that also sums a
; parameter's adjoint; with both, this shape measured 30.0k -> 17.3k instructions per
; gradient at -O3 -march=x86-64-v3 (bench/README.md, "exact11"; pipeline.rs
; `ORDERED_REDUCTIONS`).
; Since bruss20 the loop's last (trip count mod 8) iterations run in a tail loop of their
; own (streams/split.rs): the reduction's start operand is then the tail's sum (LLVM folds the
; reassociable tail adds into it), so the check takes any start operand.
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void one(double *restrict out, const double *restrict x, double a) {
;   for (int i = 1; i < 1000; i++)
;     out[i] = a * x[i - 1] * x[i] + x[clampi(i + 1, 1000)] * x[i - 1] - 2.0 * x[i] * x[i];
; }
; double grad(double *out, double *dout, double *x, double *dx, double a) {
;   return __enzyme_autodiff((void *)one, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx, a);
; }
; (clang-22 -O2 -march=x86-64-v3 -ffp-contract=off -fno-vectorize -fno-slp-vectorize
; -fno-unroll-loops; metadata and attributes but the target's removed)
;
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4

define dso_local void @one(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1, double noundef %2) #0 {
  br label %5

4:                                                ; preds = %5
  ret void

5:                                                ; preds = %3, %5
  %6 = phi i64 [ 1, %3 ], [ %13, %5 ]
  %7 = getelementptr double, ptr %1, i64 %6
  %8 = getelementptr i8, ptr %7, i64 -8
  %9 = load double, ptr %8, align 8
  %10 = fmul double %2, %9
  %11 = load double, ptr %7, align 8
  %12 = fmul double %10, %11
  %13 = add nuw nsw i64 %6, 1
  %14 = trunc nuw nsw i64 %13 to i32
  %15 = tail call noundef range(i32 0, 1000) i32 @llvm.umin.i32(i32 %14, i32 999)
  %16 = zext nneg i32 %15 to i64
  %17 = getelementptr inbounds nuw double, ptr %1, i64 %16
  %18 = load double, ptr %17, align 8
  %19 = fmul double %9, %18
  %20 = fadd double %12, %19
  %21 = fmul double %11, 2.000000e+00
  %22 = fmul double %11, %21
  %23 = fsub double %20, %22
  %24 = getelementptr inbounds nuw double, ptr %0, i64 %6
  store double %23, ptr %24, align 8
  %25 = icmp eq i64 %13, 1000
  br i1 %25, label %4, label %5
}

define dso_local double @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, double noundef %4) local_unnamed_addr #0 {
  %6 = load i32, ptr @enzyme_dupnoneed, align 4
  %7 = load i32, ptr @enzyme_dup, align 4
  %8 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @one, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %7, ptr noundef %2, ptr noundef %3, double noundef %4)
  ret double %8
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.umin.i32(i32, i32)

declare double @llvm.fmuladd.f64(double, double, double)

attributes #0 = { "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }

; CHECK-LABEL: define dso_local double @grad(
; CHECK: {{^}}vector.body:
; CHECK: %vector.recur = phi <4 x double>
; CHECK: %[[S:[0-9]+]] = fadd reassoc nsz <4 x double> %{{[0-9]+}}, %vec.phi
; CHECK: call reassoc nsz double @llvm.vector.reduce.fadd.v4f64(double %{{[^,]+}}, <4 x double> %[[S]])
; CHECK: {{^}}}
