; Decision: a forwarded load (see scratch_buffer_load_forwarded) whose value the reverse
; sweep needs inside a loop nested in the load's own loop (`xc[c]`, loaded once per
; column, used by every row) is evaluated once per reverse iteration of the column loop,
; at the end of the reverse block of the column loop's latch (where each reverse
; iteration begins), and kept in a slot (`.fwd`) that the inner loop's reverse reads.
; `xc[r]`, loaded in the inner loop itself, is evaluated in place.
; Why it matters: evaluated in the inner loop, the two loads of `x[p*d+c] - mu[c]` ran
; once per row, and LICM cannot hoist them past the reverse sweep's shadow updates: GMM's
; triangle loop (`Qtimesx`) had as many instructions as with the cached value.
;
; double nested(const double *x, const double *mu, const double *w, int n, int d) {
;   double *xc = malloc(sizeof(double) * d);
;   double s = 0;
;   for (int p = 0; p < n; p++) {
;     for (int i = 0; i < d; i++) xc[i] = x[p * d + i] - mu[i];
;     for (int c = 0; c < d; c++)
;       for (int r = 0; r < d; r++) s += w[r] * xc[c] * xc[c] * xc[r];
;   }
;   free(xc);
;   return s;
; }
; void grad2(const double *x, const double *mu, double *dmu, const double *w, int n, int d) {
;   __enzyme_autodiff((void *)nested, enzyme_const, x, mu, dmu, enzyme_const, w, n, d);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @nested(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, ptr noundef readonly captures(none) %w, i32 noundef %n, i32 noundef %d) {
entry:
  %conv = sext i32 %d to i64
  %mul = shl nsw i64 %conv, 3
  %call = tail call noalias ptr @malloc(i64 noundef %mul)
  %cmp72 = icmp sgt i32 %n, 0
  br i1 %cmp72, label %for.cond2.preheader.lr.ph, label %for.cond.cleanup

for.cond2.preheader.lr.ph:                        ; preds = %entry
  %cmp363 = icmp sgt i32 %d, 0
  %0 = zext i32 %d to i64
  %wide.trip.count92 = zext nneg i32 %n to i64
  br label %for.cond2.preheader

for.cond2.preheader:                              ; preds = %for.cond2.preheader.lr.ph, %for.cond.cleanup15
  %indvars.iv88 = phi i64 [ 0, %for.cond2.preheader.lr.ph ], [ %indvars.iv.next89, %for.cond.cleanup15 ]
  %s.073 = phi double [ 0.000000e+00, %for.cond2.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup15 ]
  br i1 %cmp363, label %for.body6.lr.ph, label %for.cond.cleanup15

for.body6.lr.ph:                                  ; preds = %for.cond2.preheader
  %1 = mul nuw nsw i64 %indvars.iv88, %0
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
  br i1 %exitcond.not, label %for.cond17.preheader, label %for.body6

for.cond17.preheader:                             ; preds = %for.body6, %for.cond.cleanup20
  %indvars.iv83 = phi i64 [ %indvars.iv.next84, %for.cond.cleanup20 ], [ 0, %for.body6 ]
  %s.169 = phi double [ %7, %for.cond.cleanup20 ], [ %s.073, %for.body6 ]
  %arrayidx25 = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv83
  %4 = load double, ptr %arrayidx25, align 8
  br label %for.body21

for.cond.cleanup15:                               ; preds = %for.cond.cleanup20, %for.cond2.preheader
  %s.1.lcssa = phi double [ %s.073, %for.cond2.preheader ], [ %7, %for.cond.cleanup20 ]
  %indvars.iv.next89 = add nuw nsw i64 %indvars.iv88, 1
  %exitcond93.not = icmp eq i64 %indvars.iv.next89, %wide.trip.count92
  br i1 %exitcond93.not, label %for.cond.cleanup, label %for.cond2.preheader

for.cond.cleanup20:                               ; preds = %for.body21
  %indvars.iv.next84 = add nuw nsw i64 %indvars.iv83, 1
  %exitcond87.not = icmp eq i64 %indvars.iv.next84, %0
  br i1 %exitcond87.not, label %for.cond.cleanup15, label %for.cond17.preheader

for.body21:                                       ; preds = %for.cond17.preheader, %for.body21
  %indvars.iv78 = phi i64 [ 0, %for.cond17.preheader ], [ %indvars.iv.next79, %for.body21 ]
  %s.266 = phi double [ %s.169, %for.cond17.preheader ], [ %7, %for.body21 ]
  %arrayidx23 = getelementptr inbounds nuw double, ptr %w, i64 %indvars.iv78
  %5 = load double, ptr %arrayidx23, align 8
  %mul26 = fmul double %5, %4
  %mul29 = fmul double %4, %mul26
  %arrayidx31 = getelementptr inbounds nuw double, ptr %call, i64 %indvars.iv78
  %6 = load double, ptr %arrayidx31, align 8
  %7 = tail call double @llvm.fmuladd.f64(double %mul29, double %6, double %s.266)
  %indvars.iv.next79 = add nuw nsw i64 %indvars.iv78, 1
  %exitcond82.not = icmp eq i64 %indvars.iv.next79, %0
  br i1 %exitcond82.not, label %for.cond.cleanup20, label %for.body21
}

declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr

define dso_local void @grad2(ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, ptr noundef %w, i32 noundef %n, i32 noundef %d) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @nested, i32 noundef %0, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, i32 noundef %0, ptr noundef %w, i32 noundef %n, i32 noundef %d)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_nested(
; CHECK: [[SLOT:%[^ ]*fwd]] = alloca double
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.cond.cleanup20:
; CHECK: [[XC:%.*]] = fsub double
; CHECK-NEXT: store double [[XC]], ptr [[SLOT]]
; CHECK-LABEL: {{^}}rev.for.body21:
; CHECK: = load double, ptr [[SLOT]]
; CHECK-NOT: {{^}}rev.
; CHECK: fsub double
; CHECK: {{^}}rev.
