; Decision: a load of a scratch buffer inside a triangular loop is recomputed in the
; reverse sweep from the store that filled the buffer, like a load over the fill's own
; range (scratch_buffer_load_forwarded.ll): the fill writes `y[j]` for j in 0..d-1, the
; load reads `y[c]` for c < r (`tri_lt`, GMM's packed-triangle row) or c <= r (`tri_le`)
; inside `for (r = 0; r < d; r++)`, so every index it reads was written (its bound is the
; counter `r`, or the second induction variable from 1 that indvars gives the r loop,
; itself below d). The integer index arithmetic with its `sdiv ..., 2` (`exact` there, gmm17) is recomputed
; too (int_division_by_constant_recomputed.ll): the forward triangle loop pushes
; nothing. Kept on the tape: the buffer overwritten at y[0] between the fill and the
; reads (`overwritten`: a second writer), and a triangle whose rows run to another
; bound `m` (`other_bound`: c < r < m, not provably within d).
; Why it matters: GMM's fused formulation (bench/src/gmm_fused.c) taped y[c] and the
; division per triangle entry, d(d-1)/2 of each per (point, component): its tape
; 36.5 MB -> 2.9 MB, grad/primal by time 3.02 -> 2.28 (harness flags).
;
; double tri_lt(const double *x, const double *mu, const double *l, int n, int d) {
;   double y[d];
;   double s = 0;
;   for (int p = 0; p < n; p++) {
;     for (int j = 0; j < d; j++) y[j] = x[p * d + j] - mu[j];
;     for (int r = 0; r < d; r++) {
;       double z = y[r];
;       for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * y[c];
;       s += z * z;
;     }
;   }
;   return s;
; }
; (tri_le: `z = 0; for (c = 0; c <= r; c++) z += l[r * (r + 1) / 2 + c] * y[c];`
;  overwritten: tri_lt with `y[0] = mu[0] * x[p];` after the fill;
;  other_bound: tri_le's z = 0 and tri_lt's row with `r < m` and `2 * m` for `2 * d`)
; void grad(const double *x, const double *mu, double *dmu, const double *l, double *dl,
;           int n, int d, int m) {
;   __enzyme_autodiff((void *)tri_lt, enzyme_const, x, mu, dmu, l, dl, n, d);
;   ... the same for the three others (other_bound with m)
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @tri_lt(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, ptr noundef readonly captures(none) %l, i32 noundef %n, i32 noundef %d) {
entry:
  %0 = zext i32 %d to i64
  %vla = alloca double, i64 %0, align 16
  %cmp72 = icmp sgt i32 %n, 0
  br i1 %cmp72, label %for.cond1.preheader.lr.ph, label %for.cond.cleanup

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp263 = icmp sgt i32 %d, 0
  %mul19 = shl nsw i32 %d, 1
  %wide.trip.count94 = zext nneg i32 %n to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.cond.cleanup11
  %indvars.iv90 = phi i64 [ 0, %for.cond1.preheader.lr.ph ], [ %indvars.iv.next91, %for.cond.cleanup11 ]
  %s.073 = phi double [ 0.000000e+00, %for.cond1.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup11 ]
  br i1 %cmp263, label %for.body4.lr.ph, label %for.cond.cleanup11

for.body4.lr.ph:                                  ; preds = %for.cond1.preheader
  %1 = mul nuw nsw i64 %indvars.iv90, %0
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %1
  br label %for.body4

for.cond.cleanup:                                 ; preds = %for.cond.cleanup11, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup11 ]
  ret double %s.0.lcssa

for.body4:                                        ; preds = %for.body4.lr.ph, %for.body4
  %indvars.iv = phi i64 [ 0, %for.body4.lr.ph ], [ %indvars.iv.next, %for.body4 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %2 = load double, ptr %gep, align 8
  %arrayidx6 = getelementptr inbounds nuw double, ptr %mu, i64 %indvars.iv
  %3 = load double, ptr %arrayidx6, align 8
  %sub = fsub double %2, %3
  %arrayidx8 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv
  store double %sub, ptr %arrayidx8, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.body12, label %for.body4

for.cond.cleanup11:                               ; preds = %for.cond.cleanup17, %for.cond1.preheader
  %s.1.lcssa = phi double [ %s.073, %for.cond1.preheader ], [ %6, %for.cond.cleanup17 ]
  %indvars.iv.next91 = add nuw nsw i64 %indvars.iv90, 1
  %exitcond95.not = icmp eq i64 %indvars.iv.next91, %wide.trip.count94
  br i1 %exitcond95.not, label %for.cond.cleanup, label %for.cond1.preheader

for.body12:                                       ; preds = %for.body4, %for.cond.cleanup17
  %indvars.iv85 = phi i64 [ %indvars.iv.next86, %for.cond.cleanup17 ], [ 0, %for.body4 ]
  %s.169 = phi double [ %6, %for.cond.cleanup17 ], [ %s.073, %for.body4 ]
  %arrayidx14 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv85
  %4 = load double, ptr %arrayidx14, align 8
  %cmp1665.not = icmp eq i64 %indvars.iv85, 0
  br i1 %cmp1665.not, label %for.cond.cleanup17, label %for.body18.preheader

for.body18.preheader:                             ; preds = %for.body12
  %5 = trunc nuw nsw i64 %indvars.iv85 to i32
  br label %for.body18

for.cond.cleanup17:                               ; preds = %for.body18, %for.body12
  %z.0.lcssa = phi double [ %4, %for.body12 ], [ %13, %for.body18 ]
  %6 = tail call double @llvm.fmuladd.f64(double %z.0.lcssa, double %z.0.lcssa, double %s.169)
  %indvars.iv.next86 = add nuw nsw i64 %indvars.iv85, 1
  %exitcond89.not = icmp eq i64 %indvars.iv.next86, %0
  br i1 %exitcond89.not, label %for.cond.cleanup11, label %for.body12

for.body18:                                       ; preds = %for.body18.preheader, %for.body18
  %indvars.iv79 = phi i64 [ 0, %for.body18.preheader ], [ %indvars.iv.next80, %for.body18 ]
  %z.066 = phi double [ %4, %for.body18.preheader ], [ %13, %for.body18 ]
  %7 = trunc nuw nsw i64 %indvars.iv79 to i32
  %8 = xor i32 %7, -1
  %sub21 = add nsw i32 %mul19, %8
  %9 = trunc i64 %indvars.iv79 to i32
  %10 = mul i32 %sub21, %9
  %div = sdiv i32 %10, 2
  %add23 = add nsw i32 %5, %8
  %sub25 = add i32 %add23, %div
  %idxprom26 = sext i32 %sub25 to i64
  %arrayidx27 = getelementptr inbounds double, ptr %l, i64 %idxprom26
  %11 = load double, ptr %arrayidx27, align 8
  %arrayidx29 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv79
  %12 = load double, ptr %arrayidx29, align 8
  %13 = tail call double @llvm.fmuladd.f64(double %11, double %12, double %z.066)
  %indvars.iv.next80 = add nuw nsw i64 %indvars.iv79, 1
  %exitcond84.not = icmp eq i64 %indvars.iv.next80, %indvars.iv85
  br i1 %exitcond84.not, label %for.cond.cleanup17, label %for.body18
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local double @tri_le(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, ptr noundef readonly captures(none) %l, i32 noundef %n, i32 noundef %d) {
entry:
  %0 = zext i32 %d to i64
  %vla = alloca double, i64 %0, align 16
  %cmp62 = icmp sgt i32 %n, 0
  br i1 %cmp62, label %for.cond1.preheader.lr.ph, label %for.cond.cleanup

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp255 = icmp sgt i32 %d, 0
  %wide.trip.count85 = zext nneg i32 %n to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.cond.cleanup11
  %indvars.iv81 = phi i64 [ 0, %for.cond1.preheader.lr.ph ], [ %indvars.iv.next82, %for.cond.cleanup11 ]
  %s.063 = phi double [ 0.000000e+00, %for.cond1.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup11 ]
  br i1 %cmp255, label %for.body4.lr.ph, label %for.cond.cleanup11

for.body4.lr.ph:                                  ; preds = %for.cond1.preheader
  %1 = mul nuw nsw i64 %indvars.iv81, %0
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %1
  br label %for.body4

for.cond.cleanup:                                 ; preds = %for.cond.cleanup11, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup11 ]
  ret double %s.0.lcssa

for.body4:                                        ; preds = %for.body4.lr.ph, %for.body4
  %indvars.iv = phi i64 [ 0, %for.body4.lr.ph ], [ %indvars.iv.next, %for.body4 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %2 = load double, ptr %gep, align 8
  %arrayidx6 = getelementptr inbounds nuw double, ptr %mu, i64 %indvars.iv
  %3 = load double, ptr %arrayidx6, align 8
  %sub = fsub double %2, %3
  %arrayidx8 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv
  store double %sub, ptr %arrayidx8, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.cond13.preheader, label %for.body4

for.cond13.preheader:                             ; preds = %for.body4, %for.cond.cleanup15
  %indvars.iv77 = phi i64 [ %indvars.iv.next78, %for.cond.cleanup15 ], [ 1, %for.body4 ]
  %r.061 = phi i32 [ %add17, %for.cond.cleanup15 ], [ 0, %for.body4 ]
  %s.160 = phi double [ %5, %for.cond.cleanup15 ], [ %s.063, %for.body4 ]
  %add17 = add nuw nsw i32 %r.061, 1
  %mul18 = mul nuw nsw i32 %add17, %r.061
  %div54 = lshr i32 %mul18, 1
  %4 = zext nneg i32 %div54 to i64
  %invariant.gep88 = getelementptr inbounds nuw double, ptr %l, i64 %4
  br label %for.body16

for.cond.cleanup11:                               ; preds = %for.cond.cleanup15, %for.cond1.preheader
  %s.1.lcssa = phi double [ %s.063, %for.cond1.preheader ], [ %5, %for.cond.cleanup15 ]
  %indvars.iv.next82 = add nuw nsw i64 %indvars.iv81, 1
  %exitcond86.not = icmp eq i64 %indvars.iv.next82, %wide.trip.count85
  br i1 %exitcond86.not, label %for.cond.cleanup, label %for.cond1.preheader

for.cond.cleanup15:                               ; preds = %for.body16
  %5 = tail call double @llvm.fmuladd.f64(double %8, double %8, double %s.160)
  %indvars.iv.next78 = add nuw nsw i64 %indvars.iv77, 1
  %exitcond80.not = icmp eq i32 %add17, %d
  br i1 %exitcond80.not, label %for.cond.cleanup11, label %for.cond13.preheader

for.body16:                                       ; preds = %for.cond13.preheader, %for.body16
  %indvars.iv69 = phi i64 [ 0, %for.cond13.preheader ], [ %indvars.iv.next70, %for.body16 ]
  %z.057 = phi double [ 0.000000e+00, %for.cond13.preheader ], [ %8, %for.body16 ]
  %gep89 = getelementptr inbounds nuw double, ptr %invariant.gep88, i64 %indvars.iv69
  %6 = load double, ptr %gep89, align 8
  %arrayidx23 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv69
  %7 = load double, ptr %arrayidx23, align 8
  %8 = tail call double @llvm.fmuladd.f64(double %6, double %7, double %z.057)
  %indvars.iv.next70 = add nuw nsw i64 %indvars.iv69, 1
  %exitcond76.not = icmp eq i64 %indvars.iv.next70, %indvars.iv77
  br i1 %exitcond76.not, label %for.cond.cleanup15, label %for.body16
}

define dso_local double @overwritten(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, ptr noundef readonly captures(none) %l, i32 noundef %n, i32 noundef %d) {
entry:
  %0 = zext i32 %d to i64
  %vla = alloca double, i64 %0, align 16
  %cmp80 = icmp sgt i32 %n, 0
  br i1 %cmp80, label %for.cond1.preheader.lr.ph, label %for.cond.cleanup

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp271 = icmp sgt i32 %d, 0
  %1 = load double, ptr %mu, align 8
  %mul24 = shl nsw i32 %d, 1
  %wide.trip.count102 = zext nneg i32 %n to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.cond.cleanup16
  %indvars.iv98 = phi i64 [ 0, %for.cond1.preheader.lr.ph ], [ %indvars.iv.next99, %for.cond.cleanup16 ]
  %s.081 = phi double [ 0.000000e+00, %for.cond1.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup16 ]
  br i1 %cmp271, label %for.body4.lr.ph, label %for.cond.cleanup3

for.body4.lr.ph:                                  ; preds = %for.cond1.preheader
  %2 = mul nuw nsw i64 %indvars.iv98, %0
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %2
  br label %for.body4

for.cond.cleanup:                                 ; preds = %for.cond.cleanup16, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup16 ]
  ret double %s.0.lcssa

for.cond.cleanup3:                                ; preds = %for.cond1.preheader
  %arrayidx11 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv98
  %3 = load double, ptr %arrayidx11, align 8
  %mul12 = fmul double %1, %3
  store double %mul12, ptr %vla, align 16
  br label %for.cond.cleanup16

for.body17.preheader:                             ; preds = %for.body4
  %arrayidx11104 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv98
  %4 = load double, ptr %arrayidx11104, align 8
  %mul12105 = fmul double %1, %4
  store double %mul12105, ptr %vla, align 16
  br label %for.body17

for.body4:                                        ; preds = %for.body4.lr.ph, %for.body4
  %indvars.iv = phi i64 [ 0, %for.body4.lr.ph ], [ %indvars.iv.next, %for.body4 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %5 = load double, ptr %gep, align 8
  %arrayidx6 = getelementptr inbounds nuw double, ptr %mu, i64 %indvars.iv
  %6 = load double, ptr %arrayidx6, align 8
  %sub = fsub double %5, %6
  %arrayidx8 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv
  store double %sub, ptr %arrayidx8, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.body17.preheader, label %for.body4

for.cond.cleanup16:                               ; preds = %for.cond.cleanup22, %for.cond.cleanup3
  %s.1.lcssa = phi double [ %s.081, %for.cond.cleanup3 ], [ %9, %for.cond.cleanup22 ]
  %indvars.iv.next99 = add nuw nsw i64 %indvars.iv98, 1
  %exitcond103.not = icmp eq i64 %indvars.iv.next99, %wide.trip.count102
  br i1 %exitcond103.not, label %for.cond.cleanup, label %for.cond1.preheader

for.body17:                                       ; preds = %for.body17.preheader, %for.cond.cleanup22
  %indvars.iv93 = phi i64 [ 0, %for.body17.preheader ], [ %indvars.iv.next94, %for.cond.cleanup22 ]
  %s.177 = phi double [ %s.081, %for.body17.preheader ], [ %9, %for.cond.cleanup22 ]
  %arrayidx19 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv93
  %7 = load double, ptr %arrayidx19, align 8
  %cmp2173.not = icmp eq i64 %indvars.iv93, 0
  br i1 %cmp2173.not, label %for.cond.cleanup22, label %for.body23.preheader

for.body23.preheader:                             ; preds = %for.body17
  %8 = trunc nuw nsw i64 %indvars.iv93 to i32
  br label %for.body23

for.cond.cleanup22:                               ; preds = %for.body23, %for.body17
  %z.0.lcssa = phi double [ %7, %for.body17 ], [ %16, %for.body23 ]
  %9 = tail call double @llvm.fmuladd.f64(double %z.0.lcssa, double %z.0.lcssa, double %s.177)
  %indvars.iv.next94 = add nuw nsw i64 %indvars.iv93, 1
  %exitcond97.not = icmp eq i64 %indvars.iv.next94, %0
  br i1 %exitcond97.not, label %for.cond.cleanup16, label %for.body17

for.body23:                                       ; preds = %for.body23.preheader, %for.body23
  %indvars.iv87 = phi i64 [ 0, %for.body23.preheader ], [ %indvars.iv.next88, %for.body23 ]
  %z.074 = phi double [ %7, %for.body23.preheader ], [ %16, %for.body23 ]
  %10 = trunc nuw nsw i64 %indvars.iv87 to i32
  %11 = xor i32 %10, -1
  %sub26 = add nsw i32 %mul24, %11
  %12 = trunc i64 %indvars.iv87 to i32
  %13 = mul i32 %sub26, %12
  %div = sdiv i32 %13, 2
  %add28 = add nsw i32 %8, %11
  %sub30 = add i32 %add28, %div
  %idxprom31 = sext i32 %sub30 to i64
  %arrayidx32 = getelementptr inbounds double, ptr %l, i64 %idxprom31
  %14 = load double, ptr %arrayidx32, align 8
  %arrayidx34 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv87
  %15 = load double, ptr %arrayidx34, align 8
  %16 = tail call double @llvm.fmuladd.f64(double %14, double %15, double %z.074)
  %indvars.iv.next88 = add nuw nsw i64 %indvars.iv87, 1
  %exitcond92.not = icmp eq i64 %indvars.iv.next88, %indvars.iv93
  br i1 %exitcond92.not, label %for.cond.cleanup22, label %for.body23
}

define dso_local double @other_bound(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %mu, ptr noundef readonly captures(none) %l, i32 noundef %n, i32 noundef %d, i32 noundef %m) {
entry:
  %0 = zext i32 %d to i64
  %vla = alloca double, i64 %0, align 16
  %cmp68 = icmp sgt i32 %n, 0
  br i1 %cmp68, label %for.cond1.preheader.lr.ph, label %for.cond.cleanup

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp259 = icmp sgt i32 %d, 0
  %cmp1064 = icmp sgt i32 %m, 0
  %mul17 = shl nsw i32 %m, 1
  %wide.trip.count90 = zext nneg i32 %n to i64
  %wide.trip.count84 = zext nneg i32 %m to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.cond.cleanup11
  %indvars.iv86 = phi i64 [ 0, %for.cond1.preheader.lr.ph ], [ %indvars.iv.next87, %for.cond.cleanup11 ]
  %s.069 = phi double [ 0.000000e+00, %for.cond1.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup11 ]
  br i1 %cmp259, label %for.body4.lr.ph, label %for.cond9.preheader

for.body4.lr.ph:                                  ; preds = %for.cond1.preheader
  %1 = mul nuw nsw i64 %indvars.iv86, %0
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %1
  br label %for.body4

for.cond.cleanup:                                 ; preds = %for.cond.cleanup11, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup11 ]
  ret double %s.0.lcssa

for.cond9.preheader:                              ; preds = %for.body4, %for.cond1.preheader
  br i1 %cmp1064, label %for.cond13.preheader, label %for.cond.cleanup11

for.body4:                                        ; preds = %for.body4.lr.ph, %for.body4
  %indvars.iv = phi i64 [ 0, %for.body4.lr.ph ], [ %indvars.iv.next, %for.body4 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %2 = load double, ptr %gep, align 8
  %arrayidx6 = getelementptr inbounds nuw double, ptr %mu, i64 %indvars.iv
  %3 = load double, ptr %arrayidx6, align 8
  %sub = fsub double %2, %3
  %arrayidx8 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv
  store double %sub, ptr %arrayidx8, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.cond9.preheader, label %for.body4

for.cond13.preheader:                             ; preds = %for.cond9.preheader, %for.cond.cleanup15
  %indvars.iv81 = phi i64 [ %indvars.iv.next82, %for.cond.cleanup15 ], [ 0, %for.cond9.preheader ]
  %s.165 = phi double [ %5, %for.cond.cleanup15 ], [ %s.069, %for.cond9.preheader ]
  %cmp1461.not = icmp eq i64 %indvars.iv81, 0
  br i1 %cmp1461.not, label %for.cond.cleanup15, label %for.body16.preheader

for.body16.preheader:                             ; preds = %for.cond13.preheader
  %4 = trunc nuw nsw i64 %indvars.iv81 to i32
  br label %for.body16

for.cond.cleanup11:                               ; preds = %for.cond.cleanup15, %for.cond9.preheader
  %s.1.lcssa = phi double [ %s.069, %for.cond9.preheader ], [ %5, %for.cond.cleanup15 ]
  %indvars.iv.next87 = add nuw nsw i64 %indvars.iv86, 1
  %exitcond91.not = icmp eq i64 %indvars.iv.next87, %wide.trip.count90
  br i1 %exitcond91.not, label %for.cond.cleanup, label %for.cond1.preheader

for.cond.cleanup15:                               ; preds = %for.body16, %for.cond13.preheader
  %z.0.lcssa = phi double [ 0.000000e+00, %for.cond13.preheader ], [ %12, %for.body16 ]
  %5 = tail call double @llvm.fmuladd.f64(double %z.0.lcssa, double %z.0.lcssa, double %s.165)
  %indvars.iv.next82 = add nuw nsw i64 %indvars.iv81, 1
  %exitcond85.not = icmp eq i64 %indvars.iv.next82, %wide.trip.count84
  br i1 %exitcond85.not, label %for.cond.cleanup11, label %for.cond13.preheader

for.body16:                                       ; preds = %for.body16.preheader, %for.body16
  %indvars.iv75 = phi i64 [ 0, %for.body16.preheader ], [ %indvars.iv.next76, %for.body16 ]
  %z.062 = phi double [ 0.000000e+00, %for.body16.preheader ], [ %12, %for.body16 ]
  %6 = trunc nuw nsw i64 %indvars.iv75 to i32
  %7 = xor i32 %6, -1
  %sub19 = add nsw i32 %mul17, %7
  %8 = trunc i64 %indvars.iv75 to i32
  %9 = mul i32 %sub19, %8
  %div = sdiv i32 %9, 2
  %add21 = add nsw i32 %4, %7
  %sub23 = add i32 %add21, %div
  %idxprom24 = sext i32 %sub23 to i64
  %arrayidx25 = getelementptr inbounds double, ptr %l, i64 %idxprom24
  %10 = load double, ptr %arrayidx25, align 8
  %arrayidx27 = getelementptr inbounds nuw double, ptr %vla, i64 %indvars.iv75
  %11 = load double, ptr %arrayidx27, align 8
  %12 = tail call double @llvm.fmuladd.f64(double %10, double %11, double %z.062)
  %indvars.iv.next76 = add nuw nsw i64 %indvars.iv75, 1
  %exitcond80.not = icmp eq i64 %indvars.iv.next76, %indvars.iv81
  br i1 %exitcond80.not, label %for.cond.cleanup15, label %for.body16
}

define dso_local void @grad(ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, ptr noundef %l, ptr noundef %dl, i32 noundef %n, i32 noundef %d, i32 noundef %m) {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @tri_lt, i32 noundef %0, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, ptr noundef %l, ptr noundef %dl, i32 noundef %n, i32 noundef %d)
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @tri_le, i32 noundef %1, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, ptr noundef %l, ptr noundef %dl, i32 noundef %n, i32 noundef %d)
  %2 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @overwritten, i32 noundef %2, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, ptr noundef %l, ptr noundef %dl, i32 noundef %n, i32 noundef %d)
  %3 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @other_bound, i32 noundef %3, ptr noundef %x, ptr noundef %mu, ptr noundef %dmu, ptr noundef %l, ptr noundef %dl, i32 noundef %n, i32 noundef %d, i32 noundef %m)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...)

