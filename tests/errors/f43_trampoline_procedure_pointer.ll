; EXPECT-ERROR: unsupported-instruction
; EXPECT-ERROR: is reached through a trampoline (`llvm.init.trampoline`
; EXPECT-ERROR: assigned to a procedure pointer
; EXPECT-ERROR: make the procedure a module procedure
; What flang-22 emits at -O0 for a Fortran internal procedure that reads its host's
; variables, assigned to a module's procedure pointer (`hook => scaled`) that another
; procedure calls: a trampoline on the stack (`llvm.init.trampoline` with the `nest`
; host-link tuple, then `llvm.adjust.trampoline`) whose address is stored in memory. The
; pass resolves a trampoline whose address is passed as an argument (the callee is
; inlined into the clone and the call made direct: filetests/f43_trampoline_direct_call,
; tests/fortran/96); one whose address goes through memory stays, and the error names the
; construct and the remedies. (At -O2 flang's inliner removes this one: checked, the
; gradient equals the analytic one.) Before f43 this file held the argument case
; (hpc41_trampoline_internal_procedure.ll), which is now differentiated.
@enzyme_dup = external global i32
@hook = global ptr null
declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.init.trampoline(ptr, ptr, ptr)
declare ptr @llvm.adjust.trampoline(ptr)
declare double @llvm.powi.f64.i32(double, i32)

define internal double @scaled(ptr %t, ptr nest %host) {
  %ap = load ptr, ptr %host, align 8
  %a = load double, ptr %ap, align 8
  %tv = load double, ptr %t, align 8
  %t2 = call double @llvm.powi.f64.i32(double %tv, i32 2)
  %r = fmul double %a, %t2
  ret double %r
}

define double @apply_hook(ptr %t) {
  %t2 = alloca double, align 8
  %h1 = load ptr, ptr @hook, align 8
  %r1 = call double %h1(ptr %t)
  %tv = load double, ptr %t, align 8
  %tt = fmul double %tv, 2.000000e+00
  store double %tt, ptr %t2, align 8
  %h2 = load ptr, ptr @hook, align 8
  %r2 = call double %h2(ptr %t2)
  %r = fadd double %r1, %r2
  ret double %r
}

define void @loss(ptr %x, ptr %f) {
entry:
  %tramp = alloca [32 x i8], align 1
  %host = alloca { ptr }, align 8
  %a = alloca double, align 8
  store ptr %a, ptr %host, align 8
  %x0 = load double, ptr %x, align 8
  %x1p = getelementptr double, ptr %x, i64 1
  %x1 = load double, ptr %x1p, align 8
  %av = fmul double %x0, %x1
  store double %av, ptr %a, align 8
  call void @llvm.init.trampoline(ptr %tramp, ptr @scaled, ptr %host)
  %g = call ptr @llvm.adjust.trampoline(ptr %tramp)
  store ptr %g, ptr @hook, align 8
  %r = call double @apply_hook(ptr %x)
  store double %r, ptr %f, align 8
  store ptr null, ptr @hook, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %f, ptr %df) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @loss, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %f, ptr %df)
  ret void
}
