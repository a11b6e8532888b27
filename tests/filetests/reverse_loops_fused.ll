; Decision: after the pipeline, two adjacent one-block loops of a generated function that
; count alike (same start, step +-1, exit test) become one when no access of one can meet
; an access of the other in a different trip: the same `base[i]` slot, different objects,
; or a parameter marked as a shadow against primal memory (the AD contract). In the fused
; body a load of a slot the first part stored takes the stored value, a store
; overwritten in the same trip goes, and the `base[i]` addresses read the counter through
; one `freeze` of `counter + 0` (code generation's LSR then keeps one index register instead of a pointer
; per array) (`crates/ferrozyme-transform/src/adjoint_fusion.rs`).
; Here the reverse of `sqnorm` and of `y = q * xc` fuse (`dy[i]` stays in a register, its
; block `rev.for.body9` is gone), and so do the forward sweep's two loops; the reverse
; of `xc = x - mu` stays a loop of its own, because it writes `dmu` and the diagonal's
; reverse writes `dq`, two shadow parameters that may be one buffer. The primal `f`
; keeps its three loops (user code is not fused).
; Why it matters: GMM's reverse diagonal and subtract loops (bench/README "gmm14": the
; gradient 49.86M -> 45.22M instructions per call at the harness flags, grad/primal
; 2.70 -> 2.44); values are bit for bit the same (no arithmetic changes).
;
; #include <stdlib.h>
; extern double __enzyme_autodiff(void *, ...);
; extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
; void f(long n, const double *x, const double *mu, const double *q, double *out) {
;   double *xc = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
;   for (long i = 0; i < n; i++) xc[i] = x[i] - mu[i];
;   for (long i = 0; i < n; i++) y[i] = q[i] * xc[i];
;   double s = 0.0;
;   for (long i = 0; i < n; i++) s += y[i] * y[i];
;   *out = s;
;   free(xc);
;   free(y);
; }
; /* Five calls: the derivative stays a function of its own (not inlined). */
; #define G(k) __enzyme_autodiff((void *)f, enzyme_const, n, enzyme_const, x, enzyme_dup, \
;     mu, dmu + k * n, enzyme_dup, q, dq + k * n, enzyme_dupnoneed, out, dout + k)
; void g(long n, const double *x, const double *mu, double *dmu, const double *q, double *dq,
;        double *out, double *dout) {
;   G(0); G(1); G(2); G(3); G(4);
; }
; (tools/filetest-ir.py f.c -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops)
;
; RUN: %ferrozyme opt %s -O1 -o - | %FileCheck %s

