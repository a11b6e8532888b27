; Decision: the reverse sweep's recomputed `c * (2k - c - 1) / 2` (GMM's packed-triangle
; index) is `sdiv exact` (reverse/cheap.rs, is_exact_halving; set in reverse/values.rs):
; the factors `c` and `2k - c - 1` (`add (shl k, 1), (xor c, -1)`) sum to the odd
; `2k - 1`, so their product, wrapped or not, is even. `c * (2k - c) / 2` (`f_odd`: the
; factors sum to an even number, the product can be odd, `sdiv` must round towards zero)
; keeps a plain `sdiv`. The primal's own division is left as written (the forward
; sweep's copy is exact as well, perf31).
; Why it matters: an exact division by 2 is one `sar`; `sdiv` by 2 is `shr $31`, `add`,
; `sar`. gmm-fused's reverse triangle recomputes the index per entry: 2 instructions of
; 23 per entry, 67.06M -> 64.12M instructions per gradient at the harness flags (gmm17).
;
; double f_exact(const double *w, const double *x, int n, int k) {
;   double s = 0;
;   for (int c = 0; c < n; c++) s += w[c * (2 * k - c - 1) / 2] * x[c] * x[c];
;   return s;
; }
; double f_odd(...): the same with w[c * (2 * k - c) / 2]
; void grad(const double *w, double *dw, const double *x, double *dx, int n, int k) {
;   __enzyme_autodiff((void *)f_exact, w, dw, x, dx, n, k);
;   __enzyme_autodiff((void *)f_odd, w, dw, x, dx, n, k);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops
; -fno-discard-value-names, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local double @f_exact(ptr noundef readonly captures(none) %w, ptr noundef readonly captures(none) %x, i32 noundef %n, i32 noundef %k) {
entry:
  %cmp16 = icmp sgt i32 %n, 0
  br i1 %cmp16, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %mul = shl nsw i32 %k, 1
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %4, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next, %for.body ]
  %s.017 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %4, %for.body ]
  %0 = trunc nuw nsw i64 %indvars.iv to i32
  %1 = xor i32 %0, -1
  %sub1 = add i32 %mul, %1
  %mul2 = mul nsw i32 %sub1, %0
  %div = sdiv i32 %mul2, 2
  %idxprom = sext i32 %div to i64
  %arrayidx = getelementptr inbounds double, ptr %w, i64 %idxprom
  %2 = load double, ptr %arrayidx, align 8
  %arrayidx4 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %3 = load double, ptr %arrayidx4, align 8
  %mul5 = fmul double %2, %3
  %4 = tail call double @llvm.fmuladd.f64(double %mul5, double %3, double %s.017)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double)

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local double @f_odd(ptr noundef readonly captures(none) %w, ptr noundef readonly captures(none) %x, i32 noundef %n, i32 noundef %k) {
entry:
  %cmp15 = icmp sgt i32 %n, 0
  br i1 %cmp15, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %mul = shl nsw i32 %k, 1
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %4, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next, %for.body ]
  %s.016 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %4, %for.body ]
  %indvars20 = trunc i64 %indvars.iv to i32
  %sub = sub nsw i32 %mul, %indvars20
  %0 = trunc i64 %indvars.iv to i32
  %1 = mul i32 %sub, %0
  %div = sdiv i32 %1, 2
  %idxprom = sext i32 %div to i64
  %arrayidx = getelementptr inbounds double, ptr %w, i64 %idxprom
  %2 = load double, ptr %arrayidx, align 8
  %arrayidx3 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %3 = load double, ptr %arrayidx3, align 8
  %mul4 = fmul double %2, %3
  %4 = tail call double @llvm.fmuladd.f64(double %mul4, double %3, double %s.016)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %w, ptr noundef %dw, ptr noundef %x, ptr noundef %dx, i32 noundef %n, i32 noundef %k) local_unnamed_addr {
entry:
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_exact, ptr noundef %w, ptr noundef %dw, ptr noundef %x, ptr noundef %dx, i32 noundef %n, i32 noundef %k)
  %call1 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_odd, ptr noundef %w, ptr noundef %dw, ptr noundef %x, ptr noundef %dx, i32 noundef %n, i32 noundef %k)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define dso_local double @f_exact(
; CHECK: %div = sdiv i32 %mul2, 2
; CHECK-LABEL: define internal void @fz_grad_f_exact(
; The forward sweep's copy is exact too since perf31 (forward_sweep_halving_exact.ll):
; CHECK: %div = sdiv exact i32 %mul2, 2
; The product `c * (2k - c - 1)` itself is stepped back from a slot in the reverse
; (reverse_quadratic_index_stepped_back.ll, gmm18):
; CHECK: [[M:%.*]] = load i32, ptr %mul2.quad
; CHECK: sdiv exact i32 [[M]], 2
; CHECK-LABEL: define internal void @fz_grad_f_odd(
; CHECK-NOT: sdiv exact
; CHECK: sdiv i32
; CHECK-NOT: sdiv exact
; CHECK: ret void
