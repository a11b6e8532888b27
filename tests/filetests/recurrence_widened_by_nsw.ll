; Decision: a reversed recurrence (recurrence_stepped_back.ll) over C's `int t`, read in
; its loop as `sext t to i64`, is carried widened: its slot is an `i64` holding `sext(u)`,
; the tape's `int` exit value is sign-extended once where it is read, `sext(t)` is the slot
; minus `D` computed in `i64`, and the loop's `sext t` reads that directly (no `i32`
; arithmetic, no `sext` per column). Sound because every step from `t` to `u` keeps the
; signed value: the rows loop's `i64` induction variable (exact modulo 2^64) and its exit
; value `trunc nsw` to `i32`, the primal's own no-wrap fact (without `nsw` the recurrence
; stays `i32`: recurrence_stepped_back.ll).
; Why it matters: GMM's reverse column loop at users' `-O2 -ffast-math` kept the `i32`
; `t` and its `sext` as induction variables of their own beside the `i64` ones (gmm24:
; with the offset counter of counter_constant_step.ll, 45.53M -> 42.41M instructions per
; gradient on the quick input).
;
; double tri(const double *l, const double *x, int d) {
;   double s = 0;
;   int t = 0;
;   for (int c = 0; c < d; c++)
;     for (int r = c + 1; r < d; r++) {
;       s += exp(l[t] * x[r]);
;       t++;
;     }
;   return s;
; }
; void grad(const double *l, double *dl, const double *x, int d) {
;   __enzyme_autodiff((void *)tri, l, dl, enzyme_const, x, d);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @tri(ptr noundef readonly captures(none) %l, ptr noundef readonly captures(none) %x, i32 noundef %d) {
entry:
  %cmp24 = icmp sgt i32 %d, 0
  br i1 %cmp24, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %d to i64
  br label %for.body

for.cond.loopexit.loopexit:                       ; preds = %for.body4
  %0 = trunc nsw i64 %indvars.iv.next32 to i32
  br label %for.cond.loopexit

for.cond.loopexit:                                ; preds = %for.cond.loopexit.loopexit, %for.body
  %s.1.lcssa = phi double [ %s.025, %for.body ], [ %add7, %for.cond.loopexit.loopexit ]
  %t.1.lcssa = phi i32 [ %t.026, %for.body ], [ %0, %for.cond.loopexit.loopexit ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond36.not = icmp eq i32 %add, %d
  br i1 %exitcond36.not, label %for.cond.cleanup, label %for.body

for.cond.cleanup:                                 ; preds = %for.cond.loopexit, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.loopexit ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.cond.loopexit
  %indvars.iv = phi i64 [ 1, %for.body.preheader ], [ %indvars.iv.next, %for.cond.loopexit ]
  %c.027 = phi i32 [ 0, %for.body.preheader ], [ %add, %for.cond.loopexit ]
  %t.026 = phi i32 [ 0, %for.body.preheader ], [ %t.1.lcssa, %for.cond.loopexit ]
  %s.025 = phi double [ 0.000000e+00, %for.body.preheader ], [ %s.1.lcssa, %for.cond.loopexit ]
  %add = add nuw nsw i32 %c.027, 1
  %cmp219 = icmp slt i32 %add, %d
  br i1 %cmp219, label %for.body4.preheader, label %for.cond.loopexit

for.body4.preheader:                              ; preds = %for.body
  %1 = sext i32 %t.026 to i64
  br label %for.body4

for.body4:                                        ; preds = %for.body4.preheader, %for.body4
  %indvars.iv31 = phi i64 [ %1, %for.body4.preheader ], [ %indvars.iv.next32, %for.body4 ]
  %indvars.iv29 = phi i64 [ %indvars.iv, %for.body4.preheader ], [ %indvars.iv.next30, %for.body4 ]
  %s.120 = phi double [ %s.025, %for.body4.preheader ], [ %add7, %for.body4 ]
  %arrayidx = getelementptr inbounds double, ptr %l, i64 %indvars.iv31
  %2 = load double, ptr %arrayidx, align 8
  %arrayidx6 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv29
  %3 = load double, ptr %arrayidx6, align 8
  %mul = fmul double %2, %3
  %call = tail call double @exp(double noundef %mul)
  %add7 = fadd double %s.120, %call
  %indvars.iv.next32 = add nsw i64 %indvars.iv31, 1
  %indvars.iv.next30 = add nuw nsw i64 %indvars.iv29, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next30, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.loopexit.loopexit, label %for.body4
}

declare double @exp(double noundef) local_unnamed_addr

define dso_local void @grad(ptr noundef %l, ptr noundef %dl, ptr noundef %x, i32 noundef %d) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @tri, ptr noundef %l, ptr noundef %dl, i32 noundef %0, ptr noundef %x, i32 noundef %d)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_tri(
; CHECK: [[SLOT:%t.026.rec]] = alloca i64
; CHECK-LABEL: {{^}}for.cond.cleanup:
; CHECK: [[EXIT:%.*]] = phi i32 [ 0, %entry ], [ %t.1.lcssa, %for.cond.loopexit ]
; CHECK: store i32 [[EXIT]], ptr
; CHECK-LABEL: {{^}}for.body:
; CHECK-NOT: @__fz_push
; CHECK: br i1 %cmp219
; CHECK-LABEL: {{^}}rev.for.cond.cleanup:
; CHECK: [[REXIT:%.*]] = load i32, ptr
; CHECK: [[WEXIT:%.*]] = sext i32 [[REXIT]] to i64
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[U:%.*]] = load i64, ptr [[SLOT]]
; CHECK: [[ROWS:%.*]] = icmp slt i32 {{%.*}}, %d
; CHECK: [[DELTA:%.*]] = select i1 [[ROWS]], i64 {{%.*}}, i64 0
; CHECK: [[T:%.*]] = sub i64 [[U]], [[DELTA]]
; CHECK: store i64 [[T]], ptr [[SLOT]]
; CHECK: %fz.iv = load
; No `i32` arithmetic on `t` in the reverse.
; CHECK-NOT: sub i32 {{%.*}}.rec
; CHECK-LABEL: {{^}}rev.for.cond.cleanup.from.for.cond.loopexit:
; CHECK: store i64 [[WEXIT]], ptr [[SLOT]]
; CHECK: {{^}}}
