; Decision: a store followed by loads (`*out = s; return x[0] * out[1];`) is not
; deferred (`memory::deferrable_stores` requires that nothing after it reads memory):
; it stays in the forward sweep. `out` may alias `x`, so the loads of `x[i]` in the loop
; are no longer stable and are cached in the loop's record.
; Why it matters: deferring this store would let the later loads read stale memory; it
; is the counterpart of final_store_deferred.ll.
;
; double sumsq_out_read(const double *x, double *out, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += x[i] * x[i];
;   *out = s;
;   return x[0] * out[1];
; }
; void grad(const double *x, double *dx, double *out, double *dout, int n) {
;   __enzyme_autodiff((void *)sumsq_out_read, x, dx, out, dout, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @sumsq_out_read(ptr %x, ptr %out, i32 %n) {
entry:
  %cmp12 = icmp sgt i32 %n, 0
  br i1 %cmp12, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %3, %for.body ]
  store double %s.0.lcssa, ptr %out, align 8
  %0 = load double, ptr %x, align 8
  %arrayidx4 = getelementptr i8, ptr %out, i64 8
  %1 = load double, ptr %arrayidx4, align 8
  %mul = fmul double %0, %1
  ret double %mul

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.013 = phi double [ 0.000000e+00, %for.body.preheader ], [ %3, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %2 = load double, ptr %arrayidx, align 8
  %3 = call double @llvm.fmuladd.f64(double %2, double %2, double %s.013)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq_out_read, ptr %x, ptr %dx, ptr %out, ptr %dout, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_sumsq_out_read(
; CHECK-LABEL: {{^}}for.cond.cleanup:
; CHECK-NEXT: [[S:%.*]] = phi {{(contract )?}}double
; CHECK-NEXT: store double [[S]], ptr %out, align 8
; CHECK-LABEL: {{^}}for.body:
; CHECK: [[XI:%.*]] = load double, ptr
; CHECK: [[REC:%.*]] = call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 8)
; CHECK-NEXT: store double [[XI]], ptr [[REC]]
; CHECK-LABEL: {{^}}rev.entry:
; CHECK-NOT: store double {{.*}}, ptr %out
; CHECK: ret void
; CHECK: {{^}}}