; CHECK-LABEL: define internal void @fz_grad_tri_lt(
; CHECK-LABEL: {{^}}for.body18:
; The forward sweep's copy of the packed index is exact too (perf31):
; CHECK: sdiv exact i32
; CHECK-NOT: @__fz_push
; CHECK: br i1 %exitcond84.not
; CHECK-LABEL: {{^}}rev.for.body18:
; CHECK: sdiv exact i32 {{%.*}}, 2
; CHECK: getelementptr inbounds nuw double, ptr %x, i64
; CHECK-NEXT: [[XP:%.*]] = getelementptr inbounds nuw double, ptr {{%.*}}, i64 [[C:%indvars.iv79.rev[0-9]*]]
; CHECK-NEXT: [[X:%.*]] = load double, ptr [[XP]]
; CHECK-NEXT: [[MP:%.*]] = getelementptr inbounds nuw double, ptr %mu, i64 [[C]]
; CHECK-NEXT: [[MU:%.*]] = load double, ptr [[MP]]
; CHECK-NEXT: fsub double [[X]], [[MU]]
; CHECK-LABEL: define internal void @fz_grad_tri_le(
; CHECK-LABEL: {{^}}for.body16:
; CHECK-NOT: @__fz_push
; CHECK: br i1 %exitcond76.not
; CHECK-LABEL: {{^}}rev.for.body16:
; CHECK: getelementptr inbounds nuw double, ptr %x, i64
; CHECK-NEXT: [[XP:%.*]] = getelementptr inbounds nuw double, ptr {{%.*}}, i64 [[C:%indvars.iv69.rev[0-9]*]]
; CHECK-NEXT: [[X:%.*]] = load double, ptr [[XP]]
; CHECK-NEXT: [[MP:%.*]] = getelementptr inbounds nuw double, ptr %mu, i64 [[C]]
; CHECK-NEXT: [[MU:%.*]] = load double, ptr [[MP]]
; CHECK-NEXT: fsub double [[X]], [[MU]]
; CHECK-LABEL: define internal void @fz_grad_overwritten(
; CHECK-LABEL: {{^}}for.body23:
; CHECK: [[Y:%.*]] = load double, ptr %arrayidx34
; CHECK: @__fz_push
; CHECK-NEXT: store double [[Y]]
; CHECK-LABEL: define internal void @fz_grad_other_bound(
; CHECK-LABEL: {{^}}for.body16:
; CHECK: [[Y:%.*]] = load double, ptr %arrayidx27
; CHECK: @__fz_push
; CHECK-NEXT: store double [[Y]]
