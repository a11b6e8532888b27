; Decision: a Fortran internal procedure passed as an actual argument through a
; trampoline (flang-22 -O0: `llvm.init.trampoline(mem, @inner, host)`, then
; `llvm.adjust.trampoline(mem)`) is called directly in the clone being differentiated:
; the callee receiving the address (`@apply`, not inlined in the primal: noinline) is
; inlined into the clone, and its call through the address becomes `@inner(t, host)`,
; the host-link tuple inserted at the `nest` parameter. The trampoline intrinsics leave the
; clone; the user's function keeps them (`@loss` itself still has its trampoline).
; Why it matters: the derivative cannot see through the executable stub: this was an
; unsupported-instruction error (hpc41's errors test), and tests/fortran/96 was ignored at -O0.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.init.trampoline(ptr, ptr, ptr)
declare ptr @llvm.adjust.trampoline(ptr)

define internal double @inner(double %t, ptr nest %host) {
  %ap = load ptr, ptr %host, align 8
  %a = load double, ptr %ap, align 8
  %r = fmul double %a, %t
  ret double %r
}

define internal double @apply(ptr %g, double %t) noinline optnone {
  %r = call double %g(double %t)
  %t2 = fmul double %t, 2.000000e+00
  %r2 = call double %g(double %t2)
  %s = fadd double %r, %r2
  ret double %s
}

define double @loss(ptr %x) {
entry:
  %tramp = alloca [32 x i8], align 16
  %host = alloca { ptr }, align 8
  %av = alloca double, align 8
  store ptr %av, ptr %host, align 8
  %a = load double, ptr %x, align 8
  %a2 = fmul double %a, %a
  store double %a2, ptr %av, align 8
  call void @llvm.init.trampoline(ptr %tramp, ptr @inner, ptr %host)
  %g = call ptr @llvm.adjust.trampoline(ptr %tramp)
  %r = call double @apply(ptr %g, double %a)
  ret double %r
}

define void @main_grad(ptr %x, ptr %dx) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @loss, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define double @loss(
; CHECK: call void @llvm.init.trampoline(
; CHECK-LABEL: define internal void @fz_grad_loss(
; CHECK-NOT: trampoline
; CHECK: call {{.*}}@fz_aug_inner{{[.a-z]*}}(double {{.*}}, ptr %host, ptr %host.shadow,
; CHECK: call {{.*}}@fz_aug_inner{{[.a-z]*}}(double {{.*}}, ptr %host, ptr %host.shadow,
; CHECK: call {{.*}}@fz_rev_inner{{[.a-z]*}}(double {{.*}}, ptr %host, ptr %host.shadow,
; CHECK: call {{.*}}@fz_rev_inner{{[.a-z]*}}(double {{.*}}, ptr %host, ptr %host.shadow,
; CHECK-NOT: trampoline
; CHECK: ret void
