; Decision: a libm call with an output pointer writes it. frexp stores the exponent
; through its `int *` (here an -O0 stack slot the loop overwrites each iteration), so the
; reverse sweep must not re-read the slot after the loop (that gives every iteration the
; last exponent): the loaded exponent is cached per iteration (reverse/memory.rs
; `writes_of`; remquo's quotient bits and lgamma_r's sign alike; tests/c/1419, 1430).
;
; double f(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) { int e; double m = frexp(x[i], &e); s += m * e; }
;   return s;
; }
; (clang-22 -O0, the loop's scalars promoted to registers by hand, attributes removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: for.body:
; CHECK: call double @frexp(double noundef %xi, ptr noundef %e)
; CHECK: rev.for.body:
; CHECK-NOT: load i32, ptr %e
; CHECK: %fz.cached = load i32, ptr %{{.+}}, !ferrozyme.tape.int
; CHECK-NEXT: sitofp i32 %fz.cached to double
; CHECK-NOT: load i32, ptr %e
; CHECK: rev.for.end:

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @f(ptr noundef %x, i32 noundef %n) {
entry:
  %e = alloca i32, align 4
  br label %for.cond

for.cond:
  %i = phi i32 [ 0, %entry ], [ %i.next, %for.body ]
  %s = phi double [ 0.000000e+00, %entry ], [ %s.next, %for.body ]
  %cmp = icmp slt i32 %i, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds double, ptr %x, i64 %idx
  %xi = load double, ptr %p, align 8
  %m = call double @frexp(double noundef %xi, ptr noundef %e)
  %ev = load i32, ptr %e, align 4
  %ef = sitofp i32 %ev to double
  %s.next = call double @llvm.fmuladd.f64(double %m, double %ef, double %s)
  %i.next = add nsw i32 %i, 1
  br label %for.cond

for.end:
  ret double %s
}

declare double @frexp(double noundef, ptr noundef)
declare double @llvm.fmuladd.f64(double, double, double)
declare double @__enzyme_autodiff(ptr, ...)

define void @grad(ptr %x, ptr %dx, i32 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i32 %n)
  ret void
}
