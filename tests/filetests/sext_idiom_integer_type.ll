; Decision: type analysis reads `ashr (shl x, 32), 32` (and `lshr`) with the same shift
; amount as the sign (zero) extension of x's low bits: x is an integer. A shift by 32
; alone says nothing about x (it may move the lane of a packed float pair), but a float
; shifted out and back is not a float any more.
; Why it matters: flang at -O2 reads the extent of an allocatable component of a
; derived-type argument as an i64 and sign-extends its low half this way (inlined
; `size(l%w)`); the extent's memory is part of the differentiated argument, so the load
; was a cannot-deduce-type error (tests/fortran/12_absent_optional_wrapper.f90 at -O2).
;
; Reduced: %d points to { ptr base, i64 lower bound, i64 extent }; the result is the sum
; of squares of the extent's elements.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @len_sum(ptr %d) {
entry:
  %ep = getelementptr inbounds i8, ptr %d, i64 16
  %e = load i64, ptr %ep, align 8
  %s = shl i64 %e, 32
  %n = ashr exact i64 %s, 32
  %base = load ptr, ptr %d, align 8
  %pos = icmp sgt i64 %n, 0
  br i1 %pos, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %p = getelementptr double, ptr %base, i64 %i
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  %acc1 = fadd double %acc, %sq
  %i1 = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit

exit:
  %r = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  ret double %r
}

define void @grad(ptr %d, ptr %dd) {
entry:
  %0 = call double (ptr, ...) @__enzyme_autodiff(ptr @len_sum, ptr @enzyme_dup, ptr %d, ptr %dd)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_len_sum(
; CHECK: load i64, ptr %ep
; CHECK: shl i64
; CHECK: ashr exact i64
; CHECK: fmul double
