; Decision: a descriptor that flang builds on the stack field by field for a type-bound
; call's `self` (`pots%p%energy(r)`), from an `enzyme_const` object, gets no shadow: the
; callee is differentiated with `self` constant, and nothing is added through the
; descriptor's base address.
; Why it matters: the slot holds pointers, so it used to get a shadow whose base was null
; (the constant object has no shadow); the callee's reverse sweep added the adjoint of
; `self%k` through it: a segfault at -O1..-O3 (tests/fortran/31_polymorphic_const_dispatch.f90
; before activity/descriptor_temps.rs).
;
; Reduced from flang-22 -O2: e = energy(self, r) with self's descriptor built by stores
; (base address from the constant `pots`, element size, the version 20240719, ...).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%desc = type { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] }

@enzyme_dup = external global i32
@enzyme_const = external global i32
@dt_harmonic = external constant [8 x i8]

declare void @__enzyme_autodiff(ptr, ...)

define internal double @energy(ptr noalias readonly %self, ptr noalias readonly %r) {
entry:
  %obj = load ptr, ptr %self, align 8
  %pk = getelementptr i8, ptr %obj, i64 8
  %k = load double, ptr %pk, align 8
  %rv = load double, ptr %r, align 8
  %kr = fmul double %k, %rv
  %e = fmul double %kr, %rv
  ret double %e
}

define void @total(ptr %pots, ptr %r, ptr %e) {
entry:
  %self = alloca %desc, align 8
  %obj = load ptr, ptr %pots, align 8
  %f1 = getelementptr inbounds nuw i8, ptr %self, i64 8
  %f2 = getelementptr inbounds nuw i8, ptr %self, i64 16
  %f7 = getelementptr inbounds nuw i8, ptr %self, i64 24
  %f8 = getelementptr inbounds nuw i8, ptr %self, i64 32
  store ptr %obj, ptr %self, align 8
  store i64 24, ptr %f1, align 8
  store i32 20240719, ptr %f2, align 8
  store ptr @dt_harmonic, ptr %f7, align 8
  store i64 0, ptr %f8, align 8
  %v = call double @energy(ptr nonnull %self, ptr %r)
  store double %v, ptr %e, align 8
  ret void
}

define void @grad(ptr %pots, ptr %r, ptr %dr, ptr %e, ptr %de) {
entry:
  %c = load i32, ptr @enzyme_const
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @total, i32 %c, ptr %pots, i32 %d, ptr %r, ptr %dr, i32 %d, ptr %e, ptr %de)
  ret void
}

; No shadow descriptor is built (no null base stored), and the adjoint of k goes nowhere:
; the only accumulation is into r's shadow.
; CHECK-LABEL: define internal void @fz_grad_total(
; CHECK-NOT: %self.shadow
; CHECK-NOT: store ptr null
; CHECK: call {{.*}} @fz_aug_energy{{[.a-z]*}}(ptr %self, ptr %r, ptr %r.shadow,
; CHECK: call void @fz_rev_energy{{[.a-z]*}}(ptr %self, ptr %r, ptr %r.shadow,
; CHECK: ret void
