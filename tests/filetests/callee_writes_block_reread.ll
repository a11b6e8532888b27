; Decision: the write analysis (reverse/memory.rs) looks into callees: `bump(y)` writes
; its argument, which is `y` at the call site, and `y` may alias `x`, so the loads of
; `x[i]` in the same loop are cached (a field of the loop's record, next to `bump`'s
; tape) instead of re-read. A callee that only reads (`peek`, `memory(argmem: read)`)
; writes nothing, and the same loop re-reads `x[i]`.
; Why it matters: a call that writes through an argument is as much a write as a store;
; missing it would re-read overwritten memory (a silently wrong derivative), counting a
; read-only callee as a write would cache the whole input.
;
; __attribute__((noinline)) void bump(double *p) { p[0] += 1.0; }
; __attribute__((noinline)) double peek(const double *p) { return p[0]; }
; double callee_writes(const double *x, double *y, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) {
;     bump(y);
;     s += x[i] * x[i];
;   }
;   return s;
; }
; double callee_reads(const double *x, const double *y, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += x[i] * x[i] * peek(y);
;   return s;
; }
; void grad_w(const double *x, double *dx, double *y, double *dy, int n) {
;   __enzyme_autodiff((void *)callee_writes, x, dx, y, dy, n);
; }
; void grad_r(const double *x, double *dx, const double *y, double *dy, int n) {
;   __enzyme_autodiff((void *)callee_reads, x, dx, y, dy, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=WRITES
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=READS

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @bump(ptr %p) memory(argmem: readwrite) {
entry:
  %0 = load double, ptr %p, align 8
  %add = fadd double %0, 1.000000e+00
  store double %add, ptr %p, align 8
  ret void
}

define double @peek(ptr %p) memory(argmem: read) {
entry:
  %0 = load double, ptr %p, align 8
  ret double %0
}

define double @callee_writes(ptr %x, ptr %y, i32 %n) memory(argmem: readwrite) {
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
  call void @bump(ptr %y)
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %1 = call double @llvm.fmuladd.f64(double %0, double %0, double %s.09)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define double @callee_reads(ptr %x, ptr %y, i32 %n) memory(argmem: read) {
entry:
  %cmp9 = icmp sgt i32 %n, 0
  br i1 %cmp9, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %call = call double @peek(ptr %y)
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %1, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next, %for.body ]
  %s.010 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %1, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %mul = fmul double %0, %0
  %1 = call double @llvm.fmuladd.f64(double %mul, double %call, double %s.010)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define void @grad_w(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @callee_writes, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

define void @grad_r(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @callee_reads, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n)
  ret void
}

; WRITES-LABEL: define internal void @fz_grad_callee_writes(
; WRITES-LABEL: {{^}}for.body:
; WRITES: call { ptr } @fz_aug_bump(ptr %y, ptr %y.shadow)
; WRITES: [[XI:%.*]] = load double, ptr
; WRITES: [[REC:%.*]] = call ptr @__fz_push{{(_reserved)?}}(ptr {{%.*}}, i64 16)
; WRITES: store double [[XI]], ptr
; WRITES-LABEL: {{^}}rev.for.body:
; WRITES-NOT: getelementptr double, ptr %x,
; WRITES: {{^}}}
; READS-LABEL: define internal void @fz_grad_callee_reads(
; READS-LABEL: {{^}}for.body:
; READS-NOT: store double
; READS: br i1
; READS-LABEL: {{^}}rev.for.body:
; READS: [[P:%.*]] = getelementptr double, ptr %x, i64
; READS-NEXT: load double, ptr [[P]]
; READS: {{^}}}
