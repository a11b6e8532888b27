; Decision: a load from memory the function also writes through a pointer that may
; alias it (`x` and `y` are not `restrict`) is cached: `x[i]` goes into the loop's
; record in the forward sweep and the reverse reads it back; it is never re-loaded
; from `x` (which `y[i] = ...` may have overwritten).
; Why it matters: re-reading would be a silently wrong derivative when `y == x`.
;
; void square_into(const double *x, double *y, int n) {
;   for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
; }
; void grad(const double *x, double *dx, double *y, double *dy, int n) {
;   __enzyme_autodiff((void *)square_into, x, dx, y, dy, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @square_into(ptr %x, ptr %y, i32 %n) {
entry:
  %cmp10 = icmp sgt i32 %n, 0
  br i1 %cmp10, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  ret void

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %mul = fmul double %0, %0
  %arrayidx4 = getelementptr double, ptr %y, i64 %indvars.iv
  store double %mul, ptr %arrayidx4, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @square_into, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_square_into(
; CHECK-LABEL: {{^}}for.body:
; CHECK: [[XI:%.*]] = load double, ptr
; CHECK: [[REC:%.*]] = call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 8)
; CHECK-NEXT: store double [[XI]], ptr [[REC]]
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK-NOT: getelementptr double, ptr %x,
; CHECK: call ptr @__fz_top(
; CHECK-NOT: getelementptr double, ptr %x,
; CHECK: {{^}}}
