; Decision: at -O0 (after the clone's canonicalisation) the loop's test `i < n` is in
; its header, on the phi itself, and the header's record runs n + 1 times: the record
; (the header's, which also holds the body's values: `reverse/record_share.rs`) is
; reserved in the block before the loop with `n - 0 + 2` records when `n >= 0` (one
; otherwise: the header runs once), and pushed with `__fz_push_reserved`
; (reverse/fixed_tape.rs).
; Why it matters: -O0 loops have a record in the header as well as the body; a bound
; one short for the header's record would write past the buffer on the last test.
;
; double sumsin(const double *x, int n) {
;   double s = 0;
;   for (int i = 0; i < n; i++) s += sin(x[i]) * s;
;   return s;
; }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)sumsin, x, dx, n); }
; (clang-22 -O0, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local double @sumsin(ptr noundef %0, i32 noundef %1) {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca double, align 8
  %6 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  store double 0.000000e+00, ptr %5, align 8
  store i32 0, ptr %6, align 4
  br label %7

7:                                                ; preds = %21, %2
  %8 = load i32, ptr %6, align 4
  %9 = load i32, ptr %4, align 4
  %10 = icmp slt i32 %8, %9
  br i1 %10, label %11, label %24

11:                                               ; preds = %7
  %12 = load ptr, ptr %3, align 8
  %13 = load i32, ptr %6, align 4
  %14 = sext i32 %13 to i64
  %15 = getelementptr inbounds double, ptr %12, i64 %14
  %16 = load double, ptr %15, align 8
  %17 = call double @sin(double noundef %16)
  %18 = load double, ptr %5, align 8
  %19 = load double, ptr %5, align 8
  %20 = call double @llvm.fmuladd.f64(double %17, double %18, double %19)
  store double %20, ptr %5, align 8
  br label %21

21:                                               ; preds = %11
  %22 = load i32, ptr %6, align 4
  %23 = add nsw i32 %22, 1
  store i32 %23, ptr %6, align 4
  br label %7

24:                                               ; preds = %7
  %25 = load double, ptr %5, align 8
  ret double %25
}

declare double @sin(double noundef)

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
  store ptr %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %7 = load ptr, ptr %4, align 8
  %8 = load ptr, ptr %5, align 8
  %9 = load i32, ptr %6, align 4
  %10 = call double (ptr, ...) @__enzyme_autodiff(ptr noundef @sumsin, ptr noundef %7, ptr noundef %8, i32 noundef %9)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...)

; CHECK-LABEL: define internal void @fz_grad_sumsin(
; CHECK: [[ENTERED:%.*]] = icmp sge i32 %1, 0
; CHECK-NEXT: [[N:%.*]] = sext i32 %1 to i64
; CHECK-NEXT: [[D:%.*]] = sub i64 [[N]], 0
; CHECK: [[D2:%.*]] = add i64 [[D]], 2
; CHECK: select i1 [[ENTERED]], i64 {{%.*}}, i64 1
; CHECK: call void @__fz_reserve(ptr {{%.*}}, i64
; CHECK-NOT: @__fz_push(
; CHECK: icmp slt i32 {{%.*}}, %1
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call ptr @__fz_push_reserved(ptr {{%.*}}, i64 16)
; CHECK-NOT: @__fz_push
; CHECK-NOT: @__fz_reserve(
; CHECK: {{^}}}
