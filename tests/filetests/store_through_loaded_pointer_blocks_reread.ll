; Decision: a store through a pointer loaded from memory (`out[i][0] = ...`) writes an
; object the write analysis cannot name (`Obj::Unknown` in memory.rs), so no load of the
; function may be repeated in the reverse sweep: `x[i]` is cached in the loop's record
; along with the shadow of the loaded pointer `out[i]` (the reverse sweep needs it to
; read the adjoint of `out[i][0]`).
; Why it matters: `out[i]` may point into `x`; re-reading `x[i]` after the forward sweep
; could see the overwritten value.
;
; void via_ptr(const double *x, double **out, int n) {
;   for (int i = 0; i < n; i++) out[i][0] = x[i] * x[i];
; }
; void grad(const double *x, double *dx, double **out, double **dout, int n) {
;   __enzyme_autodiff((void *)via_ptr, x, dx, out, dout, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @via_ptr(ptr %x, ptr %out, i32 %n) {
entry:
  %cmp11 = icmp sgt i32 %n, 0
  br i1 %cmp11, label %for.body.preheader, label %for.cond.cleanup

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
  %arrayidx4 = getelementptr ptr, ptr %out, i64 %indvars.iv
  %1 = load ptr, ptr %arrayidx4, align 8
  store double %mul, ptr %1, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @via_ptr, ptr %x, ptr %dx, ptr %out, ptr %dout, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_via_ptr(
; CHECK-LABEL: {{^}}for.body:
; CHECK: [[XI:%.*]] = load double, ptr
; CHECK: [[P:%.*]] = load ptr, ptr
; CHECK-NEXT: [[PSH:%.*]] = load ptr, ptr
; CHECK: [[REC:%.*]] = call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 16)
; CHECK-DAG: [[F1:%.*]] = getelementptr i8, ptr [[REC]], i64 8
; CHECK-DAG: store double [[XI]], ptr [[F1]]
; CHECK-DAG: store ptr [[PSH]], ptr [[REC]]
; CHECK-LABEL: {{^}}rev.for.body:
; CHECK-NOT: getelementptr double, ptr %x,
; CHECK-NOT: load ptr, ptr %out
; CHECK: {{^}}}
