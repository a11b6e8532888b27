; Decision: split mode (`__enzyme_augmentfwd` + `__enzyme_reverse`) becomes a pair
; `fz_aug_g` / `fz_rev_g`. The augmented function fills a local tape (an `alloca`, kept
; in registers by SROA) and copies it, at each return, into a block from the per-thread
; tape arena (`__fz_tape_alloc`), which it returns after the primal result; the reverse
; function copies the block back into its own local tape at entry and frees it
; (`__fz_tape_free`) when it returns. `__enzyme_augmentsize` folds to that tape's size.
; The copies move the bytes laid out (24), not the block's 16-byte granules (32): the
; padding is never read.
; Why it matters: this is the contract between the two calls; the sizes must agree
; and the block must be freed exactly once, by the reverse.
;
; extern void *__enzyme_augmentfwd(void *, ...);
; extern double __enzyme_reverse(void *, ...);
; extern unsigned long __enzyme_augmentsize(void *, ...);
; double g(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   return s;
; }
; void step(const double *x, double *dx, int n, double dret) {
;   void *tape = __enzyme_augmentfwd((void *)g, x, dx, n);
;   __enzyme_reverse((void *)g, x, dx, n, dret, tape);
; }
; unsigned long size(void) { return __enzyme_augmentsize((void *)g, enzyme_dup, enzyme_const); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

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

define i64 @size() {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call i64 (ptr, ...) @__enzyme_augmentsize(ptr @g, i32 %0, i32 %1)
  ret i64 %call
}

declare i64 @__enzyme_augmentsize(ptr, ...)

; CHECK-LABEL: define void @step(
; CHECK-NEXT: entry:
; CHECK-NEXT: [[AUG:%.*]] = call { double, ptr } @fz_aug_g(ptr %x, ptr %dx, i32 %n)
; CHECK-NEXT: [[TAPE:%.*]] = extractvalue { double, ptr } [[AUG]], 1
; CHECK-NEXT: call void @fz_rev_g(ptr %x, ptr %dx, i32 %n, double %dret, ptr [[TAPE]])
; CHECK-NEXT: ret void
; CHECK-LABEL: define i64 @size(
; CHECK: ret i64 [[SIZE:[0-9]+]]
; CHECK-LABEL: define internal { double, ptr } @fz_aug_g(
; CHECK-NEXT: fz.entry:
; CHECK-NEXT: [[HEAP:%.*]] = call ptr @__fz_tape_alloc(i64 [[SIZE]])
; CHECK-NEXT: [[LOCAL:%.*]] = alloca i8, i64 [[SIZE]], align 16
; CHECK: [[R:%.*]] = insertvalue { double, ptr } {{%.*}}, ptr [[HEAP]], 1
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 16 [[HEAP]], ptr align 16 [[LOCAL]], i64 24, i1 false)
; CHECK-NEXT: ret { double, ptr } [[R]]
; CHECK-NOT: @__fz_tape_free
; CHECK-LABEL: define internal void @fz_rev_g(
; CHECK-SAME: ptr [[IN:%[^ ]+]])
; CHECK-NEXT: fz.rev.entry:
; CHECK-NEXT: [[LOCAL2:%.*]] = alloca i8, i64 [[SIZE]], align 16
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 16 [[LOCAL2]], ptr align 16 [[IN]], i64 24, i1 false)
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: call void @__fz_tape_free(ptr [[IN]])
; CHECK-NEXT: ret void
; CHECK-NOT: @__fz_tape_free
; CHECK: {{^}}}
