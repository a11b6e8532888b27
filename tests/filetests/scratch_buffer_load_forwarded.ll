; Decision: a load of a scratch buffer that an earlier loop of the same outer iteration
; filled (`xc[i] = x[p*d+i] - mu[i]` for i in 0..d-1, the buffer's only writer; the
; load reads `xc[j]` for j in 0..d-1, the same bound) is recomputed in the reverse sweep
; from the stored expression at the load's index: `x[p*d+j] - mu[j]` (both re-readable),
; with no tape at all. A second writer of the buffer (`two_writers`) or a reading loop
; with another bound (`other_bound`) keeps the per-iteration cache.
; Why it matters: GMM's `xcentered` is read by the diagonal and the triangle loop of
; Qtimesx; each load was cached per iteration (the same values twice): GMM's tape
; 9.8 -> 5.2 MB, grad/primal by instructions 2.85 -> 2.77 (harness flags), 3.11 -> 2.95
; (users' flags, -O2 -ffast-math).
;
; double fwd(const double *x, const double *mu, int n, int d) {
;   double *xc = malloc(sizeof(double) * d);
;   double s = 0;
;   for (int p = 0; p < n; p++) {
;     for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
;     for (int j = 0; j < d; j++) s += xc[j] * xc[j] * xc[j];
;   }
;   free(xc);
;   return s;
; }
; (two_writers: `xc[0] = mu[0];` between the loops; other_bound: `j < m`)
; void grad(const double *x, const double *mu, double *dmu, int n, int d, int m) {
;   __enzyme_autodiff((void *)fwd, enzyme_const, x, mu, dmu, n, d);
;   __enzyme_autodiff((void *)two_writers, enzyme_const, x, mu, dmu, n, d);
;   __enzyme_autodiff((void *)other_bound, enzyme_const, x, mu, dmu, n, d, m);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @fwd(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, i32 noundef %n, i32 noundef %d) {
entry:
  %conv = sext i32 %d to i64
  %mul = shl nsw i64 %conv, 3
  %call = tail call noalias ptr @malloc(i64 noundef %mul)
  %cmp54 = icmp sgt i32 %n, 0
  br i1 %cmp54, label %for.cond2.preheader.lr.ph, label %for.cond.cleanup

for.cond2.preheader.lr.ph:                        ; preds = %entry
  %cmp349 = icmp sgt i32 %d, 0
  %0 = zext i32 %d to i64
  %wide.trip.count69 = zext nneg i32 %n to i64
  br label %for.cond2.preheader

for.cond2.preheader:                              ; preds = %for.cond2.preheader.lr.ph, %for.cond.cleanup15
  %indvars.iv65 = phi i64 [ 0, %for.cond2.preheader.lr.ph ], [ %indvars.iv.next66, %for.cond.cleanup15 ]
  %s.055 = phi double [ 0.000000e+00, %for.cond2.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  br i1 %cmp349, label %for.body6.lr.ph, label %for.cond.cleanup15

for.body6.lr.ph:                                  ; preds = %for.cond2.preheader
  %1 = mul nuw nsw i64 %indvars.iv65, %0
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %1
  br label %for.body6

for.cond.cleanup:                                 ; preds = %for.cond.cleanup15, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  tail call void @free(ptr noundef %call)
  ret double %s.0.lcssa

for.body6:                                        ; preds = %for.body6.lr.ph, %for.body6
  %indvars.iv = phi i64 [ 0, %for.body6.lr.ph ], [ %indvars.iv.next, %for.body6 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %2 = load double, ptr %gep, align 8
  %arrayidx9 = getelementptr inbounds nuw double, ptr %mu, i64 %indvars.iv
  %3 = load double, ptr %arrayidx9, align 8
  %sub = fsub double %2, %3
  %arrayidx11 = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv
  store double %sub, ptr %arrayidx11, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.body16, label %for.body6

for.cond.cleanup15:                               ; preds = %for.body16, %for.cond2.preheader
  %s.1.lcssa = phi double [ %s.055, %for.cond2.preheader ], [ %5, %for.body16 ]
  %indvars.iv.next66 = add nuw nsw i64 %indvars.iv65, 1
  %exitcond70.not = icmp eq i64 %indvars.iv.next66, %wide.trip.count69
  br i1 %exitcond70.not, label %for.cond.cleanup, label %for.cond2.preheader

for.body16:                                       ; preds = %for.body6, %for.body16
  %indvars.iv60 = phi i64 [ %indvars.iv.next61, %for.body16 ], [ 0, %for.body6 ]
  %s.152 = phi double [ %5, %for.body16 ], [ %s.055, %for.body6 ]
  %arrayidx18 = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv60
  %4 = load double, ptr %arrayidx18, align 8
  %mul21 = fmul double %4, %4
  %5 = tail call double @llvm.fmuladd.f64(double %mul21, double %4, double %s.152)
  %indvars.iv.next61 = add nuw nsw i64 %indvars.iv60, 1
  %exitcond64.not = icmp eq i64 %indvars.iv.next61, %0
  br i1 %exitcond64.not, label %for.cond.cleanup15, label %for.body16
}

declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr

define dso_local double @two_writers(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, i32 noundef %n, i32 noundef %d) {
entry:
  %conv = sext i32 %d to i64
  %mul = shl nsw i64 %conv, 3
  %call = tail call noalias ptr @malloc(i64 noundef %mul)
  %cmp58 = icmp sgt i32 %n, 0
  br i1 %cmp58, label %for.cond2.preheader.lr.ph, label %for.cond.cleanup

for.cond2.preheader.lr.ph:                        ; preds = %entry
  %cmp353 = icmp sgt i32 %d, 0
  %0 = load double, ptr %mu, align 8
  %1 = zext i32 %d to i64
  %wide.trip.count73 = zext nneg i32 %n to i64
  br label %for.cond2.preheader

for.cond2.preheader:                              ; preds = %for.cond2.preheader.lr.ph, %for.cond.cleanup17
  %indvars.iv69 = phi i64 [ 0, %for.cond2.preheader.lr.ph ], [ %indvars.iv.next70, %for.cond.cleanup17 ]
  %s.059 = phi double [ 0.000000e+00, %for.cond2.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup17 ]
  br i1 %cmp353, label %for.body6.lr.ph, label %for.cond.cleanup17

for.body6.lr.ph:                                  ; preds = %for.cond2.preheader
  %2 = mul nuw nsw i64 %indvars.iv69, %1
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %2
  br label %for.body6

for.cond.cleanup:                                 ; preds = %for.cond.cleanup17, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup17 ]
  tail call void @free(ptr noundef %call)
  ret double %s.0.lcssa

for.body18.preheader:                             ; preds = %for.body6
  store double %0, ptr %call, align 8
  br label %for.body18

for.body6:                                        ; preds = %for.body6.lr.ph, %for.body6
  %indvars.iv = phi i64 [ 0, %for.body6.lr.ph ], [ %indvars.iv.next, %for.body6 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %3 = load double, ptr %gep, align 8
  %arrayidx9 = getelementptr inbounds nuw double, ptr %mu, i64 %indvars.iv
  %4 = load double, ptr %arrayidx9, align 8
  %sub = fsub double %3, %4
  %arrayidx11 = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv
  store double %sub, ptr %arrayidx11, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %1
  br i1 %exitcond.not, label %for.body18.preheader, label %for.body6

for.cond.cleanup17:                               ; preds = %for.body18, %for.cond2.preheader
  %s.1.lcssa = phi double [ %s.059, %for.cond2.preheader ], [ %6, %for.body18 ]
  %indvars.iv.next70 = add nuw nsw i64 %indvars.iv69, 1
  %exitcond74.not = icmp eq i64 %indvars.iv.next70, %wide.trip.count73
  br i1 %exitcond74.not, label %for.cond.cleanup, label %for.cond2.preheader

for.body18:                                       ; preds = %for.body18.preheader, %for.body18
  %indvars.iv64 = phi i64 [ 0, %for.body18.preheader ], [ %indvars.iv.next65, %for.body18 ]
  %s.156 = phi double [ %s.059, %for.body18.preheader ], [ %6, %for.body18 ]
  %arrayidx20 = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv64
  %5 = load double, ptr %arrayidx20, align 8
  %mul23 = fmul double %5, %5
  %6 = tail call double @llvm.fmuladd.f64(double %mul23, double %5, double %s.156)
  %indvars.iv.next65 = add nuw nsw i64 %indvars.iv64, 1
  %exitcond68.not = icmp eq i64 %indvars.iv.next65, %1
  br i1 %exitcond68.not, label %for.cond.cleanup17, label %for.body18
}

define dso_local double @other_bound(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, i32 noundef %n, i32 noundef %d, i32 noundef %m) {
entry:
  %conv = sext i32 %d to i64
  %mul = shl nsw i64 %conv, 3
  %call = tail call noalias ptr @malloc(i64 noundef %mul)
  %cmp53 = icmp sgt i32 %n, 0
  br i1 %cmp53, label %for.cond2.preheader.lr.ph, label %for.cond.cleanup

for.cond2.preheader.lr.ph:                        ; preds = %entry
  %cmp348 = icmp sgt i32 %d, 0
  %cmp1350 = icmp sgt i32 %m, 0
  %0 = zext i32 %d to i64
  %wide.trip.count68 = zext nneg i32 %n to i64
  %wide.trip.count62 = zext nneg i32 %m to i64
  br label %for.cond2.preheader

for.cond2.preheader:                              ; preds = %for.cond2.preheader.lr.ph, %for.cond.cleanup15
  %indvars.iv64 = phi i64 [ 0, %for.cond2.preheader.lr.ph ], [ %indvars.iv.next65, %for.cond.cleanup15 ]
  %s.054 = phi double [ 0.000000e+00, %for.cond2.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  br i1 %cmp348, label %for.body6.lr.ph, label %for.cond12.preheader

for.body6.lr.ph:                                  ; preds = %for.cond2.preheader
  %1 = mul nuw nsw i64 %indvars.iv64, %0
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %1
  br label %for.body6

for.cond.cleanup:                                 ; preds = %for.cond.cleanup15, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  tail call void @free(ptr noundef %call)
  ret double %s.0.lcssa

for.cond12.preheader:                             ; preds = %for.body6, %for.cond2.preheader
  br i1 %cmp1350, label %for.body16, label %for.cond.cleanup15

for.body6:                                        ; preds = %for.body6.lr.ph, %for.body6
  %indvars.iv = phi i64 [ 0, %for.body6.lr.ph ], [ %indvars.iv.next, %for.body6 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %2 = load double, ptr %gep, align 8
  %arrayidx9 = getelementptr inbounds nuw double, ptr %mu, i64 %indvars.iv
  %3 = load double, ptr %arrayidx9, align 8
  %sub = fsub double %2, %3
  %arrayidx11 = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv
  store double %sub, ptr %arrayidx11, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.cond12.preheader, label %for.body6

for.cond.cleanup15:                               ; preds = %for.body16, %for.cond12.preheader
  %s.1.lcssa = phi double [ %s.054, %for.cond12.preheader ], [ %5, %for.body16 ]
  %indvars.iv.next65 = add nuw nsw i64 %indvars.iv64, 1
  %exitcond69.not = icmp eq i64 %indvars.iv.next65, %wide.trip.count68
  br i1 %exitcond69.not, label %for.cond.cleanup, label %for.cond2.preheader

for.body16:                                       ; preds = %for.cond12.preheader, %for.body16
  %indvars.iv59 = phi i64 [ %indvars.iv.next60, %for.body16 ], [ 0, %for.cond12.preheader ]
  %s.151 = phi double [ %5, %for.body16 ], [ %s.054, %for.cond12.preheader ]
  %arrayidx18 = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv59
  %4 = load double, ptr %arrayidx18, align 8
  %mul21 = fmul double %4, %4
  %5 = tail call double @llvm.fmuladd.f64(double %mul21, double %4, double %s.151)
  %indvars.iv.next60 = add nuw nsw i64 %indvars.iv59, 1
  %exitcond63.not = icmp eq i64 %indvars.iv.next60, %wide.trip.count62
  br i1 %exitcond63.not, label %for.cond.cleanup15, label %for.body16
}

define dso_local void @grad(ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, i32 noundef %n, i32 noundef %d, i32 noundef %m) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @fwd, i32 noundef %0, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, i32 noundef %n, i32 noundef %d)
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @two_writers, i32 noundef %1, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, i32 noundef %n, i32 noundef %d)
  %2 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @other_bound, i32 noundef %2, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, i32 noundef %n, i32 noundef %d, i32 noundef %m)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_fwd(
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body16:
; CHECK: = getelementptr inbounds nuw double, ptr %x, i64
; CHECK-NEXT: [[XP:%.*]] = getelementptr inbounds nuw double, ptr {{%.*}}, i64 [[J:%.*]]
; CHECK-NEXT: [[X:%.*]] = load double, ptr [[XP]]
; CHECK-NEXT: [[MP:%.*]] = getelementptr inbounds nuw double, ptr %mu, i64 [[J]]
; CHECK-NEXT: [[MU:%.*]] = load double, ptr [[MP]]
; CHECK-NEXT: [[XC:%.*]] = fsub double [[X]], [[MU]]
; CHECK-NEXT: fmul double [[XC]], [[XC]]
; CHECK-LABEL: define internal void @fz_grad_two_writers(
; CHECK: @__fz_push
; CHECK-LABEL: define internal void @fz_grad_other_bound(
; CHECK: @__fz_push
