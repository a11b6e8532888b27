; Decision: a tape stack's first growth copies nothing when the stack had no buffer (a
; split-mode tape's stacks start with data null and capacity 1: "not heap memory, 0
; bytes"): `__fz_grow` tests the old buffer's bytes and calls `memcpy` only when there are
; some, on the slab path (a first buffer of up to 32 KiB) and on the pool path (a larger
; first buffer taken from the per-thread pool). An inline buffer of a combined function
; (capacity 257) still has its 256 bytes copied.
; Why it matters: the recursive FFT's augmented calls each reserve their stack once
; (65,534 first growths per gradient); each paid a call of `memcpy` of 0 bytes (about 15
; instructions: bench/README "perf26", -1.0M instructions per gradient).
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

define void @split(ptr %x, ptr %dx, i32 %n, double %dret) {
entry:
  %call = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @g, ptr %x, ptr %dx, i32 %n)
  %call1 = call double (ptr, ...) @__enzyme_reverse(ptr @g, ptr %x, ptr %dx, i32 %n, double %dret, ptr %call)
  ret void
}

declare ptr @__enzyme_augmentfwd(ptr, ...)

declare double @__enzyme_reverse(ptr, ...)

; The split tape's stack starts empty ...
; CHECK-LABEL: define internal { double, ptr } @fz_aug_g(
; CHECK: store ptr null, ptr [[S:%[^,]+]],
; CHECK-NEXT: [[CAP:%.*]] = getelementptr i8, ptr [[S]], i64 16
; CHECK-NEXT: store i64 1, ptr [[CAP]]
; ... and its first growth skips the copy of its (no) bytes.
; CHECK-LABEL: define internal { ptr, i64 } @__fz_grow(ptr %data, i64 %cap, i64 %need)
; CHECK: %used = and i64 %cap, -8
; CHECK: slab:
; CHECK: %sd = call ptr @__fz_slab_take(i64 %c16)
; CHECK-NEXT: %slabempty = icmp eq i64 %used, 0
; CHECK-NEXT: br i1 %slabempty, label %slabdone, label %slabcopy
; CHECK: slabcopy:
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %sd, ptr %data, i64 %used, i1 false)
; CHECK-NEXT: br label %slabdone
; CHECK: slabdone:
; CHECK-NOT: memcpy
; CHECK: pooled:
; CHECK: %poolempty = icmp eq i64 %used, 0
; CHECK-NEXT: br i1 %poolempty, label %done, label %poolcopy
; CHECK: poolcopy:
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %pd, ptr %data, i64 %used, i1 false)
