; Decision: an augmented function of a nested split pair copies its local tape into the
; caller's tape block at each return without the capacity field of any stack whose room
; it claimed from the outermost call's region (`reverse/tape_region.rs`,
; `copy_out_read_fields`): such a stack is never grown (`__fz_push_reserved`) nor released,
; and its reverse reads only the data pointer and the length. `two` has two counted loops
; (stacks at tape offsets 16 and 48, both claimed from the region: capacities at 32 and
; 64 not copied) and the 4-way unrolled body of its second loop, whose stack at 104 is
; pushed with checks (its capacity at 120 is copied). `upto` (a loop with a `break`, no
; sure bound) keeps its own checked stack: its whole tape is copied.
; Why it matters: the capacity was one dead store, and its address, per counted loop in
; every augmented function (bench/compile_scaling's `chain`, n = 320: 308 of the
; augmented functions' 13,930 instructions after the pipeline; issue 18).
;
; __attribute__((noinline)) double two(const double *x, int n) {
;   double s = 0.0, t = 1.0;
;   for (int i = 0; i < n; i++) s += exp(x[i]) * x[i];
;   for (int i = 0; i < n; i++) t += sin(x[i] * s);
;   return s * t;
; }
; __attribute__((noinline)) double upto(const double *x, int n) {
;   double s = 0.0;
;   for (int i = 0; i < n; i++) { if (x[i] > 100.0) break; s += exp(x[i]) * x[i]; }
;   return s;
; }
; double top(const double *x, int n) { return two(x, n) + upto(x, n); }
; void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)top, x, dx, enzyme_const, n); }
; (clang-22 -O2, attributes and metadata removed; tests/c/880 and bench/compile_scaling run
; such loops against finite differences)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @two(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %41

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  br label %11

6:                                                ; preds = %11
  %7 = and i64 %5, 3
  %8 = icmp ult i32 %1, 4
  br i1 %8, label %22, label %9

9:                                                ; preds = %6
  %10 = and i64 %5, 2147483644
  br label %43

11:                                               ; preds = %4, %11
  %12 = phi i64 [ 0, %4 ], [ %18, %11 ]
  %13 = phi double [ 0.000000e+00, %4 ], [ %17, %11 ]
  %14 = getelementptr inbounds nuw double, ptr %0, i64 %12
  %15 = load double, ptr %14, align 8
  %16 = tail call double @exp(double noundef %15)
  %17 = tail call double @llvm.fmuladd.f64(double %16, double %15, double %13)
  %18 = add nuw nsw i64 %12, 1
  %19 = icmp eq i64 %18, %5
  br i1 %19, label %6, label %11

20:                                               ; preds = %43
  %21 = icmp eq i64 %7, 0
  br i1 %21, label %38, label %22

22:                                               ; preds = %20, %6
  %23 = phi i64 [ 0, %6 ], [ %70, %20 ]
  %24 = phi double [ 1.000000e+00, %6 ], [ %69, %20 ]
  %25 = icmp ne i64 %7, 0
  tail call void @llvm.assume(i1 %25)
  br label %26

26:                                               ; preds = %26, %22
  %27 = phi i64 [ %23, %22 ], [ %35, %26 ]
  %28 = phi double [ %24, %22 ], [ %34, %26 ]
  %29 = phi i64 [ 0, %22 ], [ %36, %26 ]
  %30 = getelementptr inbounds nuw double, ptr %0, i64 %27
  %31 = load double, ptr %30, align 8
  %32 = fmul double %17, %31
  %33 = tail call double @sin(double noundef %32)
  %34 = fadd double %28, %33
  %35 = add nuw nsw i64 %27, 1
  %36 = add i64 %29, 1
  %37 = icmp eq i64 %36, %7
  br i1 %37, label %38, label %26

38:                                               ; preds = %26, %20
  %39 = phi double [ %69, %20 ], [ %34, %26 ]
  %40 = fmul double %17, %39
  br label %41

41:                                               ; preds = %38, %2
  %42 = phi double [ 0.000000e+00, %2 ], [ %40, %38 ]
  ret double %42

43:                                               ; preds = %43, %9
  %44 = phi i64 [ 0, %9 ], [ %70, %43 ]
  %45 = phi double [ 1.000000e+00, %9 ], [ %69, %43 ]
  %46 = phi i64 [ 0, %9 ], [ %71, %43 ]
  %47 = getelementptr inbounds nuw double, ptr %0, i64 %44
  %48 = load double, ptr %47, align 8
  %49 = fmul double %17, %48
  %50 = tail call double @sin(double noundef %49)
  %51 = fadd double %45, %50
  %52 = getelementptr inbounds nuw double, ptr %0, i64 %44
  %53 = getelementptr inbounds nuw i8, ptr %52, i64 8
  %54 = load double, ptr %53, align 8
  %55 = fmul double %17, %54
  %56 = tail call double @sin(double noundef %55)
  %57 = fadd double %51, %56
  %58 = getelementptr inbounds nuw double, ptr %0, i64 %44
  %59 = getelementptr inbounds nuw i8, ptr %58, i64 16
  %60 = load double, ptr %59, align 8
  %61 = fmul double %17, %60
  %62 = tail call double @sin(double noundef %61)
  %63 = fadd double %57, %62
  %64 = getelementptr inbounds nuw double, ptr %0, i64 %44
  %65 = getelementptr inbounds nuw i8, ptr %64, i64 24
  %66 = load double, ptr %65, align 8
  %67 = fmul double %17, %66
  %68 = tail call double @sin(double noundef %67)
  %69 = fadd double %63, %68
  %70 = add nuw nsw i64 %44, 4
  %71 = add i64 %46, 4
  %72 = icmp eq i64 %71, %10
  br i1 %72, label %20, label %43
}

