; Decision: when a loop whose block pushes a record has a sure bound on its iterations
; at its preheader (`i` from 0 by 1, leaving when `i + 1 == n`), the forward sweep
; reserves the stack once in the preheader (`__fz_reserve` with `((n - 1) mod 2^64 + 2)`
; records of 8 bytes, saturated to 2^62 bytes, which no allocator grants, when over
; 2^40), and the loop pushes with `__fz_push_reserved`: no capacity check, no growth
; path (reverse/fixed_tape.rs).
; Why it matters: without it, a long loop grows its stack geometrically, copying it
; log(n) times.
;
; double ratio(const double *x, double c, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += sin(x[i] / c);
;   return s;
; }
; void grad(const double *x, double *dx, double c, int n) {
;   __enzyme_autodiff((void *)ratio, x, dx, enzyme_const, c, n);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4

define double @ratio(ptr %x, double %c, i32 %n) {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %add, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.05 = phi double [ 0.000000e+00, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %div = fdiv double %0, %c
  %call = call double @sin(double %div)
  %add = fadd double %s.05, %call
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @sin(double)

define void @grad(ptr %x, ptr %dx, double %c, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @ratio, ptr %x, ptr %dx, i32 %0, double %c, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_ratio(
; CHECK: [[TAPE:%.*]] = alloca i8, i64 {{[0-9]+}}, align 16
; CHECK-LABEL: {{^}}for.body.preheader:
; CHECK-NEXT: [[N:%.*]] = zext i32 %n to i64
; CHECK-NEXT: [[D:%.*]] = sub i64 [[N]], 1
; CHECK: [[CNT:%.*]] = add i64 [[D]], 2
; CHECK: [[BYTES:%.*]] = mul i64 {{%.*}}, 8
; CHECK-NEXT: [[SAT:%.*]] = select i1 {{%.*}}, i64 4611686018427387904, i64 [[BYTES]]
; CHECK-NEXT: call void @__fz_reserve(ptr [[TAPE]], i64 [[SAT]])
; CHECK-NEXT: br label %for.body
; CHECK-LABEL: {{^}}for.body:
; CHECK-NOT: @__fz_reserve
; CHECK-NOT: @__fz_push(
; CHECK: call ptr @__fz_push_reserved(ptr [[TAPE]], i64 8)
; CHECK-NOT: @__fz_reserve
; CHECK-NOT: call ptr @__fz_push(
; CHECK: {{^}}}
