; Decision: in split mode, loads are never repeated in the reverse function, even of
; memory the function never writes (`load_is_stable` is combined mode only): the
; caller may change `x` between `__enzyme_augmentfwd` and `__enzyme_reverse`. `x[i]` goes
; into the loop's record next to `exp(x[i])`; the reverse function reads both from the
; record and never loads from `x`. (In combined mode the same loop re-reads `x[i]`, see
; stable_load_reread.ll.)
; Why it matters: re-reading would silently differentiate at the wrong point when the
; caller updates `x` in place between the two calls (a time-stepping loop does).
;
; extern void *__enzyme_augmentfwd(void *, ...);
; extern double __enzyme_reverse(void *, ...);
; double g(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   return s;
; }
; void step(const double *x, double *dx, int n, double dret) {
;   void *tape = __enzyme_augmentfwd((void *)g, x, dx, n);
;   __enzyme_reverse((void *)g, x, dx, n, dret, tape);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @g(ptr %x, i32 %n) {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.09 = phi double [ 0.000000e+00, %for.body.preheader ], [ %1, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %call = call double @exp(double %0)
  %1 = call double @llvm.fmuladd.f64(double %call, double %0, double %s.09)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @exp(double)

declare double @llvm.fmuladd.f64(double, double, double)

define void @step(ptr %x, ptr %dx, i32 %n, double %dret) {
entry:
  %call = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @g, ptr %x, ptr %dx, i32 %n)
  %call1 = call double (ptr, ...) @__enzyme_reverse(ptr @g, ptr %x, ptr %dx, i32 %n, double %dret, ptr %call)
  ret void
}

declare ptr @__enzyme_augmentfwd(ptr, ...)

declare double @__enzyme_reverse(ptr, ...)

; CHECK-LABEL: define internal { double, ptr } @fz_aug_g(
; CHECK-LABEL: {{^}}for.body:
; CHECK: [[XI:%.*]] = load double, ptr
; CHECK-NEXT: [[E:%.*]] = call double @exp(double [[XI]])
; CHECK: [[REC:%.*]] = call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 16)
; CHECK-DAG: store double [[XI]], ptr
; CHECK-DAG: store double [[E]], ptr
; CHECK-LABEL: define internal void @fz_rev_g(ptr %x,
; CHECK-NOT: ptr %x,
; CHECK-NOT: load double, ptr %x
; CHECK: {{^}}}
