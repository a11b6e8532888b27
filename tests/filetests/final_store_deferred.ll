; Decision: a final store of a result to an argument (`*out = s;` at the end, nothing
; reading memory after it) is performed after the reverse sweep in combined mode
; (`memory::deferrable_stores`): the forward sweep skips it and the reverse exit block
; stores `s` just before returning. The loads of `x` are then stable (nothing the
; function does before the reverse sweep writes memory), so `x[i]` is re-read and the
; loop pushes nothing, even though `out` may alias `x`.
; Why it matters: without the move, the store to a possibly aliasing `out` would force
; caching every `x[i]` (see final_store_kept_when_memory_read_after.ll).
;
; void sumsq_out(const double *x, double *out, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += x[i] * x[i];
;   *out = s;
; }
; void grad(const double *x, double *dx, double *out, double *dout, int n) {
;   __enzyme_autodiff((void *)sumsq_out, x, dx, out, dout, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @sumsq_out(ptr %x, ptr %out, i32 %n) {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  store double %s.0.lcssa, ptr %out, align 8
  ret void

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.09 = phi double [ 0.000000e+00, %for.body.preheader ], [ %1, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %1 = call double @llvm.fmuladd.f64(double %0, double %0, double %s.09)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq_out, ptr %x, ptr %dx, ptr %out, ptr %dout, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_sumsq_out(
; CHECK-NOT: @__fz_push
; CHECK-LABEL: {{^}}for.cond.cleanup:
; CHECK-NEXT: [[S:%.*]] = phi {{(contract )?}}double
; CHECK-NOT: store double [[S]]
; CHECK: br label %rev.for.cond.cleanup
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NEXT: store double [[S]], ptr %out, align 8
; CHECK-NEXT: ret void
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK: [[P:%.*]] = getelementptr double, ptr %x, i64
; CHECK-NEXT: load double, ptr [[P]]
; CHECK-NOT: @__fz_top
; CHECK: {{^}}}