; CHECK-LABEL: define {{.*}} @f(
; CHECK: for.body:
; CHECK: for.body9:
; CHECK: for.body21:
; CHECK-LABEL: define internal {{.*}} @fz_grad_f(
; CHECK-NOT: ferrozyme-shadow
; CHECK: for.body:
; CHECK-NOT: for.body9:
; CHECK: store double %sub, ptr
; CHECK: store double %{{.*}}, ptr
; CHECK: br i1 %exitcond.not, label %{{.*}}, label %for.body
; CHECK: rev.for.body:
; CHECK: %mu.shadow
; CHECK: br i1 %{{.*}}, label %rev.entry, label %rev.for.body
; CHECK-NOT: rev.for.body9:
; CHECK: rev.for.body21:
; CHECK-NEXT: %[[I:.*]] = phi i64
; CHECK-NEXT: %[[COPY:[0-9]+]] = add i64 %[[I]], 0
; CHECK-NEXT: %[[IDX:[0-9]+]] = freeze i64 %[[COPY]]
; CHECK: %[[DY:[0-9]+]] = getelementptr double, ptr %{{[0-9]+}}, i64 %[[IDX]]
; CHECK-NEXT: %[[OLD:.*]] = load double, ptr %[[DY]]
; CHECK-NEXT: %[[NEW:[0-9]+]] = fadd {{.*}} %[[OLD]],
; CHECK-NOT: store double %[[NEW]]
; CHECK: store double 0.000000e+00, ptr %[[DY]]
; CHECK-NOT: load double, ptr %[[DY]]
; CHECK: %q.shadow
; CHECK: br i1 %{{.*}}, label %rev.for.body, label %rev.for.body21

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4
@enzyme_dup = external global i32, align 4
@enzyme_dupnoneed = external global i32, align 4

define void @f(i64 %n, ptr %x, ptr %mu, ptr %q, ptr %out) {
entry:
  %mul = shl i64 %n, 3
  %call = call noalias ptr @malloc(i64 %mul)
  %call2 = call noalias ptr @malloc(i64 %mul)
  %cmp49 = icmp sgt i64 %n, 0
  br i1 %cmp49, label %for.body, label %for.cond.cleanup20

for.body:                                         ; preds = %entry, %for.body
  %i.050 = phi i64 [ %inc, %for.body ], [ 0, %entry ]
  %arrayidx = getelementptr double, ptr %x, i64 %i.050
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx3 = getelementptr double, ptr %mu, i64 %i.050
  %1 = load double, ptr %arrayidx3, align 8
  %sub = fsub double %0, %1
  %arrayidx4 = getelementptr double, ptr %call, i64 %i.050
  store double %sub, ptr %arrayidx4, align 8
  %inc = add i64 %i.050, 1
  %exitcond.not = icmp eq i64 %inc, %n
  br i1 %exitcond.not, label %for.body9, label %for.body

for.body9:                                        ; preds = %for.body, %for.body9
  %i5.052 = phi i64 [ %inc15, %for.body9 ], [ 0, %for.body ]
  %arrayidx10 = getelementptr double, ptr %q, i64 %i5.052
  %2 = load double, ptr %arrayidx10, align 8
  %arrayidx11 = getelementptr double, ptr %call, i64 %i5.052
  %3 = load double, ptr %arrayidx11, align 8
  %mul12 = fmul double %2, %3
  %arrayidx13 = getelementptr double, ptr %call2, i64 %i5.052
  store double %mul12, ptr %arrayidx13, align 8
  %inc15 = add i64 %i5.052, 1
  %exitcond56.not = icmp eq i64 %inc15, %n
  br i1 %exitcond56.not, label %for.body21, label %for.body9

for.cond.cleanup20:                               ; preds = %for.body21, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %5, %for.body21 ]
  store double %s.0.lcssa, ptr %out, align 8
  call void @free(ptr %call)
  call void @free(ptr %call2)
  ret void

for.body21:                                       ; preds = %for.body9, %for.body21
  %i17.055 = phi i64 [ %inc26, %for.body21 ], [ 0, %for.body9 ]
  %s.054 = phi double [ %5, %for.body21 ], [ 0.000000e+00, %for.body9 ]
  %arrayidx22 = getelementptr double, ptr %call2, i64 %i17.055
  %4 = load double, ptr %arrayidx22, align 8
  %5 = call double @llvm.fmuladd.f64(double %4, double %4, double %s.054)
  %inc26 = add i64 %i17.055, 1
  %exitcond57.not = icmp eq i64 %inc26, %n
  br i1 %exitcond57.not, label %for.cond.cleanup20, label %for.body21
}

declare noalias ptr @malloc(i64)

declare double @llvm.fmuladd.f64(double, double, double)

declare void @free(ptr allocptr)

define void @g(i64 %n, ptr %x, ptr %mu, ptr %dmu, ptr %q, ptr %dq, ptr %out, ptr %dout) {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  %1 = load i32, ptr @enzyme_dup, align 4
  %2 = load i32, ptr @enzyme_dupnoneed, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, i64 %n, i32 %0, ptr %x, i32 %1, ptr %mu, ptr %dmu, i32 %1, ptr %q, ptr %dq, i32 %2, ptr %out, ptr %dout)
  %3 = load i32, ptr @enzyme_const, align 4
  %4 = load i32, ptr @enzyme_dup, align 4
  %add.ptr5 = getelementptr double, ptr %dmu, i64 %n
  %add.ptr7 = getelementptr double, ptr %dq, i64 %n
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %add.ptr8 = getelementptr i8, ptr %dout, i64 8
  %call9 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %3, i64 %n, i32 %3, ptr %x, i32 %4, ptr %mu, ptr %add.ptr5, i32 %4, ptr %q, ptr %add.ptr7, i32 %5, ptr %out, ptr %add.ptr8)
  %6 = load i32, ptr @enzyme_const, align 4
  %7 = load i32, ptr @enzyme_dup, align 4
  %mul10 = shl i64 %n, 1
  %add.ptr11 = getelementptr double, ptr %dmu, i64 %mul10
  %add.ptr13 = getelementptr double, ptr %dq, i64 %mul10
  %8 = load i32, ptr @enzyme_dupnoneed, align 4
  %add.ptr14 = getelementptr i8, ptr %dout, i64 16
  %call15 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %6, i64 %n, i32 %6, ptr %x, i32 %7, ptr %mu, ptr %add.ptr11, i32 %7, ptr %q, ptr %add.ptr13, i32 %8, ptr %out, ptr %add.ptr14)
  %9 = load i32, ptr @enzyme_const, align 4
  %10 = load i32, ptr @enzyme_dup, align 4
  %mul16 = mul i64 %n, 3
  %add.ptr17 = getelementptr double, ptr %dmu, i64 %mul16
  %add.ptr19 = getelementptr double, ptr %dq, i64 %mul16
  %11 = load i32, ptr @enzyme_dupnoneed, align 4
  %add.ptr20 = getelementptr i8, ptr %dout, i64 24
  %call21 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %9, i64 %n, i32 %9, ptr %x, i32 %10, ptr %mu, ptr %add.ptr17, i32 %10, ptr %q, ptr %add.ptr19, i32 %11, ptr %out, ptr %add.ptr20)
  %12 = load i32, ptr @enzyme_const, align 4
  %13 = load i32, ptr @enzyme_dup, align 4
  %mul22 = shl i64 %n, 2
  %add.ptr23 = getelementptr double, ptr %dmu, i64 %mul22
  %add.ptr25 = getelementptr double, ptr %dq, i64 %mul22
  %14 = load i32, ptr @enzyme_dupnoneed, align 4
  %add.ptr26 = getelementptr i8, ptr %dout, i64 32
  %call27 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %12, i64 %n, i32 %12, ptr %x, i32 %13, ptr %mu, ptr %add.ptr23, i32 %13, ptr %q, ptr %add.ptr25, i32 %14, ptr %out, ptr %add.ptr26)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)


