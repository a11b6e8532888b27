; Decision: the record stack of a loop nested in counted loops is reserved once where the
; outermost counted loop is entered, for all iterations of the nest: the product of the
; trip counts `(m + 1) * (n + 1)` times the record size (each factor and partial product
; capped at 1 GiB so it cannot wrap), as long as every inner bound is defined before the
; enclosing loop (here `m`) — a capacity hint. The inner loop's pushes are unchecked
; (`__fz_push_reserved`) after a sure reservation in its own preheader: the inner loop
; leaves when `j + 1 == m`, a bound that means nothing when the guard `m > 0` skips the
; loop, so it cannot be multiplied into the outer reservation (reverse/fixed_tape.rs);
; with the nest's room already there, that reservation only checks it.
; Why it matters: a reservation per execution of the inner loop only covers `m` entries,
; so the stack still regrows (and is copied) as the outer loop runs; GMM's points x
; components x coordinates nest copied about 2.4 MB per gradient that way.
;
; double nest(const double *x, int n, int m) {
;   double s = 0;
;   for (int i = 0; i < n; i++)
;     for (int j = 0; j < m; j++) s += exp(x[i * m + j]);
;   return s;
; }
; void grad(const double *x, double *dx, int n, int m) {
;   __enzyme_autodiff((void *)nest, x, dx, n, m);
; }
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local double @nest(ptr noundef readonly captures(none) %x, i32 noundef %n, i32 noundef %m) {
entry:
  %cmp18 = icmp sgt i32 %n, 0
  br i1 %cmp18, label %for.cond1.preheader.lr.ph, label %for.cond.cleanup

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp215 = icmp sgt i32 %m, 0
  %0 = zext i32 %m to i64
  %wide.trip.count28 = zext nneg i32 %n to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.cond.cleanup3
  %indvars.iv24 = phi i64 [ 0, %for.cond1.preheader.lr.ph ], [ %indvars.iv.next25, %for.cond.cleanup3 ]
  %s.019 = phi double [ 0.000000e+00, %for.cond1.preheader.lr.ph ], [ %s.1.lcssa, %for.cond.cleanup3 ]
  br i1 %cmp215, label %for.body4.lr.ph, label %for.cond.cleanup3

for.body4.lr.ph:                                  ; preds = %for.cond1.preheader
  %1 = mul nuw nsw i64 %indvars.iv24, %0
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %1
  br label %for.body4

for.cond.cleanup:                                 ; preds = %for.cond.cleanup3, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.1.lcssa, %for.cond.cleanup3 ]
  ret double %s.0.lcssa

for.cond.cleanup3:                                ; preds = %for.body4, %for.cond1.preheader
  %s.1.lcssa = phi double [ %s.019, %for.cond1.preheader ], [ %add5, %for.body4 ]
  %indvars.iv.next25 = add nuw nsw i64 %indvars.iv24, 1
  %exitcond29.not = icmp eq i64 %indvars.iv.next25, %wide.trip.count28
  br i1 %exitcond29.not, label %for.cond.cleanup, label %for.cond1.preheader

for.body4:                                        ; preds = %for.body4.lr.ph, %for.body4
  %indvars.iv = phi i64 [ 0, %for.body4.lr.ph ], [ %indvars.iv.next, %for.body4 ]
  %s.116 = phi double [ %s.019, %for.body4.lr.ph ], [ %add5, %for.body4 ]
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %2 = load double, ptr %gep, align 8
  %call = tail call double @exp(double noundef %2)
  %add5 = fadd double %s.116, %call
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %0
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}

declare double @exp(double noundef) local_unnamed_addr

define dso_local void @grad(ptr noundef %x, ptr noundef %dx, i32 noundef %n, i32 noundef %m) local_unnamed_addr {
entry:
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @nest, ptr noundef %x, ptr noundef %dx, i32 noundef %n, i32 noundef %m)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_nest(
; CHECK-LABEL: {{^}}for.cond1.preheader.lr.ph:
; CHECK: [[M:%.*]] = zext i32 %m to i64
; CHECK: [[CM:%.*]] = sub i64 [[M]], -1
; CHECK: [[CN:%.*]] = sub i64 %wide.trip.count28, -1
; CHECK: [[PROD:%.*]] = mul i64 {{%.*}}, {{%.*}}
; CHECK: call void @__fz_reserve(ptr {{%.*}}, i64
; CHECK-NEXT: br label %for.cond1.preheader
; CHECK-LABEL: {{^}}for.body4.lr.ph:
; CHECK: [[D:%.*]] = sub i64 [[M]], 1
; CHECK: select i1 {{%.*}}, i64 4611686018427387904, i64
; CHECK: call void @__fz_reserve(ptr {{%.*}}, i64
; CHECK-NEXT: br label %for.body4
; CHECK-LABEL: {{^}}for.body4:
; CHECK-NOT: @__fz_reserve
; CHECK-NOT: @__fz_push(
; CHECK: call ptr @__fz_push_reserved(ptr {{%.*}}, i64 8)
; CHECK-NOT: @__fz_reserve
; CHECK-NOT: call ptr @__fz_push(
; CHECK: {{^}}}
