; Decision: a stack in a split-mode tape starts empty (data null, capacity 1: "not heap
; memory, 0 bytes"), while a stack of a combined function starts in a 256-byte inline
; buffer of the function's frame (capacity 257, the odd bit marking it inline). A heap
; tape outlives the call, so an inline buffer would make every tape large and cold; a
; combined function's frame is free until it returns.
; Why it matters: loops that push little per call never allocate in combined mode,
; and split-mode tapes (one per call of a recursive function) stay small.
;
; extern void *__enzyme_augmentfwd(void *, ...);
; extern double __enzyme_reverse(void *, ...);
; double g(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   return s;
; }
; void split(const double *x, double *dx, int n, double dret) {
;   void *tape = __enzyme_augmentfwd((void *)g, x, dx, n);
;   __enzyme_reverse((void *)g, x, dx, n, dret, tape);
; }
; void combined(const double *x, double *dx, int n) { __enzyme_autodiff((void *)g, x, dx, n); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=COMBINED
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=SPLIT

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

define void @split(ptr %x, ptr %dx, i32 %n, double %dret) {
entry:
  %call = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @g, ptr %x, ptr %dx, i32 %n)
  %call1 = call double (ptr, ...) @__enzyme_reverse(ptr @g, ptr %x, ptr %dx, i32 %n, double %dret, ptr %call)
  ret void
}

declare ptr @__enzyme_augmentfwd(ptr, ...)

declare double @__enzyme_reverse(ptr, ...)

define void @combined(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @g, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; COMBINED-LABEL: define internal void @fz_grad_g(
; COMBINED-NEXT: fz.entry:
; COMBINED-NEXT: [[TAPE:%.*]] = alloca i8
; COMBINED: [[BUF:%.*]] = alloca i8, i64 256, align 16
; COMBINED-NEXT: store ptr [[BUF]], ptr [[TAPE]]
; COMBINED-NEXT: [[CAP:%.*]] = getelementptr i8, ptr [[TAPE]], i64 16
; COMBINED-NEXT: store i64 257, ptr [[CAP]]
; COMBINED-LABEL: {{^}}rev.entry:
; COMBINED-NEXT: call void @__fz_stack_free(ptr [[TAPE]])
; SPLIT-LABEL: define internal { double, ptr } @fz_aug_g(
; SPLIT-NOT: alloca i8, i64 256
; SPLIT: [[TAPE3:%.*]] = alloca i8
; SPLIT: store ptr null, ptr [[TAPE3]]
; SPLIT-NEXT: [[CAP3:%.*]] = getelementptr i8, ptr [[TAPE3]], i64 16
; SPLIT-NEXT: store i64 1, ptr [[CAP3]]
; SPLIT-NOT: alloca i8, i64 256
; SPLIT: {{^}}}
