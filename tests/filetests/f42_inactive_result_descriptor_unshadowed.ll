; Decision: the base address flang's MAXLOC(..., DIM=) writes into its result descriptor
; (`_FortranAMaxlocDim`, inactive, no IR: ferrozyme_rules::fortran::fills_inactive_result),
; read back from a `memcpy` copy of the descriptor as flang-22 -O0 reads it, gets no
; shadow (activity/inactive_results.rs): the integer locations carry no derivative and
; the shadow descriptor's slot is never written. The `free` of the result is not repeated
; on a shadow, in reverse and forward mode; the location still indexes the active array.
; Why it matters: the shadow address was read from the unwritten shadow slot, so the
; derivative freed or copied from garbage (a segfault; tests/fortran/89 at -O0 for TRIM,
; tests/fortran/106 and 107 for the other routines that allocate an inactive result).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal {{.*}}@fz_grad_loss(
; CHECK: call void @_FortranAMaxlocDim(ptr %res, ptr %src,
; CHECK-NOT: load ptr, ptr %res.shadow
; CHECK: [[BASE:%[^ ]+]] = load ptr, ptr %res
; CHECK-NOT: load ptr, ptr %res.shadow
; CHECK: load double
; CHECK-NOT: @__fz_shadow_primal_freed(
; CHECK: call void @free(ptr [[BASE]])
; CHECK-NOT: @__fz_shadow_primal_freed(
; CHECK-NOT: @free(
; CHECK: ret void
; CHECK-LABEL: define internal {{.*}}@fz_fwd_loss(
; CHECK: call void @_FortranAMaxlocDim(ptr %res, ptr %src,
; CHECK-NOT: load ptr, ptr %res.d0
; CHECK: [[FBASE:%[^ ]+]] = load ptr, ptr %res
; CHECK-NOT: load ptr, ptr %res.d0
; CHECK: call void @free(ptr [[FBASE]])
; CHECK-NOT: @free(
; CHECK: ret void

@enzyme_dup = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare void @__enzyme_fwddiff(ptr, ...)
declare void @_FortranAMaxlocDim(ptr, ptr, i32, i32, ptr, i32, ptr, i1)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1)

define void @loss(ptr %x, ptr %f) {
entry:
  %src = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8
  %res = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8
  %copy = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8
  %d0 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } { ptr undef, i64 8, i32 20240719, i8 2, i8 28, i8 0, i8 0, [2 x [3 x i64]] [[3 x i64] [i64 1, i64 3, i64 8], [3 x i64] [i64 1, i64 4, i64 24]] }, ptr %x, 0
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %d0, ptr %src, align 8
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr null, i64 4, i32 20240719, i8 1, i8 9, i8 2, i8 0, [1 x [3 x i64]] zeroinitializer }, ptr %res, align 8
  call void @_FortranAMaxlocDim(ptr %res, ptr %src, i32 4, i32 1, ptr null, i32 0, ptr null, i1 false)
  call void @llvm.memcpy.p0.p0.i32(ptr %copy, ptr %res, i32 48, i1 false)
  %g = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %copy, i32 0, i32 0
  %base = load ptr, ptr %g, align 8
  %at = getelementptr i32, ptr %base, i64 2
  %k = load i32, ptr %at, align 4
  %k1 = add nsw i32 %k, -1
  %k64 = sext i32 %k1 to i64
  %p = getelementptr double, ptr %x, i64 %k64
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  store double %sq, ptr %f, align 8
  call void @free(ptr %base)
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %f, ptr %df) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @loss, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %f, ptr %df)
  ret void
}

define void @tangent(ptr %x, ptr %dx, ptr %f, ptr %df) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_fwddiff(ptr @loss, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %f, ptr %df)
  ret void
}
