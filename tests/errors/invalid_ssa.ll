; EXPECT-ERROR: malformed-ir
; EXPECT-ERROR: fails LLVM's verifier
; IR that parses but is invalid (a use before its definition): bad input, reported as
; malformed-ir before the pass runs (it used to be blamed on Ferrozyme as internal-error).
@enzyme_out = external global i32
declare double @__enzyme_autodiff(ptr, ...)
define double @f(double %x) {
entry:
  %a = fmul double %b, %x
  %b = fadd double %x, 1.0
  ret double %a
}
define double @g(double %x) {
  %m = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double %x)
  ret double %r
}
