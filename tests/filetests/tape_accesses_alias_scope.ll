; Decision: loads and stores of cached values (tape slots and record fields,
; `reverse/values.rs`) are in the alias scope `ferrozyme.tape`, and every other load and
; store of the generated function is marked `!noalias` with it (`reverse/alias.rs`):
; tape buffers come from the runtime and no other pointer reaches them.
; Why it matters: without it LLVM must assume a shadow store in a reverse loop may
; overwrite the tape, and re-loads loop-invariant cached values (here `c`, read by the
; inner loop's reverse) in every iteration.
;
; double f(double *restrict buf, const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) {
;     double c = buf[i];            // overwritten below: cached per i
;     buf[i] = x[i];
;     for (int j = 0; j < n; j++) s += c * x[j] * x[j];
;   }
;   return s;
; }
; void grad(double *buf, double *dbuf, const double *x, double *dx, int n) {
;   __enzyme_autodiff((void *)f, enzyme_dup, buf, dbuf, enzyme_dup, x, dx, enzyme_const, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=OPT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @f(ptr noalias %buf, ptr %x, i32 %n) {
entry:
  %cmp32 = icmp sgt i32 %n, 0
  br i1 %cmp32, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %wide.trip.count40 = zext i32 %n to i64
  br label %for.body8.preheader

for.cond.cleanup:                                 ; preds = %for.cond.cleanup7, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %3, %for.cond.cleanup7 ]
  ret double %s.0.lcssa

for.body8.preheader:                              ; preds = %for.cond.cleanup7, %for.body.lr.ph
  %indvars.iv37 = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next38, %for.cond.cleanup7 ]
  %s.034 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %3, %for.cond.cleanup7 ]
  %arrayidx = getelementptr double, ptr %buf, i64 %indvars.iv37
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr double, ptr %x, i64 %indvars.iv37
  %1 = load double, ptr %arrayidx2, align 8
  store double %1, ptr %arrayidx, align 8
  br label %for.body8

for.cond.cleanup7:                                ; preds = %for.body8
  %indvars.iv.next38 = add i64 %indvars.iv37, 1
  %exitcond41.not = icmp eq i64 %indvars.iv.next38, %wide.trip.count40
  br i1 %exitcond41.not, label %for.cond.cleanup, label %for.body8.preheader

for.body8:                                        ; preds = %for.body8.preheader, %for.body8
  %indvars.iv = phi i64 [ 0, %for.body8.preheader ], [ %indvars.iv.next, %for.body8 ]
  %s.130 = phi double [ %s.034, %for.body8.preheader ], [ %3, %for.body8 ]
  %arrayidx10 = getelementptr double, ptr %x, i64 %indvars.iv
  %2 = load double, ptr %arrayidx10, align 8
  %mul = fmul double %0, %2
  %3 = call double @llvm.fmuladd.f64(double %mul, double %2, double %s.130)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count40
  br i1 %exitcond.not, label %for.cond.cleanup7, label %for.body8
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %buf, ptr %dbuf, ptr %x, ptr %dx, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %buf, ptr %dbuf, i32 %0, ptr %x, ptr %dx, i32 %1, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)



; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-LABEL: {{^}}for.body8.preheader:
; Primal accesses: not the tape, and (gmm18, shadow_params_disjoint_scope.ll) not the
; shadows either.
; CHECK: [[C:%.*]] = load double, ptr %arrayidx, align 8, !noalias [[PRIM:![0-9]+]]
; CHECK: store double {{%.*}}, ptr %arrayidx, align 8, !noalias [[PRIM]]
; CHECK: store double [[C]], ptr {{%.*}}, align 8, !alias.scope [[TAPE:![0-9]+]]
; CHECK-LABEL: {{^}}rev.for.body8:
; CHECK: load double, ptr {{%.*}}, align 8, !noalias [[TAPE]]
; CHECK: load double, ptr {{%.*}}, align 8, !alias.scope [[TAPE]]
; CHECK: [[TAPE]] = !{[[SCOPE:![0-9]+]]}
; CHECK: [[SCOPE]] = !{!"ferrozyme.tape", [[DOMAIN:![0-9]+]]}
; CHECK: [[DOMAIN]] = !{!"ferrozyme"}
; CHECK: [[PRIM]] = !{[[SCOPE]], {{![0-9]+}}}

; After -O2 the cached `c` is read once per outer iteration, outside the reverse of
; the inner loop (whose body adds into the shadow of x).
; OPT-LABEL: define void @grad(
; OPT: load double, ptr {{%.*}}, align 8, !alias.scope [[TS:![0-9]+]]{{$}}
; OPT-NEXT: br label %[[LOOP:rev.for.body8[^ ]*]]
; OPT: {{^}}[[LOOP]]:
; OPT-NOT: !alias.scope [[TS]]{{$|,}}
; OPT: br i1 {{.*}}label %[[LOOP]]
