; Decision: when a counted loop can also be left by a `break`, the counter's value on
; leaving cannot be read from an exit test `i + 1 == n`; it is kept once per execution
; of the loop, as a phi in the exit block stored to a tape slot, and the reverse sweep
; sets the counter from it on both edges back into the loop. `i` is still not pushed
; per iteration (the only push is the `exp` value the loop body needs, in the header's
; record: blocks of a loop with no inner cycle share it, `reverse/record_share.rs`).
; Why it matters: caching `i` per iteration would double this loop's record.
;
; double early(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) {
;     if (x[i] > 10.0) break;
;     s += exp(x[i]);
;   }
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)early, x, dx, n); }
; // The loop body's record holds the exp value only (8 bytes), not i.
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @early(ptr %x, i32 %n) {
entry:
  %cmp10 = icmp sgt i32 %n, 0
  br i1 %cmp10, label %for.body.preheader, label %cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.body:                                         ; preds = %for.body.preheader, %if.end
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %if.end ]
  %s.011 = phi double [ 0.000000e+00, %for.body.preheader ], [ %add, %if.end ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %cmp1 = fcmp ogt double %0, 1.000000e+01
  br i1 %cmp1, label %cleanup, label %if.end

if.end:                                           ; preds = %for.body
  %call = call double @exp(double %0)
  %add = fadd double %s.011, %call
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %cleanup, label %for.body

cleanup:                                          ; preds = %if.end, %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %s.011, %for.body ], [ %add, %if.end ]
  ret double %s.0.lcssa
}

declare double @exp(double)

define void @grad(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @early, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_early(
; CHECK: [[TAPE:%.*]] = alloca i8, i64 {{[0-9]+}}, align 16
; CHECK: [[CTR:%.*]] = alloca i64
; CHECK-LABEL: {{^}}for.body:
; CHECK: call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 8)
; CHECK-LABEL: {{^}}if.end:
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}cleanup:
; CHECK: [[EXIT:%.*]] = phi i64 [ 0, %entry ], [ [[I:%[^ ]+]], %for.body ], [ [[I]], %if.end ]
; CHECK: [[SLOT:%.*]] = getelementptr i8, ptr [[TAPE]], i64 [[OFF:[0-9]+]]
; CHECK-NEXT: store i64 [[EXIT]], ptr [[SLOT]]
; CHECK-LABEL: {{^}}rev.cleanup:
; CHECK: [[SLOT2:%.*]] = getelementptr i8, ptr [[TAPE]], i64 [[OFF]]
; CHECK-NEXT: [[START:%.*]] = load i64, ptr [[SLOT2]]
; CHECK-LABEL: {{^}}rev.cleanup.from.for.body:
; CHECK-NEXT: store i64 [[START]], ptr [[CTR]]
; CHECK-LABEL: {{^}}rev.cleanup.from.if.end:
; CHECK-NEXT: store i64 [[START]], ptr [[CTR]]
; CHECK: {{^}}}
