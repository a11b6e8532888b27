; EXPECT-ERROR: unsupported-instruction
; EXPECT-ERROR: is passed as an argument through a trampoline (`llvm.init.trampoline`
; EXPECT-ERROR: make the procedure a module procedure
; What flang-22 emits at -O0 for a Fortran internal procedure that reads its host's
; variables, passed as an actual argument (tests/fortran/96): a trampoline on the
; stack (`llvm.init.trampoline` with the `nest` host-link pointer, then
; `llvm.adjust.trampoline`) whose address the callee calls. The derivative cannot see
; through the stub; the error names the construct and the remedy instead of "please
; report this intrinsic".
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.init.trampoline(ptr, ptr, ptr)
declare ptr @llvm.adjust.trampoline(ptr)

define internal double @inner(ptr nest %host, double %t) {
  %a = load double, ptr %host, align 8
  %r = fmul double %a, %t
  ret double %r
}

define internal double @apply(ptr %g, double %t) {
  %r = call double %g(double %t)
  ret double %r
}

define double @loss(ptr %x) {
entry:
  %tramp = alloca [32 x i8], align 16
  %host = alloca double, align 8
  %a = load double, ptr %x, align 8
  store double %a, ptr %host, align 8
  call void @llvm.init.trampoline(ptr %tramp, ptr @inner, ptr %host)
  %g = call ptr @llvm.adjust.trampoline(ptr %tramp)
  %r = call double @apply(ptr %g, double %a)
  ret double %r
}

define double @main_grad(ptr %x, ptr %dx) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @loss, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret double %d
}
