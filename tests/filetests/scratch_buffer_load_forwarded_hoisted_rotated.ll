; Decision: a forwarded load needed inside a nested loop's reverse is evaluated once per
; reverse iteration of its own loop (scratch_buffer_load_forwarded_hoisted.ll) also when
; that loop's latch comes after the nested loop in the block layout, as `-O3` leaves
; GMM's column loop (`Qtimesx`: for c, for r > c, z[r] += l[t++] * xc[c]): the reverse
; blocks are emitted in layout order, so the latch's reverse block is still empty when
; the row loop's reverse asks for `xc[c]`; the evaluation then starts that block (its
; counters are already those of the iteration; the latch's own reverse is appended after
; it). Before, the value was evaluated in place, in the reverse row loop.
; Why it matters: evaluated in place, `x[p*d+c] - mu[c]` is two loads and a subtraction
; per triangle entry, which LICM cannot hoist past the `dl` shadow updates: GMM's
; gradient at `-O3 -march=x86-64-v3` 43.34M -> 41.59M instructions (grad/primal 2.27 ->
; 2.17).
;
; double colgather(const double *x, const double *mu, const double *q, const double *l,
;                  int n, int d) {
;   double *xc = malloc(sizeof(double) * d), *z = malloc(sizeof(double) * d);
;   double s = 0;
;   for (int p = 0; p < n; p++) {
;     for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
;     for (int i = 0; i < d; i++) z[i] = q[i] * xc[i];
;     int t = 0;
;     for (int c = 0; c < d; c++)
;       for (int r = c + 1; r < d; r++) {
;         z[r] += l[t] * xc[c];
;         t++;
;       }
;     for (int i = 0; i < d; i++) s += z[i] * z[i];
;   }
;   free(xc);
;   free(z);
;   return s;
; }
; void grad(const double *x, const double *mu, double *dmu, const double *q,
;           const double *l, double *dl, int n, int d) {
;   __enzyme_autodiff((void *)colgather, enzyme_const, x, mu, dmu, enzyme_const, q, l, dl,
;                     n, d);
; }
; (clang-22 -O3 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @colgather(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, ptr noundef readonly captures(none) %q, ptr noundef readonly captures(none) %l, i32 noundef %n, i32 noundef %d) {
entry:
  %conv = sext i32 %d to i64
  %mul = shl nsw i64 %conv, 3
  %call = tail call noalias ptr @malloc(i64 noundef %mul)
  %call3 = tail call noalias ptr @malloc(i64 noundef %mul)
  %cmp121 = icmp sgt i32 %n, 0
  %cmp6107 = icmp sgt i32 %d, 0
  %or.cond = and i1 %cmp121, %cmp6107
  br i1 %or.cond, label %for.cond5.preheader.us.preheader, label %for.cond.cleanup

for.cond5.preheader.us.preheader:                 ; preds = %entry
  %0 = zext nneg i32 %d to i64
  %wide.trip.count255 = zext nneg i32 %n to i64
  br label %for.body9.lr.ph.us

for.cond.cleanup60.us:                            ; preds = %for.body61.us
  %indvars.iv.next252 = add nuw nsw i64 %indvars.iv251, 1
  %exitcond256.not = icmp eq i64 %indvars.iv.next252, %wide.trip.count255
  br i1 %exitcond256.not, label %for.cond.cleanup, label %for.body9.lr.ph.us

for.body61.us:                                    ; preds = %for.cond31.loopexit.us, %for.body61.us
  %indvars.iv246 = phi i64 [ %indvars.iv.next247, %for.body61.us ], [ 0, %for.cond31.loopexit.us ]
  %s.1118.us = phi double [ %2, %for.body61.us ], [ %s.0122.us, %for.cond31.loopexit.us ]
  %arrayidx63.us = getelementptr inbounds nuw double, ptr %call3, i64 %indvars.iv246
  %1 = load double, ptr %arrayidx63.us, align 8
  %2 = tail call double @llvm.fmuladd.f64(double %1, double %1, double %s.1118.us)
  %indvars.iv.next247 = add nuw nsw i64 %indvars.iv246, 1
  %exitcond250.not = icmp eq i64 %indvars.iv.next247, %0
  br i1 %exitcond250.not, label %for.cond.cleanup60.us, label %for.body61.us

for.body35.us:                                    ; preds = %for.body20.us, %for.cond31.loopexit.us
  %indvars.iv241 = phi i64 [ %indvars.iv.next242, %for.cond31.loopexit.us ], [ 0, %for.body20.us ]
  %indvars.iv230 = phi i64 [ %indvars.iv.next231, %for.cond31.loopexit.us ], [ 1, %for.body20.us ]
  %t.0115.us = phi i32 [ %t.1.lcssa.us, %for.cond31.loopexit.us ], [ 0, %for.body20.us ]
  %indvars.iv.next242 = add nuw nsw i64 %indvars.iv241, 1
  %cmp38111.us = icmp slt i64 %indvars.iv.next242, %conv
  br i1 %cmp38111.us, label %for.body41.lr.ph.us, label %for.cond31.loopexit.us

for.body41.us:                                    ; preds = %for.body41.lr.ph.us, %for.body41.us
  %indvars.iv234 = phi i64 [ %13, %for.body41.lr.ph.us ], [ %indvars.iv.next235, %for.body41.us ]
  %indvars.iv232 = phi i64 [ %indvars.iv230, %for.body41.lr.ph.us ], [ %indvars.iv.next233, %for.body41.us ]
  %arrayidx43.us = getelementptr inbounds double, ptr %l, i64 %indvars.iv234
  %3 = load double, ptr %arrayidx43.us, align 8
  %arrayidx48.us = getelementptr inbounds nuw double, ptr %call3, i64 %indvars.iv232
  %4 = load double, ptr %arrayidx48.us, align 8
  %5 = tail call double @llvm.fmuladd.f64(double %3, double %12, double %4)
  store double %5, ptr %arrayidx48.us, align 8
  %indvars.iv.next235 = add nsw i64 %indvars.iv234, 1
  %indvars.iv.next233 = add nuw nsw i64 %indvars.iv232, 1
  %exitcond240.not = icmp eq i64 %indvars.iv.next233, %0
  br i1 %exitcond240.not, label %for.cond31.loopexit.us.loopexit, label %for.body41.us

for.body20.us:                                    ; preds = %for.body9.us, %for.body20.us
  %indvars.iv225 = phi i64 [ %indvars.iv.next226, %for.body20.us ], [ 0, %for.body9.us ]
  %arrayidx22.us = getelementptr inbounds nuw double, ptr %q, i64 %indvars.iv225
  %6 = load double, ptr %arrayidx22.us, align 8
  %arrayidx24.us = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv225
  %7 = load double, ptr %arrayidx24.us, align 8
  %mul25.us = fmul double %6, %7
  %arrayidx27.us = getelementptr inbounds nuw double, ptr %call3, i64 %indvars.iv225
  store double %mul25.us, ptr %arrayidx27.us, align 8
  %indvars.iv.next226 = add nuw nsw i64 %indvars.iv225, 1
  %exitcond229.not = icmp eq i64 %indvars.iv.next226, %0
  br i1 %exitcond229.not, label %for.body35.us, label %for.body20.us

for.body9.us:                                     ; preds = %for.body9.lr.ph.us, %for.body9.us
  %indvars.iv = phi i64 [ 0, %for.body9.lr.ph.us ], [ %indvars.iv.next, %for.body9.us ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %8 = load double, ptr %gep, align 8
  %arrayidx12.us = getelementptr inbounds nuw double, ptr %mu, i64 %indvars.iv
  %9 = load double, ptr %arrayidx12.us, align 8
  %sub.us = fsub double %8, %9
  %arrayidx14.us = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv
  store double %sub.us, ptr %arrayidx14.us, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.body20.us, label %for.body9.us

for.cond31.loopexit.us.loopexit:                  ; preds = %for.body41.us
  %10 = trunc nsw i64 %indvars.iv.next235 to i32
  br label %for.cond31.loopexit.us

for.cond31.loopexit.us:                           ; preds = %for.cond31.loopexit.us.loopexit, %for.body35.us
  %t.1.lcssa.us = phi i32 [ %t.0115.us, %for.body35.us ], [ %10, %for.cond31.loopexit.us.loopexit ]
  %indvars.iv.next231 = add nuw nsw i64 %indvars.iv230, 1
  %exitcond245.not = icmp eq i64 %indvars.iv.next242, %0
  br i1 %exitcond245.not, label %for.body61.us, label %for.body35.us

for.body9.lr.ph.us:                               ; preds = %for.cond.cleanup60.us, %for.cond5.preheader.us.preheader
  %indvars.iv251 = phi i64 [ 0, %for.cond5.preheader.us.preheader ], [ %indvars.iv.next252, %for.cond.cleanup60.us ]
  %s.0122.us = phi double [ 0.000000e+00, %for.cond5.preheader.us.preheader ], [ %2, %for.cond.cleanup60.us ]
  %11 = mul nuw nsw i64 %indvars.iv251, %0
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %11
  br label %for.body9.us

for.body41.lr.ph.us:                              ; preds = %for.body35.us
  %arrayidx45.us = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv241
  %12 = load double, ptr %arrayidx45.us, align 8
  %13 = sext i32 %t.0115.us to i64
  br label %for.body41.us

for.cond.cleanup:                                 ; preds = %for.cond.cleanup60.us, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.cond.cleanup60.us ]
  tail call void @free(ptr noundef %call)
  tail call void @free(ptr noundef %call3)
  ret double %s.0.lcssa
}

declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr

define dso_local void @grad(ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, ptr noundef %q, ptr noundef %l, ptr noundef %dl, i32 noundef %n, i32 noundef %d) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @colgather, i32 noundef %0, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, i32 noundef %0, ptr noundef %q, ptr noundef %l, ptr noundef %dl, i32 noundef %n, i32 noundef %d)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; The slot is read in the reverse row loop, which evaluates nothing itself; it is filled
; at the start of the reverse latch block, from the counters' current values.
; CHECK-LABEL: define internal void @fz_grad_colgather(
; CHECK: [[SLOT:%[^ ]*fwd]] = alloca double
; CHECK-LABEL: {{^}}rev.for.body41.us:
; CHECK: = load double, ptr [[SLOT]]
; CHECK-NOT: fsub double
; CHECK: {{^}}rev.
; CHECK-LABEL: {{^}}rev.for.cond31.loopexit.us:
; CHECK-NOT: {{^}}rev.
; CHECK: [[XC:%.*]] = fsub double
; CHECK-NEXT: store double [[XC]], ptr [[SLOT]]
; CHECK-NOT: {{^}}rev.
; CHECK: switch i32
