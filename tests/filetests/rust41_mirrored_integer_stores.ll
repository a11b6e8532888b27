; Decision: an integer store into the header of a shadowed buffer, whose bytes type
; analysis knows are an integer, is mirrored into the shadow memory (rust41, restricted by
; rust43, `common/mirrored_ints.rs`): a vector header `{cap, ptr, len}` passed
; `enzyme_dup` keeps the primal's length in its shadow, so the caller can use and release
; the shadow like the primal. The length's address (offset 16) has no shadow of its own
; (no float is reached through it): its shadow is the same GEP on the header's shadow.
; Forward mode stores the length where an integer's zero tangent went before; reverse
; mode's store is deferred past the reverse sweep (a final store) and mirrored there, at
; the same byte offset from the shadow base, into the sink slot when the header's shadow
; is null at run time (a caller without shadow memory there). Why it matters: a Rust
; `Vec<f64>` grown inside (`push`) was dropped by the caller with its old length and
; capacity, and a size-checking global allocator aborted. Not mirrored (rust43): an
; integer field of a record without a pointer (`@tag`: the shadow's integers stay the
; user's, tests/c/1250) and an integer out-argument (`@count`: a Fortran `ierr`, whose
; shadow may be null, tests/mpi/51).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal void @fz_grad_count(
; CHECK: store i32 3, ptr %k,
; CHECK-NOT: store i32
; CHECK: ret void
; CHECK-LABEL: define internal void @fz_grad_tag(
; CHECK: store i32 %t1, ptr %tp,
; CHECK-NOT: store i32
; CHECK: ret void
; CHECK-LABEL: define internal { double } @fz_grad_push(
; CHECK: %n = add i64 %len, 1
; CHECK: store i64 %n, ptr %lenp
; CHECK: [[OFF:%[0-9]+]] = sub i64
; CHECK-NEXT: [[S:%[0-9]+]] = getelementptr i8, ptr %v.shadow, i64 [[OFF]]
; CHECK-NEXT: [[REAL:%[0-9]+]] = icmp ne ptr %v.shadow, null
; CHECK-NEXT: [[A:%[0-9]+]] = select i1 [[REAL]], ptr [[S]], ptr @__fz_sink_slot
; CHECK-NEXT: store i64 %n, ptr [[A]]
; CHECK-LABEL: define internal { double, double } @fz_fwd_push(
; CHECK: store i64 %n, ptr %lenp
; CHECK-NEXT: [[T:%[0-9]+]] = getelementptr inbounds i8, ptr %v.d0, i64 16
; CHECK-NEXT: [[TREAL:%[0-9]+]] = icmp ne ptr %v.d0, null
; CHECK-NEXT: [[TA:%[0-9]+]] = select i1 [[TREAL]], ptr [[T]], ptr @__fz_sink_slot
; CHECK-NEXT: store i64 %n, ptr [[TA]]

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define double @push(ptr %v, double %a) {
entry:
  %lenp = getelementptr inbounds i8, ptr %v, i64 16
  %len = load i64, ptr %lenp, align 8
  %bufp = getelementptr inbounds i8, ptr %v, i64 8
  %buf = load ptr, ptr %bufp, align 8
  %slot = getelementptr inbounds double, ptr %buf, i64 %len
  %sq = fmul double %a, %a
  store double %sq, ptr %slot, align 8
  %n = add i64 %len, 1
  store i64 %n, ptr %lenp, align 8
  ret double %sq
}

define double @grad(ptr %v, ptr %dv, double %a) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @push, ptr @enzyme_dup, ptr %v, ptr %dv, double %a)
  ret double %r
}

define double @tangent(ptr %v, ptr %dv, double %a, double %da) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @push, ptr @enzyme_dup, ptr %v, ptr %dv, double %a, double %da)
  ret double %r
}

; A record `{double x; int tag}` without a pointer: `tag` stays the user's in the shadow.
define double @tag(ptr %p) {
entry:
  %x = load double, ptr %p, align 8
  %tp = getelementptr inbounds i8, ptr %p, i64 8
  %t = load i32, ptr %tp, align 4
  %t1 = add i32 %t, 1
  store i32 %t1, ptr %tp, align 4
  %sq = fmul double %x, %x
  ret double %sq
}

; An integer out-argument next to real data.
define double @count(ptr %k, ptr %x) {
entry:
  store i32 3, ptr %k, align 4
  %v = load double, ptr %x, align 8
  %sq = fmul double %v, %v
  ret double %sq
}

define double @grad_tag(ptr %p, ptr %dp) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @tag, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret double %r
}

define double @grad_count(ptr %k, ptr %dk, ptr %x, ptr %dx) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @count, ptr @enzyme_dup, ptr %k, ptr %dk, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret double %r
}
