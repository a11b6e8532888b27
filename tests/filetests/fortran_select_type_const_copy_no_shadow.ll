; Decision: a stack slot filled only by `memcpy` from `enzyme_const` memory (flang's copy
; of a polymorphic descriptor for `select type (q => obj%p)`), then read by
; `_FortranAClassIs` and loads, gets no shadow: the object address loaded back from it
; is constant, so `q%a` has no adjoint and nothing is added through the copy.
; Why it matters: the slot holds pointers, so it used to get a shadow; the shadow copy
; received no shadow pointer from the constant source (null), and the reverse sweep
; added the adjoint of `q%a` through it: a segfault at -O2
; (tests/fortran/30_polymorphic_select_type.f90 before the fix, activity/copy_slots.rs).
;
; Reduced from flang-22 -O2: e = x * q%a where `q => pots%p` is a `type is (morse)`
; branch of `select type`, pots enzyme_const, x enzyme_dup.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%desc = type { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] }

@enzyme_dup = external global i32
@enzyme_const = external global i32
@dt_morse = external constant [8 x i8]

declare i1 @_FortranAClassIs(ptr, ptr)
declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1)
declare void @__enzyme_autodiff(ptr, ...)

define void @energy(ptr %pots, ptr %x, ptr %e) {
entry:
  %q = alloca %desc, align 8
  call void @llvm.memcpy.p0.p0.i32(ptr align 8 %q, ptr align 1 %pots, i32 40, i1 false)
  %is = call i1 @_FortranAClassIs(ptr nonnull %q, ptr nonnull @dt_morse)
  br i1 %is, label %morse, label %other

morse:
  %obj = load ptr, ptr %q, align 8
  %pa = getelementptr i8, ptr %obj, i64 8
  %a = load double, ptr %pa, align 8
  %xv = load double, ptr %x, align 8
  %m = fmul double %xv, %a
  store double %m, ptr %e, align 8
  ret void

other:
  store double 0.0, ptr %e, align 8
  ret void
}

define void @grad(ptr %pots, ptr %x, ptr %dx, ptr %e, ptr %de) {
entry:
  %c = load i32, ptr @enzyme_const
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @energy, i32 %c, ptr %pots, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %e, ptr %de)
  ret void
}

; The slot has no shadow copy, and the adjoint goes to dx only: one accumulation.
; CHECK-LABEL: define internal void @fz_grad_energy(
; CHECK-NOT: %q.shadow
; CHECK: rev.morse:
; CHECK: store double {{.*}}, ptr %x.shadow
; CHECK-NOT: fadd
; CHECK: rev.other:
