; Decision: cheap pure float arithmetic (`fmul`, `fadd`) that the reverse sweep needs
; is recomputed from its operands instead of cached (`try_recompute`): the argument
; `t` of `sin` is rebuilt in the reverse loop body from `x[i]`, which is itself
; re-read (never-written memory), so the loop pushes nothing.
; Why it matters: caching `t` would push 8 bytes per iteration to save two flops.
;
; double chain(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) {
;     double t = x[i] * x[i] + 1.0;
;     s += sin(t);
;   }
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)chain, x, dx, n); }
; (clang-22 -O2 -ffp-contract=off, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @chain(ptr %x, i32 %n) {
entry:
  %cmp9 = icmp sgt i32 %n, 0
  br i1 %cmp9, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %add3, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.011 = phi double [ 0.000000e+00, %for.body.preheader ], [ %add3, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %mul = fmul double %0, %0
  %add = fadd double %mul, 1.000000e+00
  %call = call double @sin(double %add)
  %add3 = fadd double %s.011, %call
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @sin(double)

define void @grad(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @chain, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_chain(
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[P:%.*]] = getelementptr double, ptr %x, i64
; CHECK-NEXT: [[XI:%.*]] = load double, ptr [[P]]
; CHECK-NEXT: [[SQ:%.*]] = fmul double [[XI]], [[XI]]
; CHECK-NEXT: [[T:%.*]] = fadd double [[SQ]], 1.000000e+00
; CHECK-NEXT: call double @llvm.cos.f64(double [[T]])
; CHECK-NOT: @__fz_top
; CHECK: {{^}}}
