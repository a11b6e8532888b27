; Decision: the FORWARD sweep's copy of the packed-triangle index `c * (2d - c - 1) / 2`
; (GMM's row gather, bench/src/gmm_fused.c's shape) is `sdiv exact`, as the reverse
; sweep's recomputed copy has been since gmm17 (reverse/forward.rs, with
; reverse/cheap.rs `is_exact_halving`): the factors sum to the odd `2d - 1`, so the product
; is even, also when it wraps, and the exact division is the same integer for every input.
; The primal `@rows` keeps its `sdiv` as written (the user's function is not changed).
; After `-O2` the forward copy is one `ashr exact` where the primal's `sdiv` needs a
; sign fix-up (`shr $31`, `add`, `sar`).
; Why it matters: the forward sweep's inner loop of gmm-fused's triangle runs 1.125M times
; per gradient on the quick input; 17 -> 14 instructions per entry, gradient 63.61M ->
; 60.42M instructions at the harness flags, 63.21M -> 58.76M at `-O2 -ffast-math` (perf31;
; the base binary gives `sdiv i32` in the forward copy and a plain `sdiv` at -O2).
; tests/c/1238 checks such gradients (negative products, k = 0, a near miss) against
; analytic values and finite differences.
;
; double rows(const double *q, const double *l, const double *y, int d) {
;   double sq = 0.0;
;   for (int r = 0; r < d; r++) {
;     double z = q[r] * y[r];
;     for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * y[c];
;     sq += z * z;
;   }
;   return sq;
; }
; void grad(...) { __enzyme_autodiff((void *)rows, q, dq, l, dl, y, dy, d); }
; (clang-22 -O2 -ffast-math -fno-vectorize -fno-slp-vectorize -fno-unroll-loops
; -fno-discard-value-names, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=AD
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=O2
; RUN: %ferrozyme opt %s -O3 -o - | %FileCheck %s --check-prefix=O3
; At -O3 (where loops are unswitched) the forward copy is a plain `sdiv` again
; (`stepped_index::settle_guarded_indices`): the exact copy had made gmm-fused's gradient
; at `-O3 -march=x86-64-v3` 51.78M -> 54.48M instructions (perf31, cause not found).

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local nofpclass(nan inf) double @rows(ptr noundef readonly captures(none) %q, ptr noundef readonly captures(none) %l, ptr noundef readonly captures(none) %y, i32 noundef %d) {
entry:
  %cmp41 = icmp sgt i32 %d, 0
  br i1 %cmp41, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %mul7 = shl nuw nsw i32 %d, 1
  %wide.trip.count50 = zext nneg i32 %d to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.cond.cleanup5, %entry
  %sq.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %add19, %for.cond.cleanup5 ]
  ret double %sq.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.cond.cleanup5
  %indvars.iv47 = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next48, %for.cond.cleanup5 ]
  %sq.042 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %add19, %for.cond.cleanup5 ]
  %arrayidx = getelementptr inbounds nuw double, ptr %q, i64 %indvars.iv47
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr inbounds nuw double, ptr %y, i64 %indvars.iv47
  %1 = load double, ptr %arrayidx2, align 8
  %mul = fmul fast double %1, %0
  %cmp438.not = icmp eq i64 %indvars.iv47, 0
  br i1 %cmp438.not, label %for.cond.cleanup5, label %for.body6.preheader

for.body6.preheader:                              ; preds = %for.body
  %2 = trunc nuw nsw i64 %indvars.iv47 to i32
  br label %for.body6

for.cond.cleanup5:                                ; preds = %for.body6, %for.body
  %z.0.lcssa = phi double [ %mul, %for.body ], [ %add17, %for.body6 ]
  %mul18 = fmul fast double %z.0.lcssa, %z.0.lcssa
  %add19 = fadd fast double %mul18, %sq.042
  %indvars.iv.next48 = add nuw nsw i64 %indvars.iv47, 1
  %exitcond51.not = icmp eq i64 %indvars.iv.next48, %wide.trip.count50
  br i1 %exitcond51.not, label %for.cond.cleanup, label %for.body

for.body6:                                        ; preds = %for.body6.preheader, %for.body6
  %indvars.iv = phi i64 [ 0, %for.body6.preheader ], [ %indvars.iv.next, %for.body6 ]
  %z.039 = phi double [ %mul, %for.body6.preheader ], [ %add17, %for.body6 ]
  %3 = trunc nuw nsw i64 %indvars.iv to i32
  %4 = xor i32 %3, -1
  %sub8 = add nsw i32 %mul7, %4
  %5 = trunc i64 %indvars.iv to i32
  %6 = mul i32 %sub8, %5
  %div = sdiv i32 %6, 2
  %add = add nsw i32 %2, %4
  %sub11 = add i32 %add, %div
  %idxprom12 = sext i32 %sub11 to i64
  %arrayidx13 = getelementptr inbounds double, ptr %l, i64 %idxprom12
  %7 = load double, ptr %arrayidx13, align 8
  %arrayidx15 = getelementptr inbounds nuw double, ptr %y, i64 %indvars.iv
  %8 = load double, ptr %arrayidx15, align 8
  %mul16 = fmul fast double %8, %7
  %add17 = fadd fast double %mul16, %z.039
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %indvars.iv47
  br i1 %exitcond.not, label %for.cond.cleanup5, label %for.body6
}

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %q, ptr noundef %dq, ptr noundef %l, ptr noundef %dl, ptr noundef %y, ptr noundef %dy, i32 noundef %d) local_unnamed_addr {
entry:
  %call = tail call fast nofpclass(nan inf) double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @rows, ptr noundef %q, ptr noundef %dq, ptr noundef %l, ptr noundef %dl, ptr noundef %y, ptr noundef %dy, i32 noundef %d)
  ret void
}

declare nofpclass(nan inf) double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; AD-LABEL: define dso_local nofpclass(nan inf) double @rows(
; AD: %div = sdiv i32 %6, 2
; AD-LABEL: define internal void @fz_grad_rows(
; The forward sweep's copy:
; AD: for.body6:
; AD: %div = sdiv exact i32
; The reverse sweep's recomputed copy (gmm17):
; AD: rev.for.body6:
; AD: sdiv exact i32 %{{.*}}.quad{{[0-9]*}}, 2

; O2-LABEL: define dso_local nofpclass(nan inf) double @rows(
; O2: sdiv i32 %{{[0-9]+}}, 2
; O2-LABEL: define dso_local void @grad(
; O2-NOT: sdiv
; O2: ashr exact i32 %{{[0-9]+}}, 1
; O2: ashr exact i32 %.quad{{.*}}, 1
; O2-NOT: sdiv
; O2: ret void

; O3-LABEL: define dso_local void @grad(
; O3: sdiv i32 %{{[0-9]+}}, 2
; O3: ashr exact i32 %.quad{{.*}}, 1
; O3: ret void
