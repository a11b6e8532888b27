; Decision: two induction variables of one loop that step alike from starts a constant
; apart are one counter in the reverse sweep: the column loop's `c` (`%indvars.iv37`,
; from 0) and the `c + 1` indvars made an induction variable of its own (`%indvars.iv`,
; from 1, the rows loop's start) get one slot; `c + 1` is read as the slot plus 1, with
; no exit value and no count-down of its own (reverse/counters.rs, `offset_of`). `c` is
; the base: its exit value follows from the exit test (`c + 1 == d`, no tape), while
; `c + 1`'s would be computed from a paired variable.
; Why it matters: GMM's reverse column loop at users' `-O2 -ffast-math` kept `c` and
; `c + 1` as two down-counting induction variables (gmm24: with the widened `int t` of
; recurrence_widened_by_nsw.ll, 45.53M -> 42.41M instructions per gradient, quick input).
;
; double cols(const double *l, const double *x, int d) {
;   double s = 0;
;   for (int c = 0; c < d; c++)
;     for (int r = c + 1; r < d; r++)
;       s += l[c * d + r] * x[r] * x[c];
;   return s;
; }
; void grad(const double *l, double *dl, const double *x, int d) {
;   __enzyme_autodiff((void *)cols, l, dl, enzyme_const, x, d);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @cols(ptr noundef readonly captures(none) %l, ptr noundef readonly captures(none) %x, i32 noundef %d) local_unnamed_addr {
entry:
  %cmp29 = icmp sgt i32 %d, 0
  br i1 %cmp29, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %0 = zext nneg i32 %d to i64
  %1 = zext nneg i32 %d to i64
  br label %for.body

for.cond.loopexit:                                ; preds = %for.body4, %for.body
  %s.1.lcssa = phi double [ %s.030, %for.body ], [ %6, %for.body4 ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond42.not = icmp eq i64 %indvars.iv.next38, %1
  br i1 %exitcond42.not, label %for.cond.cleanup, label %for.body

for.cond.cleanup:                                 ; preds = %for.cond.loopexit, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.loopexit ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.cond.loopexit
  %indvars.iv37 = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next38, %for.cond.loopexit ]
  %indvars.iv = phi i64 [ 1, %for.body.preheader ], [ %indvars.iv.next, %for.cond.loopexit ]
  %s.030 = phi double [ 0.000000e+00, %for.body.preheader ], [ %s.1.lcssa, %for.cond.loopexit ]
  %indvars.iv.next38 = add nuw nsw i64 %indvars.iv37, 1
  %cmp226 = icmp samesign ult i64 %indvars.iv.next38, %0
  br i1 %cmp226, label %for.body4.lr.ph, label %for.cond.loopexit

for.body4.lr.ph:                                  ; preds = %for.body
  %2 = mul nuw nsw i64 %indvars.iv37, %1
  %arrayidx10 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv37
  %3 = load double, ptr %arrayidx10, align 8
  %invariant.gep = getelementptr inbounds nuw double, ptr %l, i64 %2
  br label %for.body4

for.body4:                                        ; preds = %for.body4.lr.ph, %for.body4
  %indvars.iv33 = phi i64 [ %indvars.iv, %for.body4.lr.ph ], [ %indvars.iv.next34, %for.body4 ]
  %s.127 = phi double [ %s.030, %for.body4.lr.ph ], [ %6, %for.body4 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv33
  %4 = load double, ptr %gep, align 8
  %arrayidx7 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv33
  %5 = load double, ptr %arrayidx7, align 8
  %mul8 = fmul double %4, %5
  %6 = tail call double @llvm.fmuladd.f64(double %mul8, double %3, double %s.127)
  %indvars.iv.next34 = add nuw nsw i64 %indvars.iv33, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next34, %1
  br i1 %exitcond.not, label %for.cond.loopexit, label %for.body4
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %l, ptr noundef %dl, ptr noundef %x, i32 noundef %d) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @cols, ptr noundef %l, ptr noundef %dl, i32 noundef %0, ptr noundef %x, i32 noundef %d)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal void @fz_grad_cols(
; CHECK: %indvars.iv33.rev = alloca i64
; CHECK-NEXT: [[C:%indvars.iv37.rev]] = alloca i64
; CHECK-NOT: %indvars.iv.rev = alloca
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[CUR:%fz.iv.*]] = load i64, ptr [[C]]
; CHECK-NEXT: sub i64 [[CUR]], 1
; CHECK-NEXT: store i64 {{%.*}}, ptr [[C]]
; CHECK-NOT: %indvars.iv.rev
; CHECK: {{^}}}
