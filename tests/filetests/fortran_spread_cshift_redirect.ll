; Decision: flang's transformational routines SPREAD, CSHIFT (and CshiftVector) and the
; DIM= reductions SUM/MAXVAL/MINVAL (`SumDim`, ...) on real data are redirected, inside
; the clone being differentiated, to C implementations in runtime/fortran.c whose IR is
; differentiated like user code (the result array is allocated there, as flang's
; runtime does); non-real data go to flang's own routines through inactive aliases.
; Why it matters: a periodic stencil written with CSHIFT, or `sum(a, dim=1)`, is
; everyday Fortran; at -O0 every one of these was a missing-derivative error, and SPREAD
; stays a runtime call at -O2 (tests/fortran/16_cshift_spread_dim.f90).
;
; Reduced from flang-22: r = spread(x(1:2), 1, 2) (a 2x2 result), then r(1,1) * r(2,2).
; The source descriptor's type code is the constant 28, so (since f43) the call goes to the
; real(8)-only version `__fz_f18_spread_r8` (filetest f43_fortran_spread_pack_real_kind).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%desc1 = type { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }
%desc2 = type { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }

@enzyme_dup = external global i32

declare void @_FortranASpread(ptr, ptr, i32, i64, ptr, i32)
declare void @free(ptr)
declare double @__enzyme_autodiff(ptr, ...)

define double @spr(ptr %x) {
entry:
  %r = alloca %desc2, align 8
  %src = alloca %desc1, align 8
  store %desc2 { ptr null, i64 8, i32 20240719, i8 2, i8 28, i8 2, i8 0, [2 x [3 x i64]] zeroinitializer }, ptr %r, align 8
  %s0 = insertvalue %desc1 { ptr undef, i64 8, i32 20240719, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 2, i64 8]] }, ptr %x, 0
  store %desc1 %s0, ptr %src, align 8
  call void @_FortranASpread(ptr %r, ptr %src, i32 1, i64 2, ptr null, i32 1)
  %base = load ptr, ptr %r, align 8
  %a = load double, ptr %base, align 8
  %p = getelementptr double, ptr %base, i64 3
  %b = load double, ptr %p, align 8
  %m = fmul double %a, %b
  call void @free(ptr %base)
  ret double %m
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %0 = call double (ptr, ...) @__enzyme_autodiff(ptr @spr, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_spr(
; CHECK-NOT: @_FortranASpread(
; CHECK: @fz_aug___fz_f18_spread_r8(ptr %r, ptr %r.shadow, ptr %src, ptr %src.shadow, i32 1, i64 2,
; CHECK: @fz_rev___fz_f18_spread_r8(ptr %r, ptr %r.shadow, ptr %src, ptr %src.shadow, i32 1, i64 2,
; CHECK-LABEL: define
; CHECK-NOT: _inactive(
