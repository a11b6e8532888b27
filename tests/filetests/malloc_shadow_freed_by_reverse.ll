; Decision: memory the function allocates gets a zeroed shadow of the same size
; (`calloc(size, 1)` next to the `malloc`), freed when the reverse sweep replays the
; `malloc` (the adjoints in it are needed until then). The primal `free`, in a block that
; runs once on every path to the return, moves after the reverse sweep
; (`reverse::memory::deferrable_frees`): the buffer then stays valid while the reverse
; sweep runs, and since nothing writes `t` after the second loop reads it
; (`memory::stable_after`), `t[i]` is re-read there instead of cached: no push.
; Why it matters: freeing the shadow with the primal would make the reverse sweep
; write to freed memory; never freeing it would leak per gradient call; caching a
; buffer the function filled before a loop costs a tape entry per iteration (GMM's
; `Qdiags`, filled before the main loop and only read in it).
;
; double heap_sq(const double *x, int n) {
;   double *t = malloc(n * sizeof(double));
;   for (int i = 0; i < n; i++) t[i] = x[i] * 2.0;
;   double s = 0;
;   for (int i = 0; i < n; i++) s += t[i] * t[i];
;   free(t);
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)heap_sq, x, dx, n); }
; // The primal free moves to the end of the reverse sweep, after the shadow's.
; // The second loop reads t: its loads are re-read by the reverse sweep.
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @heap_sq(ptr %x, i32 %n) {
entry:
  %conv = sext i32 %n to i64
  %mul = shl i64 %conv, 3
  %call = call noalias ptr @malloc(i64 %mul)
  %cmp31 = icmp sgt i32 %n, 0
  br i1 %cmp31, label %for.body.preheader, label %for.cond.cleanup9

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.body10.preheader:                             ; preds = %for.body
  %wide.trip.count40 = zext i32 %n to i64
  br label %for.body10

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %mul2 = fmul double %0, 2.000000e+00
  %arrayidx4 = getelementptr double, ptr %call, i64 %indvars.iv
  store double %mul2, ptr %arrayidx4, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.body10.preheader, label %for.body

for.cond.cleanup9:                                ; preds = %for.body10, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.body10 ]
  call void @free(ptr %call)
  ret double %s.0.lcssa

for.body10:                                       ; preds = %for.body10.preheader, %for.body10
  %indvars.iv37 = phi i64 [ 0, %for.body10.preheader ], [ %indvars.iv.next38, %for.body10 ]
  %s.034 = phi double [ 0.000000e+00, %for.body10.preheader ], [ %2, %for.body10 ]
  %arrayidx12 = getelementptr double, ptr %call, i64 %indvars.iv37
  %1 = load double, ptr %arrayidx12, align 8
  %2 = call double @llvm.fmuladd.f64(double %1, double %1, double %s.034)
  %indvars.iv.next38 = add i64 %indvars.iv37, 1
  %exitcond41.not = icmp eq i64 %indvars.iv.next38, %wide.trip.count40
  br i1 %exitcond41.not, label %for.cond.cleanup9, label %for.body10
}

declare noalias ptr @malloc(i64)

declare double @llvm.fmuladd.f64(double, double, double)

declare void @free(ptr allocptr)

define void @grad(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @heap_sq, ptr %x, ptr %dx, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_heap_sq(
; CHECK-LABEL: {{^}}entry:
; CHECK: [[T:%.*]] = call {{.*}}ptr @malloc(i64 [[BYTES:%.*]])
; CHECK-NEXT: [[SH:%.*]] = call ptr @calloc(i64 [[BYTES]], i64 1)
; CHECK-LABEL: {{^}}for.cond.cleanup9:
; CHECK-NOT: @free(
; CHECK: br label
; CHECK-LABEL: {{^}}for.body10:
; CHECK-NOT: @__fz_push
; CHECK: br i1
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NEXT: call void @free(ptr [[SH]])
; CHECK-NEXT: call void @free(ptr [[T]])
; CHECK-LABEL: {{^}}rev.for.body10:
; CHECK-NOT: @__fz_top(
; CHECK: [[P:%.*]] = getelementptr double, ptr [[T]]
; CHECK: load double, ptr [[P]]
; CHECK-NOT: @__fz_top(
; CHECK: {{^}}}
