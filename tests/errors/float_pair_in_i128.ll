; EXPECT-ERROR: unsupported-instruction
; EXPECT-ERROR: in function `pick`
; EXPECT-ERROR: floating-point data moved as one `i128` integer
; EXPECT-ERROR: its bits become floating-point data again
; EXPECT-ERROR: in function `copy_pair`
; EXPECT-ERROR: stored whole into differentiable memory
; EXPECT-ERROR: move the floats as floats
; A pair of doubles (Rust's `(f64, f64)`, a 16-byte struct or enum payload) moved as one
; i128, the way rustc and SROA merge a 16-byte value: loaded as i128, selected, stored
; and reread as doubles (`pick`), or copied whole between differentiable memory
; (`copy_pair`). Type analysis and activity see an integer, so the derivatives were a
; silent zero; the audit (audit/wide_ints.rs) refuses until shadows follow wide integers.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @pick(ptr %x, ptr %y, i1 %c) {
entry:
  %s = alloca [16 x i8], align 16
  %a = load i128, ptr %x, align 8
  %b = load i128, ptr %y, align 8
  %p = select i1 %c, i128 %a, i128 %b
  store i128 %p, ptr %s, align 16
  %d0 = load double, ptr %s, align 16
  %g = getelementptr i8, ptr %s, i64 8
  %d1 = load double, ptr %g, align 8
  %r = fmul double %d0, %d1
  ret double %r
}

define double @copy_pair(ptr %x, ptr %out) {
entry:
  %a = load i128, ptr %x, align 8
  store i128 %a, ptr %out, align 8
  %d0 = load double, ptr %out, align 8
  %r = fmul double %d0, %d0
  ret double %r
}

define void @grad_pick(ptr %x, ptr %dx, ptr %y, ptr %dy, i1 %c) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @pick, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %y, ptr %dy, i1 %c)
  ret void
}

define void @grad_copy(ptr %x, ptr %dx, ptr %o, ptr %do) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @copy_pair, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %o, ptr %do)
  ret void
}
