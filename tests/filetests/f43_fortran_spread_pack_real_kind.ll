; Decision: flang's SPREAD and PACK (`_FortranASpread(r, x, dim, ncopies)`,
; `_FortranAPack(r, x, mask, vector)`) of an array whose descriptor the IR builds with a
; constant type code go, inside the clone being differentiated, to the implementation for
; that one kind: `__fz_f18_spread_r8` for the real(8) `x` (type code 28),
; `__fz_f18_pack_r4` for the real(4) `y` (27). The generic implementations (called where
; the code is not fixed) read the source as floats and as doubles behind run-time tests.
; Why it matters: `x` is also copied with `memcpy` (flang-22 -O2's inline CSHIFT of the
; same array); with the generic SPREAD reading it, type analysis saw doubles and floats in
; `x`, and the derivative of the copy stopped at run time ("bytes of unknown type were
; copied": tests/fortran/108 at -O2).
;
; Reduced from flang-22 -O2: c = cshift(x, 1) (a memcpy), s = spread(x, 2, 2),
; p = pack(y, y > 0); res = c(1) + s(1, 2) + p(1).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%desc1 = type { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }
%desc2 = type { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }

@enzyme_dup = external global i32
@src = private constant [4 x i8] c"f.f\00"

declare void @_FortranASpread(ptr, ptr, i32, i64, ptr, i32)
declare void @_FortranAPack(ptr, ptr, ptr, ptr, ptr, i32)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @__enzyme_autodiff(ptr, ...)


define void @f(ptr %x, ptr %y, ptr %res) {
entry:
  %c = alloca [4 x double], align 8
  %dx = alloca %desc1, align 8
  %dy = alloca %desc1, align 8
  %dm = alloca %desc1, align 8
  %ds = alloca %desc2, align 8
  %dp = alloca %desc1, align 8
  %mask = alloca [4 x i32], align 4
  ; c = cshift(x, 1), inline: x(2:4) then x(1)
  %x1 = getelementptr i8, ptr %x, i64 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %c, ptr align 8 %x1, i64 24, i1 false)
  %c3 = getelementptr i8, ptr %c, i64 24
  %x0 = load double, ptr %x, align 8
  store double %x0, ptr %c3, align 8
  ; s = spread(x, dim=2, ncopies=2)
  store ptr %x, ptr %dx, align 8
  %dx1 = getelementptr inbounds i8, ptr %dx, i64 8
  store i64 8, ptr %dx1, align 8
  %dx2 = getelementptr inbounds i8, ptr %dx, i64 16
  store i32 20240719, ptr %dx2, align 8
  %dx3 = getelementptr inbounds i8, ptr %dx, i64 20
  store i8 1, ptr %dx3, align 4
  %dx4 = getelementptr inbounds i8, ptr %dx, i64 21
  store i8 28, ptr %dx4, align 1
  %dx5 = getelementptr inbounds i8, ptr %dx, i64 22
  store i8 0, ptr %dx5, align 2
  %dx6 = getelementptr inbounds i8, ptr %dx, i64 23
  store i8 0, ptr %dx6, align 1
  %dx7 = getelementptr inbounds i8, ptr %dx, i64 24
  store i64 1, ptr %dx7, align 8
  %dx8 = getelementptr inbounds i8, ptr %dx, i64 32
  store i64 4, ptr %dx8, align 8
  %dx9 = getelementptr inbounds i8, ptr %dx, i64 40
  store i64 8, ptr %dx9, align 8
  store ptr null, ptr %ds, align 8
  %ds1 = getelementptr inbounds i8, ptr %ds, i64 8
  store i64 8, ptr %ds1, align 8
  %ds2 = getelementptr inbounds i8, ptr %ds, i64 16
  store i32 20240719, ptr %ds2, align 8
  %ds3 = getelementptr inbounds i8, ptr %ds, i64 20
  store i8 2, ptr %ds3, align 4
  %ds4 = getelementptr inbounds i8, ptr %ds, i64 21
  store i8 28, ptr %ds4, align 1
  %ds5 = getelementptr inbounds i8, ptr %ds, i64 22
  store i8 2, ptr %ds5, align 2
  call void @_FortranASpread(ptr %ds, ptr %dx, i32 2, i64 2, ptr @src, i32 3)
  %sbase = load ptr, ptr %ds, align 8
  ; p = pack(y, mask)
  store ptr %y, ptr %dy, align 8
  %dy1 = getelementptr inbounds i8, ptr %dy, i64 8
  store i64 4, ptr %dy1, align 8
  %dy2 = getelementptr inbounds i8, ptr %dy, i64 16
  store i32 20240719, ptr %dy2, align 8
  %dy3 = getelementptr inbounds i8, ptr %dy, i64 20
  store i8 1, ptr %dy3, align 4
  %dy4 = getelementptr inbounds i8, ptr %dy, i64 21
  store i8 27, ptr %dy4, align 1
  %dy5 = getelementptr inbounds i8, ptr %dy, i64 22
  store i8 0, ptr %dy5, align 2
  %dy6 = getelementptr inbounds i8, ptr %dy, i64 23
  store i8 0, ptr %dy6, align 1
  %dy7 = getelementptr inbounds i8, ptr %dy, i64 24
  store i64 1, ptr %dy7, align 8
  %dy8 = getelementptr inbounds i8, ptr %dy, i64 32
  store i64 4, ptr %dy8, align 8
  %dy9 = getelementptr inbounds i8, ptr %dy, i64 40
  store i64 4, ptr %dy9, align 8
  store <4 x i32> <i32 1, i32 0, i32 1, i32 1>, ptr %mask, align 4
  store ptr %mask, ptr %dm, align 8
  %dm1 = getelementptr inbounds i8, ptr %dm, i64 8
  store i64 4, ptr %dm1, align 8
  %dm2 = getelementptr inbounds i8, ptr %dm, i64 16
  store i32 20240719, ptr %dm2, align 8
  %dm3 = getelementptr inbounds i8, ptr %dm, i64 20
  store i8 1, ptr %dm3, align 4
  %dm4 = getelementptr inbounds i8, ptr %dm, i64 21
  store i8 39, ptr %dm4, align 1
  %dm5 = getelementptr inbounds i8, ptr %dm, i64 22
  store i8 0, ptr %dm5, align 2
  %dm6 = getelementptr inbounds i8, ptr %dm, i64 23
  store i8 0, ptr %dm6, align 1
  %dm7 = getelementptr inbounds i8, ptr %dm, i64 24
  store i64 1, ptr %dm7, align 8
  %dm8 = getelementptr inbounds i8, ptr %dm, i64 32
  store i64 4, ptr %dm8, align 8
  %dm9 = getelementptr inbounds i8, ptr %dm, i64 40
  store i64 4, ptr %dm9, align 8
  store ptr null, ptr %dp, align 8
  %dp1 = getelementptr inbounds i8, ptr %dp, i64 8
  store i64 4, ptr %dp1, align 8
  %dp2 = getelementptr inbounds i8, ptr %dp, i64 16
  store i32 20240719, ptr %dp2, align 8
  %dp3 = getelementptr inbounds i8, ptr %dp, i64 20
  store i8 1, ptr %dp3, align 4
  %dp4 = getelementptr inbounds i8, ptr %dp, i64 21
  store i8 27, ptr %dp4, align 1
  %dp5 = getelementptr inbounds i8, ptr %dp, i64 22
  store i8 2, ptr %dp5, align 2
  call void @_FortranAPack(ptr %dp, ptr %dy, ptr %dm, ptr null, ptr @src, i32 4)
  %pbase = load ptr, ptr %dp, align 8
  ; res = c(1) + s(1, 2) + p(1)
  %cv = load double, ptr %c, align 8
  %s12 = getelementptr i8, ptr %sbase, i64 32
  %sv = load double, ptr %s12, align 8
  %pv = load float, ptr %pbase, align 4
  %pd = fpext float %pv to double
  %r0 = fadd double %cv, %sv
  %r1 = fadd double %r0, %pd
  store double %r1, ptr %res, align 8
  call void @free(ptr %sbase)
  call void @free(ptr %pbase)
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %res, ptr %dres) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_dup, ptr %res, ptr %dres)
  ret void
}

; No run-time stop for a copy of unknown type (the base binary emits one for the memcpy):
; CHECK-NOT: @__fz_move_msg
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-NOT: @_FortranASpread(
; CHECK: @fz_aug___fz_f18_spread_r8(ptr %ds, ptr %ds.shadow, ptr %dx, ptr %dx.shadow,
; CHECK: @fz_aug___fz_f18_pack_r4(ptr %dp, ptr %dp.shadow, ptr %dy, ptr %dy.shadow,
; CHECK: @fz_rev___fz_f18_pack_r4(
; CHECK: @fz_rev___fz_f18_spread_r8(
