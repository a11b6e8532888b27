; EXPECT-ERROR: unsupported-instruction
; EXPECT-ERROR: a pointer rebuilt from an integer (`inttoptr`)
; Near miss of tests/c/640's pointer difference added back (intptr.rs): the difference
; of two pointers into x is added to an integer argument (`nb + (&x[k] - x)`, rebasing
; onto whatever object `nb` holds the address of), not to a pointer. Taking x's shadow
; for the result would be wrong when nb is another object's address, so the inttoptr is
; kept and the audit rejects it.
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)
define double @g(ptr %x, i64 %nb, i64 %k) {
entry:
  %p = getelementptr double, ptr %x, i64 %k
  %pi = ptrtoint ptr %p to i64
  %xi = ptrtoint ptr %x to i64
  %d = sub i64 %pi, %xi
  %qi = add i64 %nb, %d
  %q = inttoptr i64 %qi to ptr
  %a = load double, ptr %q, align 8
  %b = load double, ptr %x, align 8
  %r = fmul double %a, %b
  ret double %r
}
define double @grad(ptr %x, ptr %dx, i64 %nb, i64 %k) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %c = call double (ptr, ...) @__enzyme_autodiff(ptr @g, i32 %0, ptr %x, ptr %dx, i64 %nb, i64 %k)
  ret double %c
}
