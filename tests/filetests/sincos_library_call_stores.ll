; Decision: the library call `void sincos(x, double *s, double *c)` (GNU, without
; -ffast-math) is replaced, in the clone being differentiated, by `llvm.sin`/`llvm.cos`
; and two stores through its pointers (crates/ferrozyme-transform/src/split_math.rs); the
; derivative then writes the shadows of `*s` and `*c` like any store (forward mode:
; cos(x) dx and -sin(x) dx; reverse mode reads and zeroes them).
; Why it matters: before, the call was a missing-derivative error; a rule row of one
; result cannot describe outputs written through pointers.
;
; void f(double x, double *s, double *c) { sincos(x, s, c); }
; void tangent(double x, double dx, double *s, double *ds, double *c, double *dc) {
;   __enzyme_fwddiff((void *)f, x, dx, enzyme_dup, s, ds, enzyme_dup, c, dc); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s


@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @f(double noundef %0, ptr noundef writeonly captures(none) %1, ptr noundef writeonly captures(none) %2) {
  tail call void @sincos(double noundef %0, ptr noundef %1, ptr noundef %2)
  ret void
}

declare void @sincos(double noundef, ptr noundef writeonly captures(none), ptr noundef writeonly captures(none)) local_unnamed_addr

define dso_local void @tangent(double noundef %0, double noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr noundef %5) local_unnamed_addr {
  %7 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @f, double noundef %0, double noundef %1, i32 noundef %7, ptr noundef %2, ptr noundef %3, i32 noundef %7, ptr noundef %4, ptr noundef %5)
  ret void
}

declare void @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr

; CHECK-LABEL: define internal void @fz_fwd_f(double %0, double %.d0, ptr %1, ptr %.d01, ptr %2, ptr %.d02)
; CHECK-NOT: @sincos
; CHECK: %[[S:[0-9]+]] = call double @llvm.sin.f64(double %0)
; CHECK: %[[C:[0-9]+]] = call double @llvm.cos.f64(double %0)
; CHECK: %[[DS:[0-9]+]] = fmul double %.d0, %[[C]]
; CHECK: %[[NS:[0-9]+]] = fneg double %[[S]]
; CHECK: %[[DC:[0-9]+]] = fmul double %.d0, %[[NS]]
; CHECK: store double %[[S]], ptr %1
; CHECK: store double %[[DS]], ptr %.d01
; CHECK: store double %[[C]], ptr %2
; CHECK: store double %[[DC]], ptr %.d02
; CHECK: ret void