declare double @exp(double noundef) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

declare double @sin(double noundef) local_unnamed_addr

define dso_local double @upto(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %17

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  br label %6

6:                                                ; preds = %4, %12
  %7 = phi i64 [ 0, %4 ], [ %15, %12 ]
  %8 = phi double [ 0.000000e+00, %4 ], [ %14, %12 ]
  %9 = getelementptr inbounds nuw double, ptr %0, i64 %7
  %10 = load double, ptr %9, align 8
  %11 = fcmp ogt double %10, 1.000000e+02
  br i1 %11, label %17, label %12

12:                                               ; preds = %6
  %13 = tail call double @exp(double noundef %10)
  %14 = tail call double @llvm.fmuladd.f64(double %13, double %10, double %8)
  %15 = add nuw nsw i64 %7, 1
  %16 = icmp eq i64 %15, %5
  br i1 %16, label %17, label %6

17:                                               ; preds = %12, %6, %2
  %18 = phi double [ 0.000000e+00, %2 ], [ %8, %6 ], [ %14, %12 ]
  ret double %18
}

define dso_local double @top(ptr noundef readonly captures(none) %0, i32 noundef %1) {
  %3 = tail call double @two(ptr noundef %0, i32 noundef %1)
  %4 = tail call double @upto(ptr noundef %0, i32 noundef %1)
  %5 = fadd double %3, %4
  ret double %5
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @top, ptr noundef %0, ptr noundef %1, i32 noundef %4, i32 noundef %2)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare void @llvm.assume(i1 noundef)

; CHECK-LABEL: define internal { double, ptr } @fz_aug_two.nest(ptr %0, ptr %.shadow, i32 %1, ptr %tape, ptr %region)
; CHECK: [[A:%.*]] = call ptr @__fz_region_claim(ptr %region, i64 {{%.*}})
; CHECK-NEXT: [[SA:%.*]] = getelementptr i8, ptr %fz.tape, i64 16
; CHECK-NEXT: store ptr [[A]], ptr [[SA]]
; CHECK: [[B:%.*]] = call ptr @__fz_region_claim(ptr %region, i64 {{%.*}})
; CHECK-NEXT: [[SB:%.*]] = getelementptr i8, ptr %fz.tape, i64 48
; CHECK-NEXT: store ptr [[B]], ptr [[SB]]
; CHECK-NOT: i64 128, i1 false)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %tape, ptr align 16 %fz.tape, i64 32, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: [[D1:%.*]] = getelementptr i8, ptr %tape, i64 40
; CHECK-NEXT: [[S1:%.*]] = getelementptr i8, ptr %fz.tape, i64 40
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 [[D1]], ptr align 8 [[S1]], i64 24, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: [[D2:%.*]] = getelementptr i8, ptr %tape, i64 72
; CHECK-NEXT: [[S2:%.*]] = getelementptr i8, ptr %fz.tape, i64 72
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 [[D2]], ptr align 8 [[S2]], i64 56, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: ret { double, ptr }
; CHECK: [[P:%.*]] = getelementptr i8, ptr %fz.tape, i64 104
; CHECK-NEXT: call ptr @__fz_push(ptr [[P]], i64 32)
; CHECK-LABEL: define internal void @fz_rev_two.nest(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %fz.tape, ptr align 16 %tape, i64 128, i1 false)
; CHECK-LABEL: define internal { double, ptr } @fz_aug_upto.nest(
; CHECK-NOT: __fz_region_claim
; CHECK: call ptr @__fz_push(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %tape, ptr align 16 %fz.tape, i64 40, i1 false), !ferrozyme.tape.move
; CHECK-NEXT: ret { double, ptr }
